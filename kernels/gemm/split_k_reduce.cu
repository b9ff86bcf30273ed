// Split-K parallel's reduction: C = convert(sum over slices s of partials[s]).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "kernels/gemm/gemm_epilogue.cuh"
#include "kernels/gemm/gemm_kernel_registry.hpp"

namespace tilesim::kernels::gemm {
namespace {

constexpr int kReduceThreads = 256;

// split_k_reduce
//   grid:  enough CTAs for one group of 4 elements per thread (capped; the
//          CTAs then stride over the matrix).
//   block: 256 threads.
//   CTA:   for each of its 4-element groups of C, adds the `splits` fp32
//          partials in slice order (deterministic) and writes the converted
//          sum. Groups use float4 loads when the element count allows.
template <typename Out>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce(const float* __restrict__ partials, Out* __restrict__ c, long long elements,
                   int splits) {
  using Convert = OutputPair<Out>;
  const bool vectors = elements % 4 == 0;
  const long long groups = (elements + 3) / 4;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long first = g * 4;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int s = 0; s < splits; ++s) {
      const float* slice = partials + s * elements;
      if (vectors) {
        const float4 v = __ldcs(reinterpret_cast<const float4*>(slice + first));
        sum[0] += v.x;
        sum[1] += v.y;
        sum[2] += v.z;
        sum[3] += v.w;
      } else {
        for (int e = 0; e < 4; ++e) {
          if (first + e < elements) sum[e] += __ldcs(slice + first + e);
        }
      }
    }
    for (int e = 0; e < 4; ++e) {
      if (first + e < elements) c[first + e] = Convert::one(sum[e]);
    }
  }
}

template <typename Out>
cudaError_t launch_typed(const float* partials, void* c, long long elements, int splits,
                         cudaStream_t stream) {
  const long long groups = (elements + 3) / 4;
  const long long blocks =
      std::min<long long>((groups + kReduceThreads - 1) / kReduceThreads, 65536);
  split_k_reduce<Out><<<static_cast<unsigned>(blocks), kReduceThreads, 0, stream>>>(
      partials, static_cast<Out*>(c), elements, splits);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_split_k_reduce(const float* partials, void* c, ElementType out,
                                  long long elements, int splits, cudaStream_t stream) {
  switch (out) {
    case ElementType::bf16:
      return launch_typed<__nv_bfloat16>(partials, c, elements, splits, stream);
    case ElementType::fp16:
      return launch_typed<__half>(partials, c, elements, splits, stream);
    case ElementType::fp32:
      return launch_typed<float>(partials, c, elements, splits, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace tilesim::kernels::gemm
