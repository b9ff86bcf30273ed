// The unfused path's softmax kernel (masked_softmax.hpp).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>

#include "kernels/attention/masked_softmax.hpp"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kVector = 8;  // 16-byte accesses when a row starts 16-byte aligned

__device__ float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ float to_float(__half x) {
  return __half2float(x);
}
template <typename T>
__device__ T from_float(float x);
template <>
__device__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
template <>
__device__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}

// Folds x into the running (max, sum of exp(. - max)) pair.
__device__ void online_add(float x, float& max, float& sum) {
  if (x <= max) {
    sum += __expf(x - max);
  } else {
    sum = sum * __expf(max - x) + 1.0f;
    max = x;
  }
}

__device__ void online_merge(float other_max, float other_sum, float& max, float& sum) {
  const float new_max = fmaxf(max, other_max);
  if (new_max == -FLT_MAX) return;  // both empty
  sum = sum * __expf(max - new_max) + other_sum * __expf(other_max - new_max);
  max = new_max;
}

// masked_softmax_kernel
//   grid: one CTA per row of S (heads * q_len of one sequence); block: 256 threads.
//   CTA: pass 1 folds the row's visible scores into a per-thread (max, sum),
//   merged across the CTA through shared memory; pass 2 re-reads the row and
//   writes P = exp(s - max) / sum, 0 for masked keys. 16-byte accesses when
//   kv_len is a multiple of 8, else one element per access.
template <typename T, int kWidth>
__global__ void __launch_bounds__(kThreads)
    masked_softmax_kernel(const T* s, T* p, int q_len, int kv_len, bool causal) {
  const std::int64_t row = blockIdx.x;
  const int query = static_cast<int>(row % q_len);
  const int visible = causal ? min(kv_len, kv_len - q_len + query + 1) : kv_len;
  const T* s_row = s + row * kv_len;
  T* p_row = p + row * kv_len;

  float max = -FLT_MAX;
  float sum = 0;
  for (int j = threadIdx.x * kWidth; j < visible; j += kThreads * kWidth) {
    T values[kWidth];
    if constexpr (kWidth == kVector) {
      *reinterpret_cast<uint4*>(values) = *reinterpret_cast<const uint4*>(s_row + j);
    } else {
      values[0] = s_row[j];
    }
#pragma unroll
    for (int e = 0; e < kWidth; ++e) {
      if (j + e < visible) online_add(to_float(values[e]), max, sum);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    online_merge(__shfl_xor_sync(~0u, max, offset), __shfl_xor_sync(~0u, sum, offset), max, sum);
  }
  __shared__ float warp_max[kWarps];
  __shared__ float warp_sum[kWarps];
  if (threadIdx.x % 32 == 0) {
    warp_max[threadIdx.x / 32] = max;
    warp_sum[threadIdx.x / 32] = sum;
  }
  __syncthreads();
  max = warp_max[0];
  sum = warp_sum[0];
  for (int w = 1; w < kWarps; ++w) online_merge(warp_max[w], warp_sum[w], max, sum);
  const float inverse_sum = 1.0f / sum;

  for (int j = threadIdx.x * kWidth; j < kv_len; j += kThreads * kWidth) {
    T values[kWidth];
    if constexpr (kWidth == kVector) {
      *reinterpret_cast<uint4*>(values) = *reinterpret_cast<const uint4*>(s_row + j);
    } else {
      values[0] = s_row[j];
    }
#pragma unroll
    for (int e = 0; e < kWidth; ++e) {
      const float x = to_float(values[e]);
      values[e] = from_float<T>(j + e < visible ? __expf(x - max) * inverse_sum : 0.0f);
    }
    if constexpr (kWidth == kVector) {
      *reinterpret_cast<uint4*>(p_row + j) = *reinterpret_cast<const uint4*>(values);
    } else {
      p_row[j] = values[0];
    }
  }
}

template <typename T>
void launch_typed(const MaskedSoftmaxRows& rows, cudaStream_t stream) {
  const auto* s = static_cast<const T*>(rows.s);
  auto* p = static_cast<T*>(rows.p);
  const auto grid = static_cast<unsigned>(rows.rows);
  if (rows.kv_len % kVector == 0) {
    masked_softmax_kernel<T, kVector>
        <<<grid, kThreads, 0, stream>>>(s, p, rows.q_len, rows.kv_len, rows.causal);
  } else {
    masked_softmax_kernel<T, 1>
        <<<grid, kThreads, 0, stream>>>(s, p, rows.q_len, rows.kv_len, rows.causal);
  }
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_masked_softmax(const MaskedSoftmaxRows& rows, cudaStream_t stream) {
  if (rows.dtype == ElementType::bf16) {
    launch_typed<__nv_bfloat16>(rows, stream);
  } else {
    launch_typed<__half>(rows, stream);
  }
}

}  // namespace tilesim::kernels
