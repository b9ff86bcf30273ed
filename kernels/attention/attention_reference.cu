// The float64 reference attention and the checked run (attention_reference.hpp).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "kernels/attention/attention_reference.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/reference_check.hpp"

namespace tilesim::kernels {
namespace {

constexpr int kThreads = 128;
constexpr int kWarps = kThreads / 32;
constexpr int kChunkKeys = 512;
constexpr int kMaxHeadDim = 256;
constexpr int kDimsPerThread = kMaxHeadDim / kThreads;

__device__ double to_double(__nv_bfloat16 x) {
  return static_cast<double>(__bfloat162float(x));
}
__device__ double to_double(__half x) {
  return static_cast<double>(__half2float(x));
}

// reference_attention_kernel
//   grid: (total_q, heads); block: 128 threads.
//   CTA: one query row of one head. Walks the visible keys in chunks of 512:
//   each warp takes every 4th key, lanes split the head dimension, a warp sum
//   gives the score; then every thread rescans the chunk for its maximum,
//   exponentiates its share, and accumulates p * v for its output dimensions,
//   rescaling its sum and accumulators when the running maximum grows.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    reference_attention_kernel(const T* q, const T* k, const T* v, const std::int64_t* kv_starts,
                               const int* kv_lens, int q_len, int heads, int kv_heads, int head_dim,
                               bool causal, float* out) {
  __shared__ double q_row[kMaxHeadDim];
  __shared__ double scores[kChunkKeys];
  const std::int64_t row = blockIdx.x;  // global query row
  const int head = blockIdx.y;
  const int b = static_cast<int>(row / q_len);
  const int query = static_cast<int>(row % q_len);
  const int kv_head = head / (heads / kv_heads);
  const int kv_len = kv_lens[b];
  const std::int64_t kv_start = kv_starts[b];
  const int visible = causal ? max(0, min(kv_len, kv_len - q_len + query + 1)) : kv_len;
  const double scale = 1.0 / sqrt(static_cast<double>(head_dim));
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;

  const T* q_head = q + (row * heads + head) * head_dim;
  for (int d = threadIdx.x; d < head_dim; d += kThreads) q_row[d] = to_double(q_head[d]);
  double running_max = -INFINITY;
  double sum = 0;
  double acc[kDimsPerThread] = {};
  __syncthreads();
  for (int chunk = 0; chunk < visible; chunk += kChunkKeys) {
    const int keys = min(kChunkKeys, visible - chunk);
    for (int j = warp; j < keys; j += kWarps) {
      const T* k_row = k + ((kv_start + chunk + j) * kv_heads + kv_head) * head_dim;
      double dot = 0;
      for (int d = lane; d < head_dim; d += 32) dot += q_row[d] * to_double(k_row[d]);
      for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_xor_sync(~0u, dot, offset);
      if (lane == 0) scores[j] = dot * scale;
    }
    __syncthreads();
    double chunk_max = -INFINITY;
    for (int j = 0; j < keys; ++j) chunk_max = fmax(chunk_max, scores[j]);
    const double new_max = fmax(running_max, chunk_max);
    const double rescale = exp(running_max - new_max);  // 0 on the first chunk
    sum *= rescale;
#pragma unroll
    for (double& a : acc) a *= rescale;
    running_max = new_max;
    __syncthreads();  // everyone has the maximum before the scores are overwritten
    for (int j = threadIdx.x; j < keys; j += kThreads) scores[j] = exp(scores[j] - new_max);
    __syncthreads();
    for (int j = 0; j < keys; ++j) {
      const double p = scores[j];
      sum += p;
      const T* v_row = v + ((kv_start + chunk + j) * kv_heads + kv_head) * head_dim;
#pragma unroll
      for (int i = 0; i < kDimsPerThread; ++i) {
        const int d = threadIdx.x + i * kThreads;
        if (d < head_dim) acc[i] += p * to_double(v_row[d]);
      }
    }
    __syncthreads();  // the next chunk overwrites the scores
  }
  float* out_row = out + (row * heads + head) * head_dim;
#pragma unroll
  for (int i = 0; i < kDimsPerThread; ++i) {
    const int d = threadIdx.x + i * kThreads;
    if (d < head_dim) out_row[d] = visible > 0 ? static_cast<float>(acc[i] / sum) : 0.0f;
  }
}

template <typename T>
void launch_reference(const AttentionProblem& problem, const AttentionTensors& packed, float* out,
                      cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(problem.total_q()), static_cast<unsigned>(problem.heads));
  reference_attention_kernel<T><<<grid, kThreads, 0, stream>>>(
      static_cast<const T*>(packed.q), static_cast<const T*>(packed.k),
      static_cast<const T*>(packed.v), packed.kv_starts, packed.kv_lens, problem.q_len,
      problem.heads, problem.kv_heads, problem.head_dim, problem.causal, out);
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void reference_attention(const AttentionProblem& problem, const AttentionTensors& packed,
                         float* out, cudaStream_t stream) {
  if (problem.dtype == ElementType::bf16) {
    launch_reference<__nv_bfloat16>(problem, packed, out, stream);
  } else {
    launch_reference<__half>(problem, packed, out, stream);
  }
}

double attention_error_bound(AttentionVariant variant, ElementType dtype) {
  const bool bf16 = dtype == ElementType::bf16;
  if (variant == AttentionVariant::unfused) return bf16 ? 2e-2 : 4e-3;
  return bf16 ? 1e-2 : 2e-3;
}

AttentionCheck check_attention(AttentionVariant variant, const AttentionInputs& inputs,
                               void* workspace, cudaStream_t stream) {
  const AttentionProblem& problem = inputs.problem();
  AttentionCheck check;
  check.bound = attention_error_bound(variant, problem.dtype);
  DeviceBuffer reference(static_cast<std::size_t>(inputs.output_elements()) * sizeof(float));
  inputs.poison_output(stream);
  check.kernels = launch_attention(variant, problem, inputs.tensors(), workspace, stream);
  TILESIM_CUDA_CHECK(cudaGetLastError());
  reference_attention(problem, inputs.reference_tensors(), reference.as<float>(), stream);
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  const ReferenceComparison comparison = compare_with_reference(
      inputs.tensors().o, problem.dtype, reference.as<float>(), inputs.output_elements(), stream);
  check.relative_error = comparison.relative_frobenius_error;
  check.non_finite = comparison.non_finite;
  check.guard_intact = inputs.output_guard_intact();
  return check;
}

}  // namespace tilesim::kernels
