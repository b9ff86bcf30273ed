// The split-KV decode kernel behind flash_decoding, paged_v1 and paged_v2.

#include <stdexcept>

#include "kernels/attention/decode/decode_config_dispatch.cuh"
#include "kernels/attention/decode/decode_cta.cuh"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

// After a split's (only) segment: O, or the partial at slot pair * splits + split.
template <class Cfg>
struct SplitEpilogue {
  int split;

  template <class Cta, class Cursor>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at) const {
    const long long slot = static_cast<long long>(at.pair_index(p)) * p.splits + split;
    for (int item = static_cast<int>(threadIdx.x); item < p.rows * Cta::kColumnGroups;
         item += Cfg::kThreads) {
      const int row = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      const float4 o = cta.merged_output(row, group);
      if (!p.write_partials) {
        store_output<typename Cfg::Element, Cfg::kHeadDim>(p, at.sequence, at.head, row, group, o);
        continue;
      }
      const long long partial = partial_row(p, slot, row);
      __stcg(reinterpret_cast<float4*>(p.partial_o + partial * Cfg::kHeadDim) + group, o);
      if (group == 0) __stcg(p.partial_lse + partial, cta.merged_lse(row));
    }
  }
};

// decode_split_kernel<Cfg, kPaged>
//   grid:  (splits, kv_heads, batch).
//   block: Cfg::kThreads (4 warps), Cfg::kSharedBytes of dynamic shared memory.
//   CTA:   blocks [split * blocks_per_split, ...) of pair (sequence, KV head),
//          clipped to the sequence; none: exits (the combine kernel reads only
//          the sequence's non-empty splits). Writes O (one split) or its partial.
template <class Cfg, bool kPaged>
__global__ void __launch_bounds__(Cfg::kThreads) decode_split_kernel(const DecodeParams p) {
  extern __shared__ __align__(128) unsigned char smem[];
  // Once every CTA has started, the combine kernel may launch (it waits for
  // this grid to finish before it reads a partial).
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
  using Cta = DecodeCta<Cfg, kPaged>;
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

template <class Cfg, bool kPaged>
void launch_typed(const DecodeParams& p, DecodeSplitPlan plan, int kv_heads, int batch,
                  cudaStream_t stream) {
  const auto kernel = decode_split_kernel<Cfg, kPaged>;
  constexpr int kShared = static_cast<int>(Cfg::kSharedBytes);
  TILESIM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  const dim3 grid(static_cast<unsigned>(plan.splits), static_cast<unsigned>(kv_heads),
                  static_cast<unsigned>(batch));
  kernel<<<grid, Cfg::kThreads, kShared, stream>>>(p);
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

int decode_split_ctas_per_sm(const AttentionProblem& problem) {
  int per_sm = 0;
  visit_decode_config(problem.dtype, problem.head_dim, decode_row_tiles(problem), [&](auto cfg) {
    using Cfg = decltype(cfg);
    const auto kernel = decode_split_kernel<Cfg, false>;
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
                         bool paged, DecodeSplitPlan plan, float* partials, cudaStream_t stream) {
  if (partials == nullptr && plan.splits != 1) {
    throw std::logic_error("launch_decode_split: several splits need a partial workspace");
  }
  DecodeParams p = make_decode_params(problem, tensors, paged);
  p.blocks_per_split = plan.blocks_per_split;
  p.splits = plan.splits;
  p.write_partials = partials != nullptr;
  p.partial_o = partials;
  if (partials != nullptr) {
    p.partial_lse = partials + decode_pairs(problem) * plan.splits * p.rows * problem.head_dim;
  }
  visit_decode_config(problem.dtype, problem.head_dim, decode_row_tiles(problem), [&](auto cfg) {
    using Cfg = decltype(cfg);
    static_assert(Cfg::kBlockKeys == kDecodeBlockKeys, "one block size for host and device");
    if (paged) {
      launch_typed<Cfg, true>(p, plan, problem.kv_heads, problem.batch, stream);
    } else {
      launch_typed<Cfg, false>(p, plan, problem.kv_heads, problem.batch, stream);
    }
  });
}

}  // namespace tilesim::kernels::decode
