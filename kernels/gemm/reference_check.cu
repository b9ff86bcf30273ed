// Random inputs, poisoning, cuBLAS reference and error measurement
// (reference_check.hpp).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/reference_check.hpp"

namespace tilesim::kernels {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::int64_t count) {
  return static_cast<unsigned>(
      std::clamp<std::int64_t>((count + kThreads - 1) / kThreads, 1, 4096));
}

__device__ std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <typename T>
__device__ T from_float(float x);
template <>
__device__ float from_float<float>(float x) {
  return x;
}
template <>
__device__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <>
__device__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}

__device__ float to_float(float x) {
  return x;
}
__device__ float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ float to_float(__half x) {
  return __half2float(x);
}

// fill_random_kernel
//   grid: up to 4096 CTAs striding over the elements; block: 256 threads.
//   CTA: writes sign * (1/16 + 15/16 * u), u uniform in [0, 1), per element.
template <typename T>
__global__ void fill_random_kernel(T* data, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t bits = mix(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i));
    const float unit = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
    const float magnitude = 0.0625f + 0.9375f * unit;
    data[i] = from_float<T>((bits & 1) ? -magnitude : magnitude);
  }
}

// compare_kernel
//   grid: up to 4096 CTAs striding over the elements; block: 256 threads.
//   CTA: sums (c - r)^2 and r^2 in float64 and counts non-finite c, reduces
//   them in shared memory and adds the CTA's totals atomically into `sums`.
template <typename T>
__global__ void compare_kernel(const T* c, const float* reference, std::int64_t count, double* sums,
                               unsigned long long* non_finite) {
  double diff2 = 0;
  double ref2 = 0;
  unsigned long long bad = 0;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const float value = to_float(c[i]);
    if (!isfinite(value)) {
      ++bad;
      continue;
    }
    const double d = static_cast<double>(value) - reference[i];
    diff2 += d * d;
    ref2 += static_cast<double>(reference[i]) * reference[i];
  }
  __shared__ double shared_diff[kThreads];
  __shared__ double shared_ref[kThreads];
  __shared__ unsigned long long shared_bad[kThreads];
  shared_diff[threadIdx.x] = diff2;
  shared_ref[threadIdx.x] = ref2;
  shared_bad[threadIdx.x] = bad;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) {
      shared_diff[threadIdx.x] += shared_diff[threadIdx.x + stride];
      shared_ref[threadIdx.x] += shared_ref[threadIdx.x + stride];
      shared_bad[threadIdx.x] += shared_bad[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&sums[0], shared_diff[0]);
    atomicAdd(&sums[1], shared_ref[0]);
    atomicAdd(non_finite, shared_bad[0]);
  }
}

cudaDataType_t cuda_type(ElementType type) {
  switch (type) {
    case ElementType::bf16:
      return CUDA_R_16BF;
    case ElementType::fp16:
      return CUDA_R_16F;
    case ElementType::fp32:
      return CUDA_R_32F;
  }
  return CUDA_R_32F;
}

}  // namespace

CublasHandle::CublasHandle(cudaStream_t stream) {
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw CudaError("cublasCreate failed");
  handle_.reset(handle);
  if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS) {
    throw CudaError("cublasSetStream failed");
  }
}

std::size_t element_bytes(ElementType type) {
  return type == ElementType::fp32 ? 4 : 2;
}

void fill_random(void* data, ElementType type, std::int64_t count, std::uint64_t seed,
                 cudaStream_t stream) {
  const unsigned blocks = blocks_for(count);
  switch (type) {
    case ElementType::bf16:
      fill_random_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count,
                                                          seed);
      break;
    case ElementType::fp16:
      fill_random_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<__half*>(data), count, seed);
      break;
    case ElementType::fp32:
      fill_random_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<float*>(data), count, seed);
      break;
  }
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

void poison(void* data, std::size_t bytes, cudaStream_t stream) {
  TILESIM_CUDA_CHECK(cudaMemsetAsync(data, 0xFF, bytes, stream));
}

cublasStatus_t cublas_gemm(const CublasHandle& handle, std::int64_t m, std::int64_t n,
                           std::int64_t k, ElementType input_type, ElementType output_type,
                           const void* a, const void* b, void* c) {
  // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
  const float alpha = 1.0f;
  const float beta = 0.0f;
  return cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n),
                      static_cast<int>(m), static_cast<int>(k), &alpha, b, cuda_type(input_type),
                      static_cast<int>(n), a, cuda_type(input_type), static_cast<int>(k), &beta, c,
                      cuda_type(output_type), static_cast<int>(n), CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}

ReferenceComparison compare_with_reference(const void* c, ElementType type, const float* reference,
                                           std::int64_t count, cudaStream_t stream) {
  DeviceBuffer sums(2 * sizeof(double) + sizeof(unsigned long long));
  TILESIM_CUDA_CHECK(cudaMemsetAsync(sums.get(), 0, sums.bytes(), stream));
  auto* sums_d = sums.as<double>();
  auto* bad_d = reinterpret_cast<unsigned long long*>(sums_d + 2);
  const unsigned blocks = blocks_for(count);
  switch (type) {
    case ElementType::bf16:
      compare_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const __nv_bfloat16*>(c),
                                                      reference, count, sums_d, bad_d);
      break;
    case ElementType::fp16:
      compare_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const __half*>(c), reference,
                                                      count, sums_d, bad_d);
      break;
    case ElementType::fp32:
      compare_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const float*>(c), reference,
                                                      count, sums_d, bad_d);
      break;
  }
  TILESIM_CUDA_CHECK(cudaGetLastError());
  double host_sums[2] = {0, 0};
  unsigned long long host_bad = 0;
  TILESIM_CUDA_CHECK(
      cudaMemcpyAsync(host_sums, sums_d, sizeof(host_sums), cudaMemcpyDeviceToHost, stream));
  TILESIM_CUDA_CHECK(
      cudaMemcpyAsync(&host_bad, bad_d, sizeof(host_bad), cudaMemcpyDeviceToHost, stream));
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  ReferenceComparison result;
  result.non_finite = static_cast<std::int64_t>(host_bad);
  result.relative_frobenius_error =
      host_sums[1] > 0 ? std::sqrt(host_sums[0] / host_sums[1]) : std::sqrt(host_sums[0]);
  return result;
}

double relative_error_bound(ElementType output_type) {
  switch (output_type) {
    case ElementType::bf16:
      return 1e-2;  // bf16 keeps 8 significant bits: rounding alone is ~2e-3 relative
    case ElementType::fp16:
      return 2e-3;  // 11 bits: ~3e-4 from rounding
    case ElementType::fp32:
      return 1e-4;  // fp32 sums of up to 65536 products in a different order
  }
  return 1e-2;
}

}  // namespace tilesim::kernels
