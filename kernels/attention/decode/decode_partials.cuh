#pragma once
// What decode CTAs write at the end of a segment: the final O in the input
// type, or a partial -- O normalized over the segment's keys (fp32) and the
// rows' log2-sum-exp of the scaled scores (-inf: no key visible) -- that a
// combine kernel or a Stream-K owner merges:
//   O = sum_i 2^(lse_i - max lse) O_i / sum_i 2^(lse_i - max lse).
// Also the flag protocol of Stream-K's partials (release/acquire, gpu scope).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/attention/decode/decode_params.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::decode {

template <typename Element>
__device__ __forceinline__ uint2 to_elements(float4 v);
template <>
__device__ __forceinline__ uint2 to_elements<__nv_bfloat16>(float4 v) {
  const __nv_bfloat162 low = __floats2bfloat162_rn(v.x, v.y);
  const __nv_bfloat162 high = __floats2bfloat162_rn(v.z, v.w);
  return make_uint2(*reinterpret_cast<const unsigned*>(&low),
                    *reinterpret_cast<const unsigned*>(&high));
}
template <>
__device__ __forceinline__ uint2 to_elements<__half>(float4 v) {
  const __half2 low = __floats2half2_rn(v.x, v.y);
  const __half2 high = __floats2half2_rn(v.z, v.w);
  return make_uint2(*reinterpret_cast<const unsigned*>(&low),
                    *reinterpret_cast<const unsigned*>(&high));
}

// Packed row `row` of (sequence, KV head) is query row / group_size of the
// sequence and query head head * group_size + row % group_size.
template <typename Element, int kHeadDim>
__device__ __forceinline__ void store_output(const DecodeParams& p, int sequence, int head, int row,
                                             int group, float4 value) {
  const long long query = static_cast<long long>(sequence) * p.q_len + row / p.group_size;
  const int query_head = head * p.group_size + row % p.group_size;
  auto* o = static_cast<Element*>(p.o) + (query * p.heads + query_head) * kHeadDim + group * 4;
  *reinterpret_cast<uint2*>(o) = to_elements<Element>(value);
}

// First float of a partial's row: slot = pair * splits + split for split
// kernels, the CTA index for Stream-K.
__device__ __forceinline__ long long partial_row(const DecodeParams& p, long long slot, int row) {
  return slot * p.rows + row;
}

// Every thread of the CTA: the segment's merged O of each packed row into the
// output (a pair whose keys one CTA holds: nothing to merge with).
template <class Cta, class Cursor>
__device__ void store_merged_output(const Cta& cta, const DecodeParams& p, const Cursor& at) {
  const int items = p.rows * Cta::kColumnGroups;
  for (int item = static_cast<int>(threadIdx.x); item < items; item += Cta::kThreads) {
    const int row = item / Cta::kColumnGroups;
    const int group = item % Cta::kColumnGroups;
    store_output<typename Cta::Element, Cta::kHeadDim>(p, at.sequence, at.head, row, group,
                                                       cta.merged_output(row, group));
  }
}

// Every thread of the CTA: the segment's partial (merged O and log2-sum-exp
// of each packed row) into slot `slot`, through L2 (another CTA merges it).
template <class Cta>
__device__ void store_partial(const Cta& cta, const DecodeParams& p, long long slot) {
  const int items = p.rows * Cta::kColumnGroups;
  for (int item = static_cast<int>(threadIdx.x); item < items; item += Cta::kThreads) {
    const int row = item / Cta::kColumnGroups;
    const int group = item % Cta::kColumnGroups;
    const long long partial = partial_row(p, slot, row);
    __stcg(reinterpret_cast<float4*>(p.partial_o + partial * Cta::kHeadDim) + group,
           cta.merged_output(row, group));
    if (group == 0) __stcg(p.partial_lse + partial, cta.merged_lse(row));
  }
}

// A split's arrival in its pair's counter, by thread 0 after a barrier that
// follows the CTA's partial stores: __threadfence() (fence.sc.gpu) before the
// atomic (release: with the barrier, every thread's partial comes first) and
// after it (acquire, for the CTA that turns out last). Round 13 timed
// CUTLASS's arrive instead (decode_tail_handouts.cuh, ReleaseArrival): the
// merging CTA's arrival took the same 0.96 us, the launch the same time.
struct SeqCstArrival {
  // Counter `pair`'s count before this arrival.
  __device__ int arrive(int* counters, int pair) const {
    __threadfence();
    const int before = atomicAdd(counters + pair, 1);
    __threadfence();
    return before;
  }
  __device__ void acquire() const {}
  // Where a study stamps the epilogue's steps (decode_cta_trace.cuh); none here.
  __device__ void mark(int /*step*/) const {}
};

// Stream-K: thread 0 waits until a peer's flag is up (trapping after 20 s, so
// a broken protocol fails the launch instead of hanging) and lowers it again
// for the next launch.
__device__ __forceinline__ void take_flag(int* flag) {
  constexpr unsigned long long kWaitLimitNs = 20ull * 1000 * 1000 * 1000;
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (gemm::load_acquire_gpu(flag) != 1) {
    __nanosleep(32);
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > kWaitLimitNs) __trap();
  }
  *flag = 0;
}

}  // namespace tilesim::kernels::decode
