// The split-KV decode kernel behind flash_decoding, paged_v1 and paged_v2,
// with the merge of a pair's splits done by the pair's last CTA to finish.

#include <stdexcept>

#include "kernels/attention/decode/decode_config_dispatch.cuh"
#include "kernels/attention/decode/decode_cta.cuh"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/attention/decode/decode_split_epilogue.cuh"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

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
  const SplitEpilogue<Cfg> epilogue{split, {}};
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
