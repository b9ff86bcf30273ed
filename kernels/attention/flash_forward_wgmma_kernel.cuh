#pragma once
// The Hopper flash forward kernel (FlashAttention-3's algorithm, sm_90a):
// warp-specialized, a TMA producer warpgroup and two wgmma consumer
// warpgroups (setmaxnreg moves registers from the first to the others), K and
// V blocks in a ring of 128-byte-swizzled shared-memory stages that complete
// on mbarriers, S = Q K^T and O += P V on wgmma, online softmax in registers
// in base 2. The softmax of one block overlaps tensor-core work twice over:
//   - inside a warpgroup, S of block j+1 and P V of block j are issued
//     together and the softmax of block j+1 runs while P V is in flight;
//   - between the two warpgroups (ping-pong), named barriers let them issue
//     their GEMMs in turn, so one's softmax runs under the other's GEMMs.
// GQA by the K/V tensor map's head column; any length (TMA zero-fills rows
// past the tensor, scores past kv_len or the diagonal are masked).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/attention/flash_block_order.cuh"
#include "kernels/attention/flash_forward_params.hpp"
#include "kernels/attention/flash_numerics.cuh"
#include "kernels/attention/flash_wgmma_ops.cuh"
#include "kernels/attention/flash_wgmma_tensor_maps.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/ptx_hopper_primitives.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::flash {

template <int kHeadDim>
struct WgmmaFlashTraits {
  static constexpr int kConsumers = 2;             // warpgroups of 64 query rows
  static constexpr int kBlockM = 64 * kConsumers;  // queries per CTA
  static constexpr int kBlockN = 128;              // keys per K/V block: S is m64n128 per warpgroup
  // K/V blocks in shared memory (each stage one K and one V block): d 128
  // fills 160 KB with two, d 64 takes three in 112 KB.
  static constexpr int kStages = kHeadDim == 128 ? 2 : 3;
  static constexpr int kMathThreads = 128 * kConsumers;
  static constexpr int kThreads = kMathThreads + 128;  // + the producer warpgroup
  // After setmaxnreg: the consumers hold S, P and O (64 + 32 + 64 registers at
  // d 128); the producer only issues copies. 64K registers per SM in all.
  static constexpr int kConsumerRegisters = 240;
  static constexpr int kProducerRegisters = 24;
  static_assert(kConsumerRegisters * kMathThreads + kProducerRegisters * 128 <= 65536);
  // Named barriers 1 and 2: the consumers' turns to issue their GEMMs.
  static constexpr int kTurnBarrier = 1;
  // The two overlaps of FlashAttention-3, switchable for ablations (the
  // measurements' NOTES): warpgroups issue their GEMMs in turn (ping-pong);
  // a warpgroup's softmax of block j+1 runs while its P V of block j is in
  // flight (else it waits for both GEMMs first).
  static constexpr bool kPingPong = true;
  static constexpr bool kIntraWarpgroupOverlap = true;

  static constexpr int kRowBytes = 128;         // one swizzle row: 64 elements
  static constexpr int kBoxes = kHeadDim / 64;  // swizzle-wide column boxes per row
  static constexpr int kQBoxBytes = kBlockM * kRowBytes;
  static constexpr int kKVBoxBytes = kBlockN * kRowBytes;
  static constexpr int kQBytes = kBoxes * kQBoxBytes;
  static constexpr int kKVBytes = kBoxes * kKVBoxBytes;        // one K or one V block
  static constexpr int kGroupBytes = 8 * kRowBytes;            // a swizzle atom: 8 rows
  static constexpr int kAlignmentBytes = 1024;                 // swizzle atoms start 1024-aligned
  static constexpr int kBarrierBytes = (1 + 4 * kStages) * 8;  // Q; K, V full and empty
  static constexpr int kSharedBytes =
      kQBytes + 2 * kStages * kKVBytes + kBarrierBytes + kAlignmentBytes;
  static constexpr int kSTiles = kBlockN / 8;  // n8 tiles of S per warp
  static constexpr int kOTiles = kHeadDim / 8;
  static constexpr int kPSteps = kBlockN / 16;  // k16 steps of P V
};

// A consumer's or the producer's position in the stage ring: stage and the
// parity of the barrier phase it waits for next.
template <int kStages>
struct RingPosition {
  int stage = 0;
  std::uint32_t parity = 0;
  __device__ void advance() {
    if (++stage == kStages) {
      stage = 0;
      parity ^= 1u;
    }
  }
};

// Shared-memory addresses: Q, the K stages, the V stages, then the mbarriers.
template <int kHeadDim>
struct WgmmaFlashShared {
  using T = WgmmaFlashTraits<kHeadDim>;
  std::uint32_t q;
  __device__ explicit WgmmaFlashShared(std::uint32_t base) : q(base) {}
  __device__ std::uint32_t k(int stage) const { return q + T::kQBytes + stage * T::kKVBytes; }
  __device__ std::uint32_t v(int stage) const { return k(T::kStages) + stage * T::kKVBytes; }
  __device__ std::uint32_t q_full() const { return v(T::kStages); }
  __device__ std::uint32_t k_full(int stage) const { return q_full() + 8 * (1 + stage); }
  __device__ std::uint32_t v_full(int stage) const { return k_full(T::kStages) + 8 * stage; }
  __device__ std::uint32_t k_empty(int stage) const { return v_full(T::kStages) + 8 * stage; }
  __device__ std::uint32_t v_empty(int stage) const { return k_empty(T::kStages) + 8 * stage; }
};

#if defined(TILESIM_SM90A)

// What a consumer thread's softmax needs: its rows' key limits (as in the
// mma.sync kernel: the thread's first row sees keys < key_end - its column
// offset, every row keys < kv_end - column offset).
struct RowLimits {
  int key_end;
  int kv_end;
};

// A consumer thread's running state for its two rows (lane / 4 and + 8 of
// its warp's 16): O, the maximum raw score so far (-inf before any visible
// key) and its share of the sum of 2^(score * scale - max * scale).
template <int kHeadDim>
struct ConsumerState {
  using T = WgmmaFlashTraits<kHeadDim>;
  float o[T::kOTiles][4];
  float s[T::kSTiles][4];
  std::uint32_t p[T::kPSteps][4];
  float row_max[2];
  float row_sum[2];
  float rescale[2];
};

// Masks S (kMask: keys past kv_len or the diagonal), takes the rows' new
// maxima, turns S into P = 2^(s * scale - max * scale) in place and updates
// the sums; `rescale` is what O must be multiplied by (2^(old - new max)).
template <int kHeadDim, bool kMask>
__device__ __forceinline__ void softmax_step(ConsumerState<kHeadDim>& st, const RowLimits& limits,
                                             const FlashForwardParams& params, int n0) {
  using T = WgmmaFlashTraits<kHeadDim>;
  if constexpr (kMask) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int row_end =
          params.causal ? min(limits.kv_end, limits.key_end + half * 8) : limits.kv_end;
      const int visible = row_end - n0;
#pragma unroll
      for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          if (nt * 8 + e >= visible) st.s[nt][2 * half + e] = -INFINITY;
        }
      }
    }
  }
  float max_scaled[2];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    float block_max = st.row_max[half];
#pragma unroll
    for (int nt = 0; nt < T::kSTiles; ++nt) {
      block_max = fmaxf(block_max, fmaxf(st.s[nt][2 * half], st.s[nt][2 * half + 1]));
    }
    block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, 1));
    block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, 2));
    // A row with no visible key yet keeps max -inf; subtract 0 then (P = 0).
    max_scaled[half] = block_max == -INFINITY ? 0.0f : block_max * params.scale_log2;
    st.rescale[half] = exp2_approx(st.row_max[half] * params.scale_log2 - max_scaled[half]);
    st.row_max[half] = block_max;
  }
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    float sum = 0;
#pragma unroll
    for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        float& x = st.s[nt][2 * half + e];
        x = exp2_approx(fmaf(x, params.scale_log2, -max_scaled[half]));
        sum += x;
      }
    }
    st.row_sum[half] = st.row_sum[half] * st.rescale[half] + sum;
  }
}

// P's A fragments from S's accumulators (C layout = A layout per warp), in
// the input type.
template <typename Element, int kHeadDim>
__device__ __forceinline__ void convert_p(ConsumerState<kHeadDim>& st) {
  using T = WgmmaFlashTraits<kHeadDim>;
#pragma unroll
  for (int kj = 0; kj < T::kPSteps; ++kj) {
    st.p[kj][0] = pack<Element>(st.s[2 * kj][0], st.s[2 * kj][1]);
    st.p[kj][1] = pack<Element>(st.s[2 * kj][2], st.s[2 * kj][3]);
    st.p[kj][2] = pack<Element>(st.s[2 * kj + 1][0], st.s[2 * kj + 1][1]);
    st.p[kj][3] = pack<Element>(st.s[2 * kj + 1][2], st.s[2 * kj + 1][3]);
  }
}

// Keeps the compiler from moving register accesses across in-flight wgmmas.
template <int kRows, int kCols>
__device__ __forceinline__ void fence_registers(float (&values)[kRows][kCols]) {
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
#pragma unroll
    for (int j = 0; j < kCols; ++j) gemm::sm90::fence_accumulator(values[i][j]);
  }
}
template <int kRows, int kCols>
__device__ __forceinline__ void fence_registers(std::uint32_t (&values)[kRows][kCols]) {
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
#pragma unroll
    for (int j = 0; j < kCols; ++j) sm90::fence_operand(values[i][j]);
  }
}

// S = Q K^T for the warpgroup's 64 rows: Q and K K-major, 128-byte swizzle;
// k-step ks is 32 bytes into a row of box ks / 4.
template <typename Element, int kHeadDim>
__device__ __forceinline__ void issue_qk(ConsumerState<kHeadDim>& st, std::uint32_t q,
                                         std::uint32_t k) {
  using T = WgmmaFlashTraits<kHeadDim>;
#pragma unroll
  for (int ks = 0; ks < kHeadDim / 16; ++ks) {
    // K-major: the leading offset is unused with a swizzle (given as 16 bytes).
    const std::uint64_t a = gemm::sm90::matrix_descriptor_128b_swizzle(
        q + (ks / 4) * T::kQBoxBytes + (ks % 4) * 32, 16, T::kGroupBytes);
    const std::uint64_t b = gemm::sm90::matrix_descriptor_128b_swizzle(
        k + (ks / 4) * T::kKVBoxBytes + (ks % 4) * 32, 16, T::kGroupBytes);
    sm90::wgmma_qk_m64n128k16<Element>(st.s, a, b, ks > 0 ? 1 : 0);
  }
}

// O += P V: V N-major (keys are rows); the leading offset steps from one
// 64-column box to the next, k-step kj is 16 rows into every box.
template <typename Element, int kHeadDim>
__device__ __forceinline__ void issue_pv(ConsumerState<kHeadDim>& st, std::uint32_t v) {
  using T = WgmmaFlashTraits<kHeadDim>;
#pragma unroll
  for (int kj = 0; kj < T::kPSteps; ++kj) {
    const std::uint64_t b = gemm::sm90::matrix_descriptor_128b_swizzle(
        v + kj * 16 * T::kRowBytes, T::kKVBoxBytes, T::kGroupBytes);
    sm90::wgmma_pv_m64k16<Element, kHeadDim>(st.o, st.p[kj], b);
  }
}

#endif  // TILESIM_SM90A

// flash_forward_wgmma_kernel
//   grid: (ceil(q_len / 128) query blocks x heads, 1, batch); block: 384
//   threads (consumer warpgroups 0 and 1, producer warpgroup 2); one CTA per SM.
//   CTA: 128 queries of one head of one sequence. One producer thread loads Q
//   once and the CTA's K/V blocks, last first, by TMA into the stage ring;
//   each consumer warpgroup owns 64 query rows and walks the blocks
//   (masked ones first), then writes O / sum. Causal CTAs start heaviest first.
template <typename Element, int kHeadDim>
__global__ void __launch_bounds__(WgmmaFlashTraits<kHeadDim>::kThreads, 1)
    flash_forward_wgmma_kernel(const FlashForwardParams params,
                               const __grid_constant__ FlashTensorMaps maps) {
#if defined(TILESIM_SM90A)
  using T = WgmmaFlashTraits<kHeadDim>;
  namespace hopper = gemm::sm90;
  extern __shared__ __align__(128) unsigned char smem[];
  // Dynamic shared memory is not promised 1024-byte alignment: kSharedBytes has the slack.
  const WgmmaFlashShared<kHeadDim> shared((gemm::shared_address(smem) + T::kAlignmentBytes - 1) &
                                          ~static_cast<std::uint32_t>(T::kAlignmentBytes - 1));

  const int m_blocks = (params.q_len + T::kBlockM - 1) / T::kBlockM;
  const QueryBlock block =
      query_block_of(static_cast<int>(blockIdx.x), m_blocks, params.heads, params.causal);
  const int b = static_cast<int>(blockIdx.z);
  const int q_len = params.q_len;
  const int kv_len = params.kv_lens[b];
  const int m0 = block.m_block * T::kBlockM;
  const int diagonal = kv_len - q_len;
  const KeyBlocks key_blocks =
      key_blocks_of<T::kBlockM, T::kBlockN>(m0, q_len, kv_len, params.causal);
  const int n_blocks = key_blocks.count;
  const int masked = key_blocks.masked;

  if (threadIdx.x == 0) {
    hopper::mbarrier_init(shared.q_full(), 1);
    for (int s = 0; s < T::kStages; ++s) {
      hopper::mbarrier_init(shared.k_full(s), 1);
      hopper::mbarrier_init(shared.v_full(s), 1);
      hopper::mbarrier_init(shared.k_empty(s), T::kMathThreads / 32);
      hopper::mbarrier_init(shared.v_empty(s), T::kMathThreads / 32);
    }
    hopper::fence_barrier_init();
  }
  __syncthreads();

  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup == T::kConsumers) {
    hopper::lower_register_budget<T::kProducerRegisters>();
    if (threadIdx.x == T::kMathThreads) {
      hopper::prefetch_tensor_map(&maps.q);
      hopper::prefetch_tensor_map(&maps.k);
      hopper::prefetch_tensor_map(&maps.v);
      const int q_row = b * q_len + m0;
      hopper::mbarrier_arrive_expect_tx(shared.q_full(), T::kQBytes);
#pragma unroll
      for (int box = 0; box < T::kBoxes; ++box) {
        hopper::tma_load_2d(shared.q + box * T::kQBoxBytes, &maps.q,
                            block.head * kHeadDim + box * 64, q_row, shared.q_full());
      }
      const int kv_column = block.head / (params.heads / params.kv_heads) * kHeadDim;
      const int kv_start = static_cast<int>(params.kv_starts[b]);
      // K before V of each block: a consumer needs block j's K before block j-1's V.
      RingPosition<T::kStages> position;
      for (int it = 0; it < n_blocks; ++it) {
        const int row = kv_start + (n_blocks - 1 - it) * T::kBlockN;
        const int s = position.stage;
        hopper::mbarrier_wait(shared.k_empty(s), position.parity ^ 1u);
        hopper::mbarrier_arrive_expect_tx(shared.k_full(s), T::kKVBytes);
#pragma unroll
        for (int box = 0; box < T::kBoxes; ++box) {
          hopper::tma_load_2d(shared.k(s) + box * T::kKVBoxBytes, &maps.k, kv_column + box * 64,
                              row, shared.k_full(s));
        }
        hopper::mbarrier_wait(shared.v_empty(s), position.parity ^ 1u);
        hopper::mbarrier_arrive_expect_tx(shared.v_full(s), T::kKVBytes);
#pragma unroll
        for (int box = 0; box < T::kBoxes; ++box) {
          hopper::tma_load_2d(shared.v(s) + box * T::kKVBoxBytes, &maps.v, kv_column + box * 64,
                              row, shared.v_full(s));
        }
        position.advance();
      }
    }
    return;
  }
  hopper::raise_register_budget<T::kConsumerRegisters>();

  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) % 128 / 32;
  const bool releases = lane == 0;  // one arrival per warp on the empty barriers
  const int thread_col = 2 * (lane % 4);
  const int local_row = warpgroup * 64 + warp * 16 + lane / 4;  // and + 8
  const RowLimits limits{m0 + local_row + diagonal + 1 - thread_col, kv_len - thread_col};
  const std::uint32_t q = shared.q + warpgroup * 64 * T::kRowBytes;

  ConsumerState<kHeadDim> st;
#pragma unroll
  for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
    for (int e = 0; e < 4; ++e) st.o[dt][e] = 0;
  }
  st.row_max[0] = st.row_max[1] = -INFINITY;
  st.row_sum[0] = st.row_sum[1] = 0;

  // Ping-pong: warpgroup g issues its GEMMs once the other has issued its
  // previous ones (barrier kTurnBarrier + g), then hands the turn over.
  const int my_turn = T::kTurnBarrier + warpgroup;
  const int other_turn = T::kTurnBarrier + (1 - warpgroup);
  auto wait_turn = [&] {
    if constexpr (T::kPingPong) hopper::named_barrier_sync(my_turn, T::kMathThreads);
  };
  auto pass_turn = [&] {
    if constexpr (T::kPingPong) sm90::named_barrier_arrive(other_turn, T::kMathThreads);
  };
  if (warpgroup == 1) pass_turn();  // warpgroup 0 goes first

  RingPosition<T::kStages> k_read;
  RingPosition<T::kStages> v_read;
  auto block_n0 = [&](int it) { return (n_blocks - 1 - it) * T::kBlockN; };
  auto softmax = [&](int it) {
    if (it < masked) {
      softmax_step<kHeadDim, true>(st, limits, params, block_n0(it));
    } else {
      softmax_step<kHeadDim, false>(st, limits, params, block_n0(it));
    }
  };

  hopper::mbarrier_wait(shared.q_full(), 0);
  // Block 0: S alone, then its softmax.
  wait_turn();
  hopper::mbarrier_wait(shared.k_full(k_read.stage), k_read.parity);
  hopper::wgmma_fence();
  issue_qk<Element, kHeadDim>(st, q, shared.k(k_read.stage));
  hopper::wgmma_commit_group();
  pass_turn();
  hopper::wgmma_wait_group<0>();
  fence_registers(st.s);
  if (releases) hopper::mbarrier_arrive(shared.k_empty(k_read.stage));
  k_read.advance();
  softmax(0);
  convert_p<Element, kHeadDim>(st);

  // Block it: S = Q K_it^T and O += P_{it-1} V_{it-1} in flight together; the
  // softmax of S while P V runs; then O rescaled and the new P.
  for (int it = 1; it < n_blocks; ++it) {
    wait_turn();
    // Both waits before the fence: ptxas fences again after a branch between wgmmas.
    hopper::mbarrier_wait(shared.k_full(k_read.stage), k_read.parity);
    hopper::mbarrier_wait(shared.v_full(v_read.stage), v_read.parity);
    hopper::wgmma_fence();
    issue_qk<Element, kHeadDim>(st, q, shared.k(k_read.stage));
    hopper::wgmma_commit_group();
    issue_pv<Element, kHeadDim>(st, shared.v(v_read.stage));
    hopper::wgmma_commit_group();
    pass_turn();
    if constexpr (T::kIntraWarpgroupOverlap) {
      hopper::wgmma_wait_group<1>();
    } else {
      hopper::wgmma_wait_group<0>();
    }
    fence_registers(st.s);
    if (releases) hopper::mbarrier_arrive(shared.k_empty(k_read.stage));
    k_read.advance();
    softmax(it);
    hopper::wgmma_wait_group<0>();
    fence_registers(st.o);
    fence_registers(st.p);
    if (releases) hopper::mbarrier_arrive(shared.v_empty(v_read.stage));
    v_read.advance();
#pragma unroll
    for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) st.o[dt][e] *= st.rescale[e / 2];
    }
    convert_p<Element, kHeadDim>(st);
  }

  // The last block's P V.
  wait_turn();
  hopper::mbarrier_wait(shared.v_full(v_read.stage), v_read.parity);
  hopper::wgmma_fence();
  issue_pv<Element, kHeadDim>(st, shared.v(v_read.stage));
  hopper::wgmma_commit_group();
  pass_turn();
  hopper::wgmma_wait_group<0>();
  fence_registers(st.o);
  fence_registers(st.p);
  if (releases) hopper::mbarrier_arrive(shared.v_empty(v_read.stage));
  // Warpgroup 1's first hand-over is still pending at barrier 1: take it, so
  // both turn barriers end with every arrival matched.
  if (warpgroup == 0) wait_turn();

  // Epilogue: O / sum in the input type, 4-byte stores of the rows < q_len.
  const int q_row_bytes = params.heads * kHeadDim * 2;
  unsigned char* o_base = static_cast<unsigned char*>(params.o) +
                          (std::int64_t{b} * q_len + m0) * q_row_bytes + block.head * kHeadDim * 2 +
                          thread_col * 2;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    float sum = st.row_sum[half];
    sum += __shfl_xor_sync(~0u, sum, 1);
    sum += __shfl_xor_sync(~0u, sum, 2);
    const float inverse = sum > 0 ? 1.0f / sum : 0.0f;
    const int row = local_row + half * 8;
    if (m0 + row < q_len) {
      unsigned char* out = o_base + std::int64_t{row} * q_row_bytes;
#pragma unroll
      for (int dt = 0; dt < T::kOTiles; ++dt) {
        *reinterpret_cast<std::uint32_t*>(out + dt * 16) =
            pack<Element>(st.o[dt][2 * half] * inverse, st.o[dt][2 * half + 1] * inverse);
      }
    }
  }
#elif defined(__CUDA_ARCH__)
  __trap();
#endif
}

template <typename Element, int kHeadDim>
void launch_flash_forward_wgmma_typed(const FlashForwardParams& params, const FlashTensorMaps& maps,
                                      cudaStream_t stream) {
  using T = WgmmaFlashTraits<kHeadDim>;
  const auto kernel = flash_forward_wgmma_kernel<Element, kHeadDim>;
  cudaError_t status =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSharedBytes);
  if (status == cudaSuccess) {
    const dim3 grid(
        static_cast<unsigned>((params.q_len + T::kBlockM - 1) / T::kBlockM * params.heads), 1,
        static_cast<unsigned>(params.batch));
    kernel<<<grid, T::kThreads, T::kSharedBytes, stream>>>(params, maps);
    status = cudaGetLastError();
  }
  check_cuda(status, "flash_forward_wgmma_kernel launch");
}

}  // namespace tilesim::kernels::flash
