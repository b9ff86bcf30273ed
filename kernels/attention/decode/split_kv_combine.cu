// The combine kernel of the split variants (flash_decoding, paged_v2).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

constexpr int kCombineWarps = 4;
constexpr int kCombineUnroll = 8;  // splits whose partials are loaded before any is added

template <typename Element, int kHeadDim>
__device__ void store_row_part(Element* o, const float (&v)[kHeadDim / 32]) {
  if constexpr (kHeadDim == 128) {
    *reinterpret_cast<uint2*>(o) = to_elements<Element>(make_float4(v[0], v[1], v[2], v[3]));
  } else {
    const uint2 both = to_elements<Element>(make_float4(v[0], v[1], 0.f, 0.f));
    *reinterpret_cast<unsigned*>(o) = both.x;
  }
}

// split_kv_combine<Element, kHeadDim>
//   grid:  ceil(total_q x heads / 4); block: 4 warps, one output row (query, head) each;
//          a programmatic dependent launch (PDL) behind the split kernel.
//   Warp:  the row's pair has ceil(kv_len / split_keys) non-empty splits;
//          each lane adds d/32 columns of every split's partial O weighted by
//          2^(lse - running max) in split order (deterministic), then writes
//          the normalized row.
template <typename Element, int kHeadDim>
__global__ void __launch_bounds__(kCombineWarps * 32)
    split_kv_combine(const DecodeParams p, int split_keys, long long out_rows) {
  constexpr int kPerLane = kHeadDim / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const long long out_row =
      static_cast<long long>(blockIdx.x) * kCombineWarps + static_cast<int>(threadIdx.x) / 32;
  if (out_row >= out_rows) return;
  const long long query = out_row / p.heads;
  const int head = static_cast<int>(out_row % p.heads);
  const int sequence = static_cast<int>(query / p.q_len);
  const int row = static_cast<int>(query % p.q_len) * p.group_size + head % p.group_size;
  const long long first_slot =
      (static_cast<long long>(sequence) * p.kv_heads + head / p.group_size) * p.splits;
  const int splits = (p.kv_lens[sequence] + split_keys - 1) / split_keys;

  // Launched as a programmatic dependent of the split kernel: it may start
  // while that one finishes; the partials are read only once it has completed.
  asm volatile("griddepcontrol.wait;\n" ::: "memory");

  // One pass: each batch of kCombineUnroll splits' (lse, O) is loaded at
  // once; the running max moves by batch, rescaling what is summed so far.
  float top = -INFINITY;
  float acc[kPerLane] = {};
  float total = 0.f;
  for (int first = 0; first < splits; first += kCombineUnroll) {
    float lse[kCombineUnroll];
    float part[kCombineUnroll][kPerLane];
#pragma unroll
    for (int u = 0; u < kCombineUnroll; ++u) {
      lse[u] = -INFINITY;
#pragma unroll
      for (int e = 0; e < kPerLane; ++e) part[u][e] = 0.f;
      if (first + u >= splits) continue;
      const long long at = partial_row(p, first_slot + first + u, row);
      lse[u] = __ldcg(p.partial_lse + at);
      const float* src = p.partial_o + at * kHeadDim + lane * kPerLane;
      if constexpr (kPerLane == 4) {
        const float4 v = __ldcg(reinterpret_cast<const float4*>(src));
        part[u][0] = v.x;
        part[u][1] = v.y;
        part[u][2] = v.z;
        part[u][3] = v.w;
      } else {
        const float2 v = __ldcg(reinterpret_cast<const float2*>(src));
        part[u][0] = v.x;
        part[u][1] = v.y;
      }
    }
    float batch_top = top;
#pragma unroll
    for (int u = 0; u < kCombineUnroll; ++u) batch_top = fmaxf(batch_top, lse[u]);
    const float shift = batch_top == -INFINITY ? 0.f : batch_top;
    const float rescale = exp2f(top - shift);  // 0 while nothing was visible
    total *= rescale;
#pragma unroll
    for (int e = 0; e < kPerLane; ++e) acc[e] *= rescale;
#pragma unroll
    for (int u = 0; u < kCombineUnroll; ++u) {
      const float w = exp2f(lse[u] - shift);  // 0 for splits past the end (-inf)
      total += w;
#pragma unroll
      for (int e = 0; e < kPerLane; ++e) acc[e] += w * part[u][e];
    }
    top = batch_top;
  }
  const float inverse = total > 0.f ? 1.f / total : 0.f;
#pragma unroll
  for (int e = 0; e < kPerLane; ++e) acc[e] *= inverse;
  auto* o = static_cast<Element*>(p.o) + (query * p.heads + head) * kHeadDim + lane * kPerLane;
  store_row_part<Element, kHeadDim>(o, acc);
}

template <typename Element, int kHeadDim>
void launch_typed(const DecodeParams& p, int split_keys, long long out_rows, cudaStream_t stream) {
  const long long ctas = (out_rows + kCombineWarps - 1) / kCombineWarps;
  cudaLaunchAttribute dependent;
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(ctas));
  config.blockDim = dim3(kCombineWarps * 32);
  config.stream = stream;
  config.attrs = &dependent;
  config.numAttrs = 1;
  TILESIM_CUDA_CHECK(
      cudaLaunchKernelEx(&config, split_kv_combine<Element, kHeadDim>, p, split_keys, out_rows));
}

}  // namespace

void launch_split_kv_combine(const AttentionProblem& problem, const AttentionTensors& tensors,
                             DecodeSplitPlan plan, const float* partials, cudaStream_t stream) {
  DecodeParams p = make_decode_params(problem, tensors, false);
  p.splits = plan.splits;
  p.partial_o = const_cast<float*>(partials);
  p.partial_lse = p.partial_o + decode_pairs(problem) * plan.splits * p.rows * problem.head_dim;
  const int split_keys = plan.blocks_per_split * kDecodeBlockKeys;
  const long long out_rows = problem.total_q() * problem.heads;
  const bool bf16 = problem.dtype == ElementType::bf16;
  if (problem.head_dim == 128) {
    bf16 ? launch_typed<__nv_bfloat16, 128>(p, split_keys, out_rows, stream)
         : launch_typed<__half, 128>(p, split_keys, out_rows, stream);
  } else {
    bf16 ? launch_typed<__nv_bfloat16, 64>(p, split_keys, out_rows, stream)
         : launch_typed<__half, 64>(p, split_keys, out_rows, stream);
  }
}

}  // namespace tilesim::kernels::decode
