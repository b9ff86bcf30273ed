// The split-KV decode kernel behind flash_decoding, paged_v1 and paged_v2,
// with the merge of a pair's splits done by the pair's last CTA to finish.

#include <stdexcept>

#include "kernels/attention/decode/decode_config_dispatch.cuh"
#include "kernels/attention/decode/decode_cta.cuh"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

constexpr int kCombineUnroll = 8;  // splits whose partials are loaded before any is added

// After a split's (only) segment. A pair with one non-empty split (or a
// launch without partials) writes O. Otherwise the CTA writes its partial to
// slot pair * splits + split and counts itself in the pair's arrival counter;
// the last of the pair's non-empty splits to arrive merges them all into O
// (in split order, so the result does not depend on which CTA is last) and
// lowers the counter for the next launch. This replaces round 5's combine
// kernel, its launch and its tail (4.3 us of 54.3 at 1 x 32k).
template <class Cfg>
struct SplitEpilogue {
  using Element = typename Cfg::Element;
  int split;

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
      __threadfence();  // release: this partial before the arrival
      arrived = atomicAdd(p.split_arrivals + pair, 1);
      __threadfence();  // acquire (if last): the others' partials after their arrivals
    }
    if (!__syncthreads_or(threadIdx.x == 0 && arrived == pair_splits - 1)) return;
    if (threadIdx.x == 0) p.split_arrivals[pair] = 0;  // all arrived: ready for the next launch
    const int items = p.rows * Cta::kColumnGroups;
    for (int item = static_cast<int>(threadIdx.x); item < items; item += Cfg::kThreads) {
      const int row = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      store_output<Element, Cfg::kHeadDim>(p, at.sequence, at.head, row, group,
                                           combine(p, first_slot, pair_splits, row, group));
    }
  }

  // sum_i 2^(lse_i - max) O_i / sum_i 2^(lse_i - max) over the pair's splits,
  // for float4 group `group` of packed row `row`. Each batch of kCombineUnroll
  // splits is loaded at once (from L2: the partials were just written); the
  // running max moves by batch, rescaling what is summed so far.
  __device__ static float4 combine(const DecodeParams& p, long long first_slot, int pair_splits,
                                   int row, int group) {
    float top = -INFINITY;
    float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
    float total = 0.f;
    for (int first = 0; first < pair_splits; first += kCombineUnroll) {
      float lse[kCombineUnroll];
      float4 part[kCombineUnroll];
#pragma unroll
      for (int u = 0; u < kCombineUnroll; ++u) {
        lse[u] = -INFINITY;
        part[u] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (first + u >= pair_splits) continue;
        const long long partial = partial_row(p, first_slot + first + u, row);
        lse[u] = __ldcg(p.partial_lse + partial);
        part[u] =
            __ldcg(reinterpret_cast<const float4*>(p.partial_o + partial * Cfg::kHeadDim) + group);
      }
      float batch_top = top;
#pragma unroll
      for (int u = 0; u < kCombineUnroll; ++u) batch_top = fmaxf(batch_top, lse[u]);
      const float shift = batch_top == -INFINITY ? 0.f : batch_top;
      const float rescale = exp2f(top - shift);  // 0 while nothing was visible
      total *= rescale;
      acc.x *= rescale;
      acc.y *= rescale;
      acc.z *= rescale;
      acc.w *= rescale;
#pragma unroll
      for (int u = 0; u < kCombineUnroll; ++u) {
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

// decode_split_kernel<Cfg, kPageKeys>
//   grid:  (splits, kv_heads, batch).
//   block: Cfg::kThreads (4 warps), Cfg::kSharedBytes of dynamic shared memory
//          (paged: and Cfg::kPageRingBytes).
//   CTA:   blocks [split * blocks_per_split, ...) of pair (sequence, KV head),
//          clipped to the sequence; none: exits (it is not counted: the pair's
//          non-empty splits are known from its length). Writes O (one split),
//          or its partial and, if it is the pair's last to finish, O merged
//          from every split's partial.
//   kPageKeys: 0 contiguous cache; paged: 16, 32, or kBlockKeys for pages of
//          64 keys or more (kv_cache_rows.cuh).
template <class Cfg, int kPageKeys>
__global__ void __launch_bounds__(Cfg::kThreads) decode_split_kernel(const DecodeParams p) {
  extern __shared__ __align__(128) unsigned char smem[];
  using Cta = DecodeCta<Cfg, kPageKeys>;
  typename Cta::Cursor at;
  at.enter_sequence(p, static_cast<int>(blockIdx.z));
  at.head = static_cast<int>(blockIdx.y);
  const int split = static_cast<int>(blockIdx.x);
  const long long first = static_cast<long long>(split) * p.blocks_per_split;
  if (first >= at.pair_blocks) return;
  at.block = static_cast<int>(first);
  const long long blocks =
      min(static_cast<long long>(at.pair_blocks), first + p.blocks_per_split) - first;
  const SplitEpilogue<Cfg> epilogue{split};
  Cta cta(smem);
  cta.run(p, at, blocks, epilogue);
}

template <class Cfg, int kPageKeys>
void launch_typed(const DecodeParams& p, DecodeSplitPlan plan, int kv_heads, int batch,
                  cudaStream_t stream) {
  const auto kernel = decode_split_kernel<Cfg, kPageKeys>;
  constexpr int kShared =
      static_cast<int>(Cfg::kSharedBytes + (kPageKeys != 0 ? Cfg::kPageRingBytes : 0));
  TILESIM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  const dim3 grid(static_cast<unsigned>(plan.splits), static_cast<unsigned>(kv_heads),
                  static_cast<unsigned>(batch));
  kernel<<<grid, Cfg::kThreads, kShared, stream>>>(p);
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

AttentionWorkspaceSize decode_split_workspace_size(const AttentionProblem& problem,
                                                   DecodeSplitPlan plan) {
  const long long pairs = decode_pairs(problem);
  AttentionWorkspaceSize size;
  size.splits = plan.splits;
  size.zeroed_bytes = decode_flag_bytes(pairs);
  size.bytes = size.zeroed_bytes + decode_partial_bytes(problem, pairs * plan.splits);
  return size;
}

int decode_split_ctas_per_sm(const AttentionProblem& problem) {
  int per_sm = 0;
  visit_decode_config(problem.dtype, problem.head_dim, decode_row_tiles(problem), [&](auto cfg) {
    using Cfg = decltype(cfg);
    const auto kernel = decode_split_kernel<Cfg, 0>;
    constexpr int kShared = static_cast<int>(Cfg::kSharedBytes);
    TILESIM_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
    TILESIM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Cfg::kThreads, kShared));
  });
  if (per_sm < 1) throw CudaError("decode attention: the split kernel cannot be resident");
  return per_sm;
}

void launch_decode_split(const AttentionProblem& problem, const AttentionTensors& tensors,
                         bool paged, DecodeSplitPlan plan, void* workspace, cudaStream_t stream) {
  if (workspace == nullptr && plan.splits != 1) {
    throw std::logic_error("launch_decode_split: several splits need a workspace");
  }
  DecodeParams p = make_decode_params(problem, tensors, paged);
  p.blocks_per_split = plan.blocks_per_split;
  p.splits = plan.splits;
  p.write_partials = workspace != nullptr;
  if (workspace != nullptr) {
    const long long pairs = decode_pairs(problem);
    p.split_arrivals = static_cast<int*>(workspace);
    p.partial_o =
        reinterpret_cast<float*>(static_cast<char*>(workspace) + decode_flag_bytes(pairs));
    p.partial_lse = p.partial_o + pairs * plan.splits * p.rows * problem.head_dim;
  }
  visit_decode_config(problem.dtype, problem.head_dim, decode_row_tiles(problem), [&](auto cfg) {
    using Cfg = decltype(cfg);
    static_assert(Cfg::kBlockKeys == kDecodeBlockKeys, "one block size for host and device");
    if (!paged) {
      launch_typed<Cfg, 0>(p, plan, problem.kv_heads, problem.batch, stream);
    } else if (problem.page_size == 16) {
      launch_typed<Cfg, 16>(p, plan, problem.kv_heads, problem.batch, stream);
    } else if (problem.page_size == 32) {
      launch_typed<Cfg, 32>(p, plan, problem.kv_heads, problem.batch, stream);
    } else {
      launch_typed<Cfg, Cfg::kBlockKeys>(p, plan, problem.kv_heads, problem.batch, stream);
    }
  });
}

}  // namespace tilesim::kernels::decode
