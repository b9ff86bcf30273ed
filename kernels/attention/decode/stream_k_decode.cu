// stream_k_decode: a persistent grid over the batch's KV blocks, balanced
// whatever the sequence lengths (LeanAttention-style Stream-K decode).

#include <algorithm>
#include <cub/block/block_scan.cuh>

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/decode/decode_config_dispatch.cuh"
#include "kernels/attention/decode/decode_cta.cuh"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_partials.cuh"
#include "kernels/attention/decode/decode_plan.hpp"
#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels::decode {
namespace {

// The CTA holding global block `block` of T blocks over G CTAs: the largest
// u with u * T / G <= block.
__device__ long long stream_k_cta_of(long long block, long long total_blocks, long long ctas) {
  return ((block + 1) * ctas - 1) / total_blocks;
}

// After each segment of a CTA's range (tail first: a pair's first block is
// reached last by the CTA that holds it):
//   whole pair: O.
//   peer (the pair began in an earlier CTA's range; always this CTA's first
//   segment): its partial to slot blockIdx.x, then flag[blockIdx.x] = 1.
//   owner (holds the pair's first block and so reaches it at the end of its
//   range): waits for the peers' flags in CTA order and lowers them, merges
//   own and peers' partials in that order (deterministic), writes O.
template <class Cfg>
struct StreamKEpilogue {
  using Element = typename Cfg::Element;

  template <class Cta, class Cursor>
  __device__ void operator()(const Cta& cta, const DecodeParams& p, const Cursor& at) const {
    const long long ctas = gridDim.x;
    const long long self = blockIdx.x;
    const long long owner = stream_k_cta_of(at.pair_begin, p.total_blocks, ctas);
    const long long last =
        stream_k_cta_of(at.pair_begin + at.pair_blocks - 1, p.total_blocks, ctas);
    const int items = p.rows * Cta::kColumnGroups;
    if (self != owner) {
      store_partial(cta, p, self);
      __syncthreads();
      if (threadIdx.x == 0) {
        __threadfence();
        gemm::store_release_gpu(p.flags + self, 1);
      }
      return;
    }
    if (last == owner) {
      store_merged_output(cta, p, at);
      return;
    }
    if (threadIdx.x == 0) {
      for (long long peer = owner + 1; peer <= last; ++peer) take_flag(p.flags + peer);
      __threadfence();
    }
    __syncthreads();
    float* shift = cta.row_scratch(0);
    float* own_weight = cta.row_scratch(1);
    float* inverse = cta.row_scratch(2);
    const int row = static_cast<int>(threadIdx.x);
    if (row < p.rows) {
      const float own = cta.merged_lse(row);
      float top = own;
      for (long long peer = owner + 1; peer <= last; ++peer) {
        top = fmaxf(top, __ldcg(p.partial_lse + partial_row(p, peer, row)));
      }
      const float s = top == -INFINITY ? 0.f : top;
      float total = exp2f(own - s);
      own_weight[row] = total;
      for (long long peer = owner + 1; peer <= last; ++peer) {
        total += exp2f(__ldcg(p.partial_lse + partial_row(p, peer, row)) - s);
      }
      shift[row] = s;
      inverse[row] = total > 0.f ? 1.f / total : 0.f;
    }
    __syncthreads();
    for (int item = static_cast<int>(threadIdx.x); item < items; item += Cfg::kThreads) {
      const int r = item / Cta::kColumnGroups;
      const int group = item % Cta::kColumnGroups;
      float4 o = cta.merged_output(r, group);
      const float w_own = own_weight[r];
      o = make_float4(o.x * w_own, o.y * w_own, o.z * w_own, o.w * w_own);
      for (long long peer = owner + 1; peer <= last; ++peer) {
        const long long partial = partial_row(p, peer, r);
        const float w = exp2f(__ldcg(p.partial_lse + partial) - shift[r]);
        const float4 v =
            __ldcg(reinterpret_cast<const float4*>(p.partial_o + partial * Cfg::kHeadDim) + group);
        o.x += w * v.x;
        o.y += w * v.y;
        o.z += w * v.z;
        o.w += w * v.w;
      }
      const float scale = inverse[r];
      store_output<Element, Cfg::kHeadDim>(
          p, at.sequence, at.head, r, group,
          make_float4(o.x * scale, o.y * scale, o.z * scale, o.w * scale));
    }
  }
};

// Where global block `target` lies: a block-wide scan over the sequences'
// block counts (kv_heads pairs each) finds its sequence, then its head and block.
template <class Cfg, class Cursor>
__device__ Cursor locate_block(const DecodeParams& p, long long target) {
  using Scan = cub::BlockScan<long long, Cfg::kThreads>;
  __shared__ typename Scan::TempStorage scan;
  __shared__ int found_sequence;
  __shared__ long long found_begin;
  long long base = 0;
  for (int first = 0; first < p.batch; first += Cfg::kThreads) {
    const int s = first + static_cast<int>(threadIdx.x);
    const long long blocks =
        s < p.batch ? static_cast<long long>(Cursor::blocks_of(p.kv_lens[s])) * p.kv_heads : 0;
    long long inclusive = 0;
    long long total = 0;
    Scan(scan).InclusiveSum(blocks, inclusive, total);
    const long long begin = base + inclusive - blocks;
    if (blocks > 0 && begin <= target && target < begin + blocks) {
      found_sequence = s;
      found_begin = begin;
    }
    __syncthreads();
    base += total;
    if (base > target) break;
  }
  Cursor at;
  at.enter_sequence(p, found_sequence);
  const long long offset = target - found_begin;
  at.head = static_cast<int>(offset / at.pair_blocks);
  at.block = static_cast<int>(offset % at.pair_blocks);
  at.pair_begin = found_begin + static_cast<long long>(at.head) * at.pair_blocks;
  return at;
}

// stream_k_decode_kernel<Cfg>
//   grid:  G persistent CTAs, all resident at once (owners wait for peers).
//   block: Cfg::kThreads (4 warps), Cfg::kSharedBytes of dynamic shared memory.
//   CTA u: global blocks [u*T/G, (u+1)*T/G) of the batch's pairs laid end to
//          end (sequence-major, KV heads inside; T = sum of their blocks),
//          streamed through one pipeline across pair boundaries; each pair's
//          segment ends in StreamKEpilogue.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads) stream_k_decode_kernel(const DecodeParams p) {
  extern __shared__ __align__(128) unsigned char smem[];
  using Cta = DecodeCta<Cfg, 0>;
  const long long first = blockIdx.x * p.total_blocks / gridDim.x;
  const long long end = (blockIdx.x + 1) * p.total_blocks / gridDim.x;
  const auto at = locate_block<Cfg, typename Cta::Cursor>(p, first);
  const StreamKEpilogue<Cfg> epilogue;
  Cta cta(smem);
  cta.run(p, at, end - first, epilogue);
}

template <class Cfg>
int resident_ctas_per_sm() {
  const auto kernel = stream_k_decode_kernel<Cfg>;
  constexpr int kShared = static_cast<int>(Cfg::kSharedBytes);
  TILESIM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  int ctas = 0;
  TILESIM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ctas, kernel, Cfg::kThreads, kShared));
  return ctas;
}

}  // namespace

int stream_k_decode_ctas(const AttentionProblem& problem) {
  int per_sm = 0;
  visit_decode_config(problem.dtype, problem.head_dim, decode_row_tiles(problem),
                      [&](auto cfg) { per_sm = resident_ctas_per_sm<decltype(cfg)>(); });
  if (per_sm < 1) throw CudaError("stream_k_decode: the kernel cannot be resident on this device");
  const long long ctas = std::min<long long>(static_cast<long long>(current_sm_count()) * per_sm,
                                             decode_total_blocks(problem));
  return static_cast<int>(ctas);
}

}  // namespace tilesim::kernels::decode

namespace tilesim::kernels {

std::optional<std::string> stream_k_decode_problem_error(const AttentionProblem& problem) {
  return decode::decode_problem_error(problem);
}

AttentionWorkspaceSize stream_k_decode_workspace_size(const AttentionProblem& problem) {
  decode::require_decode_problem(problem, "stream_k_decode");
  const int ctas = decode::stream_k_decode_ctas(problem);
  AttentionWorkspaceSize size;
  size.zeroed_bytes = decode::decode_flag_bytes(ctas);
  size.bytes = size.zeroed_bytes + decode::decode_partial_bytes(problem, ctas);
  return size;
}

int launch_stream_k_decode(const AttentionProblem& problem, const AttentionTensors& tensors,
                           void* workspace, cudaStream_t stream) {
  decode::require_decode_problem(problem, "stream_k_decode");
  const int ctas = decode::stream_k_decode_ctas(problem);
  decode::DecodeParams p = decode::make_decode_params(problem, tensors, false);
  p.total_blocks = decode::decode_total_blocks(problem);
  p.flags = static_cast<int*>(workspace);
  p.partial_o =
      reinterpret_cast<float*>(static_cast<char*>(workspace) + decode::decode_flag_bytes(ctas));
  p.partial_lse = p.partial_o + static_cast<long long>(ctas) * p.rows * problem.head_dim;
  decode::visit_decode_config(
      problem.dtype, problem.head_dim, decode::decode_row_tiles(problem), [&](auto cfg) {
        using Cfg = decltype(cfg);
        const auto kernel = decode::stream_k_decode_kernel<Cfg>;
        constexpr int kShared = static_cast<int>(Cfg::kSharedBytes);
        TILESIM_CUDA_CHECK(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
        kernel<<<static_cast<unsigned>(ctas), Cfg::kThreads, kShared, stream>>>(p);
        TILESIM_CUDA_CHECK(cudaGetLastError());
      });
  return 1;
}

}  // namespace tilesim::kernels
