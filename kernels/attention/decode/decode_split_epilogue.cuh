#pragma once
// The end of a split-KV decode CTA's segment: O when its pair has one split,
// else its partial, and the merge of the pair's partials by the last of its
// splits to arrive (decode_split_kernel.cu; tilesim-decode-tail-study times
// it beside other handouts).

#include "kernels/attention/decode/decode_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"

namespace tilesim::kernels::decode {

constexpr int kCombineUnroll = 8;  // SplitEpilogue's default unroll

// After a split's (only) segment. A pair with one non-empty split (or a
// launch without partials) writes O. Otherwise the CTA writes its partial to
// slot pair * splits + split and counts itself in the pair's arrival counter;
// the last of the pair's non-empty splits to arrive merges them all into O
// (in split order, so the result does not depend on which CTA is last) and
// lowers the counter for the next launch. This replaces round 5's combine
// kernel, its launch and its tail (4.3 us of 54.3 at 1 x 32k).
// kUnroll: splits whose partials the merge loads before it adds any.
// Arrival: the counter's protocol (decode_partials.cuh; a study's may also
// stamp the steps).
template <class Cfg, int kUnroll = kCombineUnroll, class Arrival = SeqCstArrival>
struct SplitEpilogue {
  using Element = typename Cfg::Element;
  int split;
  Arrival arrival;

  template <class Cta, class Cursor>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at) const {
    const int pair_splits = (at.pair_blocks + p.blocks_per_split - 1) / p.blocks_per_split;
    if (!p.write_partials || pair_splits == 1) {
      store_merged_output(cta, p, at);
      return;
    }
    const int pair = at.pair_index(p);
    const long long first_slot = static_cast<long long>(pair) * p.splits;
    store_partial(cta, p, first_slot + split);
    __syncthreads();  // the whole partial is written before thread 0 arrives
    int arrived = 0;
    if (threadIdx.x == 0) {
      arrival.mark(0);
      arrived = arrival.arrive(p.split_arrivals, pair);
      if (arrived == pair_splits - 1) arrival.acquire();  // the others' partials after theirs
      arrival.mark(1);
    }
    if (!__syncthreads_or(threadIdx.x == 0 && arrived == pair_splits - 1)) return;
    if (threadIdx.x == 0) p.split_arrivals[pair] = 0;  // all arrived: ready for the next launch
    const int items = p.rows * Cta::kColumnGroups;
    for (int item = static_cast<int>(threadIdx.x); item < items; item += Cfg::kThreads) {
      const int row = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      const auto stored = [&](int first, int u, float& lse, float4& o) {
        load_partial(p, first_slot + first + u, row, group, lse, o);
      };
      store_output<Element, Cfg::kHeadDim>(p, at.sequence, at.head, row, group,
                                           combine(pair_splits, stored));
    }
  }

  // Float4 group `group` of packed row `row` of the partial in `slot`, from L2
  // (another CTA just wrote it).
  __device__ static void load_partial(const DecodeParams& p, long long slot, int row, int group,
                                      float& lse, float4& o) {
    const long long partial = partial_row(p, slot, row);
    lse = __ldcg(p.partial_lse + partial);
    o = __ldcg(reinterpret_cast<const float4*>(p.partial_o + partial * Cfg::kHeadDim) + group);
  }

  // sum_i 2^(lse_i - max) O_i / sum_i 2^(lse_i - max) over the pair's splits,
  // one float4 group of one row, split i = first + u's (lse_i, O_i) from
  // partial(first, u, lse, o) (apart, so a slot's 64-bit index adds u as a constant).
  // Each batch of kUnroll splits is fetched at once; the running max moves by
  // batch, rescaling what is summed so far.
  template <class Partial>
  __device__ static float4 combine(int pair_splits, const Partial& partial) {
    float top = -INFINITY;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    float total = 0.f;
    for (int first = 0; first < pair_splits; first += kUnroll) {
      float lse[kUnroll];
      float4 part[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        lse[u] = -INFINITY;
        part[u] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (first + u < pair_splits) partial(first, u, lse[u], part[u]);
      }
      float batch_top = top;
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) batch_top = fmaxf(batch_top, lse[u]);
      const float shift = batch_top == -INFINITY ? 0.f : batch_top;
      const float rescale = exp2f(top - shift);  // 0 while nothing was visible
      total *= rescale;
      acc.x *= rescale;
      acc.y *= rescale;
      acc.z *= rescale;
      acc.w *= rescale;
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const float w = exp2f(lse[u] - shift);  // 0 for splits past the end (-inf)
        total += w;
        acc.x += w * part[u].x;
        acc.y += w * part[u].y;
        acc.z += w * part[u].z;
        acc.w += w * part[u].w;
      }
      top = batch_top;
    }
    const float inverse = total > 0.f ? 1.f / total : 0.f;
    return make_float4(acc.x * inverse, acc.y * inverse, acc.z * inverse, acc.w * inverse);
  }
};

}  // namespace tilesim::kernels::decode
