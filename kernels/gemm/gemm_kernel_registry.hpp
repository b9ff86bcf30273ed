#pragma once
// Internal to kernels/gemm: the compiled kernels, looked up by (tile variant,
// input type, output type, vector loads) for each scheduler. Each scheduler's
// variants are instantiated in their own translation unit
// (gemm_kernels_<schedule>.cu) so they compile in parallel.

#include <cuda_runtime_api.h>

#include "kernels/gemm/gemm_launch.hpp"

namespace tilesim::kernels::gemm {

struct GemmKernelParams;

// A compiled kernel and what launching it needs.
struct GemmKernelHandle {
  const void* function = nullptr;
  int threads = 0;
  int shared_bytes = 0;
  bool tensor_maps = false;    // takes GemmTensorMaps as its third argument (wgmma kernels)
  bool stores_by_tma = false;  // ... GemmStoreTensorMaps instead (the tma_store variant)
  int cluster_ctas = 1;        // launched in clusters of this many CTAs along x
  int swizzle_bytes_b = 128;   // B's and C's TMA boxes: 128- or 64-byte swizzle
};

enum class SchedulerKind { data_parallel, split_k, stream_k };

// Nothing (function == nullptr) when no variant was compiled for the choice.
GemmKernelHandle find_gemm_kernel(SchedulerKind scheduler, GemmTileVariant variant, ElementType in,
                                  ElementType out, bool vector_loads);

// Every compiled variant, for setting attributes and reading occupancy.
template <class Visit>
void for_each_gemm_kernel(Visit&& visit) {
  for (const SchedulerKind scheduler :
       {SchedulerKind::data_parallel, SchedulerKind::split_k, SchedulerKind::stream_k}) {
    for (int v = 0; v < kGemmTileVariantCount; ++v) {
      const auto variant = static_cast<GemmTileVariant>(v);
      for (const ElementType in : {ElementType::bf16, ElementType::fp16}) {
        for (const ElementType out : {ElementType::bf16, ElementType::fp16, ElementType::fp32}) {
          for (const bool vector_loads : {true, false}) {
            const GemmKernelHandle handle =
                find_gemm_kernel(scheduler, variant, in, out, vector_loads);
            if (handle.function != nullptr) visit(scheduler, variant, handle);
          }
        }
      }
    }
  }
}

// One function per scheduler translation unit.
GemmKernelHandle find_data_parallel_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                           bool vector_loads);
GemmKernelHandle find_split_k_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                     bool vector_loads);
GemmKernelHandle find_stream_k_kernel(GemmTileVariant variant, ElementType in, ElementType out,
                                      bool vector_loads);

// Split-K parallel's second kernel: C = sum over slices of the fp32 partials.
cudaError_t launch_split_k_reduce(const float* partials, void* c, ElementType out,
                                  long long elements, int splits, cudaStream_t stream);

}  // namespace tilesim::kernels::gemm
