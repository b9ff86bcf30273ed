#include "kernels/measure/cublas_host_probe.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/reference_check.hpp"

namespace tilesim::measure {
namespace {

// 64 x 64 x 64 over 8 batch entries: a few microseconds of GPU time, below the
// host's ~5-12 us a call, so the queue never fills and the host is what is timed.
constexpr int kDim = 64;
constexpr int kBatch = 8;
constexpr int kCallsPerBurst = 100;
constexpr int kBursts = 7;  // and one untimed burst first (heuristic cache, clocks)

void issue(cublasHandle_t handle, const void* a, void* c) {
  const float one = 1.0f;
  const float zero = 0.0f;
  const long long stride = static_cast<long long>(kDim) * kDim;
  const cublasStatus_t status = cublasGemmStridedBatchedEx(
      handle, CUBLAS_OP_T, CUBLAS_OP_N, kDim, kDim, kDim, &one, a, CUDA_R_16BF, kDim, stride, a,
      CUDA_R_16BF, kDim, stride, &zero, c, CUDA_R_16BF, kDim, stride, kBatch, CUBLAS_COMPUTE_32F,
      CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw kernels::CudaError("cuBLAS host probe: cuBLAS status " +
                             std::to_string(static_cast<int>(status)));
  }
}

}  // namespace

double cublas_call_host_us(cudaStream_t stream) {
  const kernels::CublasHandle handle(stream);
  const std::size_t bytes = std::size_t{kBatch} * kDim * kDim * 2;
  kernels::DeviceBuffer a(bytes);
  kernels::DeviceBuffer c(bytes);
  TILESIM_CUDA_CHECK(cudaMemsetAsync(a.get(), 0, bytes, stream));
  std::vector<double> per_call_us;
  for (int burst = 0; burst <= kBursts; ++burst) {
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto start = std::chrono::steady_clock::now();
    for (int call = 0; call < kCallsPerBurst; ++call) issue(handle.get(), a.get(), c.get());
    const std::chrono::duration<double, std::micro> host = std::chrono::steady_clock::now() - start;
    if (burst > 0) per_call_us.push_back(host.count() / kCallsPerBurst);
  }
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::nth_element(per_call_us.begin(), per_call_us.begin() + kBursts / 2, per_call_us.end());
  return per_call_us[kBursts / 2];
}

}  // namespace tilesim::measure
