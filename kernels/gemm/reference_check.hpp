#pragma once
// What checking and timing a GEMM needs besides the kernel: random inputs,
// poisoned outputs, cuBLAS (the reference and the `library` kernel), and the
// relative Frobenius error of an output against an fp32 reference.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "kernels/gemm/gemm_launch.hpp"

namespace tilesim::kernels {

// Owns a cuBLAS handle bound to one stream.
class CublasHandle {
 public:
  explicit CublasHandle(cudaStream_t stream);
  cublasHandle_t get() const { return handle_.get(); }

 private:
  struct Destroy {
    void operator()(cublasContext* handle) const noexcept { cublasDestroy(handle); }
  };
  std::unique_ptr<cublasContext, Destroy> handle_;
};

// Fills `count` elements with values of magnitude in [1/16, 1] and random sign
// (never zero), from a counter-based hash of (seed, index).
void fill_random(void* data, ElementType type, std::int64_t count, std::uint64_t seed,
                 cudaStream_t stream);

// Fills with all-ones bytes: NaN in bf16, fp16 and fp32, so unwritten outputs show.
void poison(void* data, std::size_t bytes, cudaStream_t stream);

std::size_t element_bytes(ElementType type);

// C = A * B through cublasGemmEx with fp32 compute (row-major operands as in
// GemmLaunchConfig; the output type is `output_type`). Returns cuBLAS's status.
cublasStatus_t cublas_gemm(const CublasHandle& handle, std::int64_t m, std::int64_t n,
                           std::int64_t k, ElementType input_type, ElementType output_type,
                           const void* a, const void* b, void* c);

struct ReferenceComparison {
  double relative_frobenius_error = 0;  // ||C - R|| / ||R||
  std::int64_t non_finite = 0;          // NaN or Inf elements of C (unwritten outputs)
};

// Compares C (of `type`) with the fp32 reference R on the device, in float64.
ReferenceComparison compare_with_reference(const void* c, ElementType type, const float* reference,
                                           std::int64_t count, cudaStream_t stream);

// The error a correct kernel stays within for this output type (fp32
// accumulation in a different order, one rounding to the output type).
double relative_error_bound(ElementType output_type);

}  // namespace tilesim::kernels
