#pragma once
// The flash forward kernel (FlashAttention-2's algorithm on mma.sync): one CTA
// per (query block, head, sequence); K/V blocks through a 3-stage cp.async
// pipeline in XOR-swizzled shared memory; ldmatrix + mma.sync.m16n8k16 for
// S = Q K^T and O += P V; online softmax in registers in base 2; causal blocks
// past the diagonal skipped; GQA by indexing K/V with head / group; any length
// (cp.async zero-fills rows past the end, scores past the end are masked).

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/attention/flash_block_order.cuh"
#include "kernels/attention/flash_forward_params.hpp"
#include "kernels/attention/flash_numerics.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::flash {

template <int kHeadDim>
struct FlashTraits {
  static constexpr int kBlockM = 128;
  // Keys per K/V block (a pipeline stage): half of FlashAttention-2's 64 (d 128)
  // and 128 (d 64), so that S's registers fit beside O's 32 x head_dim fp32
  // accumulators under 255 per thread (NOTES.md: with 64 keys ptxas spills).
  static constexpr int kBlockN = kHeadDim <= 64 ? 64 : 32;
  static constexpr int kWarps = 4;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kWarpRows = kBlockM / kWarps;  // 32: two m16 tiles per warp
  static constexpr int kMTiles = kWarpRows / 16;
  // K/V blocks in shared memory: two loading while one is in use.
  static constexpr int kStages = 3;
  // Skip O's rescale when no row of a warp has a new maximum: 1-2% faster at
  // head_dim 128 (128 FMULs per block), 1.5% slower at 64 (NOTES.md).
  static constexpr bool kSkipUnchangedRescale = kHeadDim > 64;
  static constexpr int kChunks = kHeadDim / 8;  // 16-byte chunks per row
  static constexpr int kRowBytes = kHeadDim * 2;
  static constexpr int kQBytes = kBlockM * kRowBytes;
  static constexpr int kKVBytes = kBlockN * kRowBytes;  // one K or one V block
  static constexpr int kSharedBytes = kQBytes + 2 * kStages * kKVBytes;
  static constexpr int kSTiles = kBlockN / 8;   // n8 tiles of S per m16 tile
  static constexpr int kOTiles = kHeadDim / 8;  // n8 tiles of O per m16 tile
};

// Byte offset of 16-byte chunk `chunk` of row `row`: chunks XOR-swizzled by the
// row's low 3 bits, so the 8 rows an ldmatrix phase reads hit 8 distinct bank groups.
template <int kRowBytes>
__device__ __forceinline__ std::uint32_t swizzled(int row, int chunk) {
  return static_cast<std::uint32_t>(row * kRowBytes + ((chunk ^ (row & 7)) << 4));
}

// Thread t copies 16-byte chunk t % kChunks of rows t / kChunks + i * kRowStep
// of a tile: its chunk's swizzle is the same in every pass (the row step is a
// multiple of 8), so the shared addresses are one base plus constants.
template <int kHeadDim>
struct TileCopy {
  using T = FlashTraits<kHeadDim>;
  static constexpr int kRowStep = T::kThreads / T::kChunks;
  static_assert(kRowStep % 8 == 0);
  static __device__ __forceinline__ int row() { return static_cast<int>(threadIdx.x) / T::kChunks; }
  static __device__ __forceinline__ int chunk() {
    return static_cast<int>(threadIdx.x) % T::kChunks;
  }
  // Byte offset of the thread's first chunk in a tile whose rows are `row_bytes` apart.
  static __device__ __forceinline__ std::int64_t offset(int row_bytes) {
    return std::int64_t{row()} * row_bytes + chunk() * 16;
  }
};

// Rows [0, kRows) of a tile into swizzled shared memory; `src` is the thread's
// first chunk (tile + TileCopy::offset), rows `row_bytes` apart; rows >=
// valid_rows are zero-filled without reading (`fallback` stands in as their
// address: any readable one).
template <int kHeadDim, int kRows>
__device__ __forceinline__ void load_tile(std::uint32_t smem, const unsigned char* src,
                                          int row_bytes, int valid_rows, const void* fallback) {
  using T = FlashTraits<kHeadDim>;
  using Copy = TileCopy<kHeadDim>;
  static_assert(kRows % Copy::kRowStep == 0);
  const int row = Copy::row();
  const std::uint32_t dst = smem + swizzled<T::kRowBytes>(row, Copy::chunk());
#pragma unroll
  for (int i = 0; i < kRows / Copy::kRowStep; ++i) {
    const bool valid = row + i * Copy::kRowStep < valid_rows;
    gemm::cp_async_16(dst + i * Copy::kRowStep * T::kRowBytes, valid ? src : fallback, valid);
    src += Copy::kRowStep * row_bytes;
  }
}

// A warp's running state: O (32 rows x head_dim, fp32), and per row the
// maximum raw score so far (-inf before any visible key) and this thread's
// share of the sum of 2^(score * scale - max * scale) (the quad adds at the end).
template <int kHeadDim>
struct WarpState {
  using T = FlashTraits<kHeadDim>;
  float o[T::kMTiles][T::kOTiles][4];
  float row_max[T::kMTiles][2];
  float row_sum[T::kMTiles][2];
};

// Where a warp reads its operands: ldmatrix row addresses at k-step 0 of
// stage 0, and what the mask needs (the scale and causal flag are read from
// the kernel parameters, which live in the constant bank, not in registers).
struct WarpOperands {
  std::uint32_t q_lane;
  std::uint32_t k_lane;
  std::uint32_t v_lane;
  // The thread's first row sees keys < key_end - 2 * (lane % 4) + (row offset
  // when causal); every row sees keys < kv_end - 2 * (lane % 4).
  int key_end;
  int kv_end;
  int warp_key_end;  // causal: no row of the warp sees a key at or past this
};

// One K/V block (keys n0 ..., at `key_offset` in shared memory) for one warp:
// S = Q K^T, mask (kMask: keys past the end or past the diagonal), online
// softmax, O += P V.
template <typename Element, int kHeadDim, bool kMask>
__device__ __forceinline__ void attend_block(WarpState<kHeadDim>& state,
                                             const WarpOperands& warp_operands,
                                             const FlashForwardParams& params,
                                             std::uint32_t key_offset, int n0) {
  using T = FlashTraits<kHeadDim>;
  const WarpOperands& w = warp_operands;
  // On the diagonal, a block can lie wholly past the warp's rows: nothing to do.
  if (kMask && params.causal && n0 >= w.warp_key_end) return;
  float s[T::kMTiles][T::kSTiles][4] = {};
#pragma unroll
  for (int kk = 0; kk < kHeadDim / 16; ++kk) {
    std::uint32_t a[T::kMTiles][4];
#pragma unroll
    for (int mi = 0; mi < T::kMTiles; ++mi) {
      gemm::ldmatrix_x4(a[mi], (w.q_lane + mi * 16 * T::kRowBytes) ^ (kk << 5));
    }
#pragma unroll
    for (int nj = 0; nj < T::kBlockN / 16; ++nj) {
      std::uint32_t bk[4];
      gemm::ldmatrix_x4(bk, (w.k_lane + key_offset + nj * 16 * T::kRowBytes) ^ (kk << 5));
      const std::uint32_t b0[2] = {bk[0], bk[1]};
      const std::uint32_t b1[2] = {bk[2], bk[3]};
#pragma unroll
      for (int mi = 0; mi < T::kMTiles; ++mi) {
        gemm::mma_m16n8k16<Element>(s[mi][2 * nj], a[mi], b0);
        gemm::mma_m16n8k16<Element>(s[mi][2 * nj + 1], a[mi], b1);
      }
    }
  }

  if constexpr (kMask) {
#pragma unroll
    for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int row_end =
            params.causal ? min(w.kv_end, w.key_end + mi * 16 + half * 8) : w.kv_end;
        const int visible = row_end - n0;  // the thread's columns nt * 8 + e < visible stay
#pragma unroll
        for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
          for (int e = 0; e < 2; ++e) {
            if (nt * 8 + e >= visible) s[mi][nt][2 * half + e] = -INFINITY;
          }
        }
      }
    }
  }

  // Online softmax: the new maximum of each row (a quad shares a row), O and
  // the sum rescaled by 2^(old - new), P = 2^(s * scale - max * scale).
  float max_scaled[T::kMTiles][2];
  float rescale[T::kMTiles][2];
  bool new_max = false;
#pragma unroll
  for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      float block_max = state.row_max[mi][half];
#pragma unroll
      for (int nt = 0; nt < T::kSTiles; ++nt) {
        block_max = fmaxf(block_max, fmaxf(s[mi][nt][2 * half], s[mi][nt][2 * half + 1]));
      }
      block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, 1));
      block_max = fmaxf(block_max, __shfl_xor_sync(~0u, block_max, 2));
      new_max = new_max || block_max != state.row_max[mi][half];
      // A row with no visible key yet keeps max -inf; subtract 0 then (P = 0).
      max_scaled[mi][half] = block_max == -INFINITY ? 0.0f : block_max * params.scale_log2;
      rescale[mi][half] =
          exp2_approx(state.row_max[mi][half] * params.scale_log2 - max_scaled[mi][half]);
      state.row_max[mi][half] = block_max;
    }
  }
  if (!T::kSkipUnchangedRescale || __any_sync(~0u, new_max)) {
#pragma unroll
    for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
      for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
        for (int e = 0; e < 4; ++e) state.o[mi][dt][e] *= rescale[mi][e / 2];
      }
    }
  }
#pragma unroll
  for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      float sum = 0;
#pragma unroll
      for (int nt = 0; nt < T::kSTiles; ++nt) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          float& x = s[mi][nt][2 * half + e];
          x = exp2_approx(x * params.scale_log2 - max_scaled[mi][half]);
          sum += x;
        }
      }
      state.row_sum[mi][half] = state.row_sum[mi][half] * rescale[mi][half] + sum;
    }
  }

  // O += P V: P's A fragments are S's accumulators (C layout = A layout), two
  // n8 tiles per k16 step, rounded to the input type.
#pragma unroll
  for (int kj = 0; kj < T::kBlockN / 16; ++kj) {
    std::uint32_t p[T::kMTiles][4];
#pragma unroll
    for (int mi = 0; mi < T::kMTiles; ++mi) {
      p[mi][0] = pack<Element>(s[mi][2 * kj][0], s[mi][2 * kj][1]);
      p[mi][1] = pack<Element>(s[mi][2 * kj][2], s[mi][2 * kj][3]);
      p[mi][2] = pack<Element>(s[mi][2 * kj + 1][0], s[mi][2 * kj + 1][1]);
      p[mi][3] = pack<Element>(s[mi][2 * kj + 1][2], s[mi][2 * kj + 1][3]);
    }
#pragma unroll
    for (int dj = 0; dj < kHeadDim / 16; ++dj) {
      std::uint32_t bv[4];
      gemm::ldmatrix_x4_trans(bv, (w.v_lane + key_offset + kj * 16 * T::kRowBytes) ^ (dj << 5));
      const std::uint32_t b0[2] = {bv[0], bv[1]};
      const std::uint32_t b1[2] = {bv[2], bv[3]};
#pragma unroll
      for (int mi = 0; mi < T::kMTiles; ++mi) {
        gemm::mma_m16n8k16<Element>(state.o[mi][2 * dj], p[mi], b0);
        gemm::mma_m16n8k16<Element>(state.o[mi][2 * dj + 1], p[mi], b1);
      }
    }
  }
}

// flash_forward_kernel
//   grid: (ceil(q_len / 128) query blocks x heads, 1, batch); block: 128 threads (4 warps).
//   CTA: 128 queries of one head of one sequence. Loads Q once, then walks its
//   K/V blocks from the last visible one down to 0 (first the ones that need a
//   mask, then the rest without), three stages: two blocks in flight through
//   cp.async while one is used, one barrier per block. Each warp owns 32 query
//   rows (attend_block). Finally O / sum through shared memory to 16-byte
//   stores. Causal CTAs start heaviest first.
template <typename Element, int kHeadDim>
__global__ void __launch_bounds__(FlashTraits<kHeadDim>::kThreads, 2)
    flash_forward_kernel(const FlashForwardParams params) {
  using T = FlashTraits<kHeadDim>;
  extern __shared__ __align__(1024) unsigned char shared[];  // the XOR addressing needs 256
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int m_blocks = (params.q_len + T::kBlockM - 1) / T::kBlockM;
  const int linear = static_cast<int>(blockIdx.x);
  const QueryBlock block = query_block_of(linear, m_blocks, params.heads, params.causal);
  const int m_block = block.m_block;
  const int head = block.head;
  const int b = static_cast<int>(blockIdx.z);
  const int kv_head = head / (params.heads / params.kv_heads);
  const int q_len = params.q_len;
  const int kv_len = params.kv_lens[b];
  const std::int64_t kv_start = params.kv_starts[b];
  const int m0 = m_block * T::kBlockM;
  const int diagonal = kv_len - q_len;

  const KeyBlocks key_blocks =
      key_blocks_of<T::kBlockM, T::kBlockN>(m0, q_len, kv_len, params.causal);
  const int n_blocks = key_blocks.count;
  const int masked = key_blocks.masked;

  const std::uint32_t q_smem = gemm::shared_address(shared);
  const std::uint32_t k_smem = q_smem + T::kQBytes;  // stage s: K at +2s blocks, V after it
  const std::uint32_t v_smem = k_smem + T::kKVBytes;

  // Row strides in bytes, and the thread's first chunk of each tile: K and V
  // share one offset from their (kernel-parameter) base pointers.
  const int q_row_bytes = params.heads * kHeadDim * 2;
  const int kv_row_bytes = params.kv_heads * kHeadDim * 2;
  const std::int64_t q_row0 = std::int64_t{b} * q_len + m0;
  const std::int64_t q_offset = q_row0 * q_row_bytes + head * kHeadDim * 2;
  const std::int64_t kv_offset =
      kv_start * kv_row_bytes + kv_head * kHeadDim * 2 + TileCopy<kHeadDim>::offset(kv_row_bytes);
  auto load_kv = [&](int block, int stage) {
    const int n0 = block * T::kBlockN;
    const int rows = min(T::kBlockN, kv_len - n0);
    const std::uint32_t stage_bytes = stage * 2 * T::kKVBytes;
    const std::int64_t offset = kv_offset + std::int64_t{n0} * kv_row_bytes;
    load_tile<kHeadDim, T::kBlockN>(k_smem + stage_bytes,
                                    static_cast<const unsigned char*>(params.k) + offset,
                                    kv_row_bytes, rows, params.k);
    load_tile<kHeadDim, T::kBlockN>(v_smem + stage_bytes,
                                    static_cast<const unsigned char*>(params.v) + offset,
                                    kv_row_bytes, rows, params.v);
  };

  // Prologue: Q and the first K/V block in group 0, the second block in group 1.
  load_tile<kHeadDim, T::kBlockM>(q_smem,
                                  static_cast<const unsigned char*>(params.q) + q_offset +
                                      TileCopy<kHeadDim>::offset(q_row_bytes),
                                  q_row_bytes, min(T::kBlockM, q_len - m0), params.q);
  if (n_blocks > 0) load_kv(n_blocks - 1, 0);
  gemm::cp_async_commit();
  if (n_blocks > 1) load_kv(n_blocks - 2, 1);
  gemm::cp_async_commit();

  // ldmatrix row addresses at k-step 0 (tile bases are multiples of 256 bytes).
  // Chunk 2 * step + c of row r sits at ((2 * step + c) ^ (r & 7)) << 4, which
  // is (c ^ (r & 7)) << 4 XOR step << 5: later k-steps are one XOR with a constant.
  WarpOperands operands;
  // Q (A operand): lanes 0-15 rows 0-15 chunk 0, lanes 16-31 the same rows chunk 1.
  operands.q_lane = q_smem + swizzled<T::kRowBytes>(warp * T::kWarpRows + lane % 16, lane / 16);
  // K (B operand, rows = keys): matrices (keys 0-7, c0), (0-7, c1), (8-15, c0), (8-15, c1).
  operands.k_lane = k_smem + swizzled<T::kRowBytes>(lane % 8 + (lane / 16) * 8, (lane / 8) % 2);
  // V (B operand, transposed): (keys 0-7, c0), (8-15, c0), (0-7, c1), (8-15, c1).
  operands.v_lane = v_smem + swizzled<T::kRowBytes>(lane % 8 + ((lane / 8) % 2) * 8, lane / 16);
  // The thread's rows: warp * 32 + mi * 16 + lane / 4 (+ 8); columns 2 * (lane % 4) (+ 1).
  const int thread_col = 2 * (lane % 4);
  operands.key_end = m0 + warp * T::kWarpRows + lane / 4 + diagonal + 1 - thread_col;
  operands.kv_end = kv_len - thread_col;
  operands.warp_key_end = m0 + (warp + 1) * T::kWarpRows + diagonal;

  WarpState<kHeadDim> state;
#pragma unroll
  for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
    for (int dt = 0; dt < T::kOTiles; ++dt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) state.o[mi][dt][e] = 0;
    }
    state.row_max[mi][0] = state.row_max[mi][1] = -INFINITY;
    state.row_sum[mi][0] = state.row_sum[mi][1] = 0;
  }

  // Block `it` (counting down from the top) waits for its group, is used,
  // then its stage is refilled with block it + 2.
  // Block `it` (counting down from the top) sits in stage it % 3. One barrier
  // per block: after it, block `it` is visible to every warp and every warp is
  // done with block it - 1, whose stage then takes block it + 2.
  int stage = 0;
  auto attend = [&](int it, auto mask) {
    gemm::cp_async_wait<1>();
    __syncthreads();
    const int refill = stage == 0 ? 2 : stage - 1;
    if (it + 2 < n_blocks) load_kv(n_blocks - 1 - (it + 2), refill);
    gemm::cp_async_commit();
    attend_block<Element, kHeadDim, decltype(mask)::value>(
        state, operands, params, stage * 2 * T::kKVBytes, (n_blocks - 1 - it) * T::kBlockN);
    stage = stage == 2 ? 0 : stage + 1;
  };
  int it = 0;
  for (; it < masked; ++it) attend(it, std::true_type{});
  for (; it < n_blocks; ++it) attend(it, std::false_type{});

  // Epilogue: O / sum to the input type, staged through the warp's own Q rows,
  // then 16-byte stores of the rows < q_len. The barrier orders every lane's
  // last ldmatrix reads of Q before the staging writes (racecheck flagged them
  // once the pipeline lost its end-of-block barrier).
  __syncthreads();
  const int thread_row = warp * T::kWarpRows + lane / 4;
#pragma unroll
  for (int mi = 0; mi < T::kMTiles; ++mi) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      float sum = state.row_sum[mi][half];
      sum += __shfl_xor_sync(~0u, sum, 1);
      sum += __shfl_xor_sync(~0u, sum, 2);
      const float inverse = sum > 0 ? 1.0f / sum : 0.0f;
      const int row = thread_row + mi * 16 + half * 8;
#pragma unroll
      for (int dt = 0; dt < T::kOTiles; ++dt) {
        const std::uint32_t value = pack<Element>(state.o[mi][dt][2 * half] * inverse,
                                                  state.o[mi][dt][2 * half + 1] * inverse);
        const std::uint32_t address = q_smem + swizzled<T::kRowBytes>(row, dt) + thread_col * 2;
        asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(address), "r"(value));
      }
    }
  }
  __syncwarp();
  unsigned char* o_base = static_cast<unsigned char*>(params.o) + q_offset;
#pragma unroll
  for (int i = 0; i < T::kWarpRows * T::kChunks / 32; ++i) {
    const int index = lane + i * 32;
    const int row = warp * T::kWarpRows + index / T::kChunks;
    const int chunk = index % T::kChunks;
    if (m0 + row < q_len) {
      uint4 value;
      asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n"
                   : "=r"(value.x), "=r"(value.y), "=r"(value.z), "=r"(value.w)
                   : "r"(q_smem + swizzled<T::kRowBytes>(row, chunk)));
      *reinterpret_cast<uint4*>(o_base + std::int64_t{row} * q_row_bytes + chunk * 16) = value;
    }
  }
}

template <typename Element, int kHeadDim>
void launch_flash_forward_typed(const FlashForwardParams& params, cudaStream_t stream) {
  using T = FlashTraits<kHeadDim>;
  const auto kernel = flash_forward_kernel<Element, kHeadDim>;
  cudaError_t status =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSharedBytes);
  if (status == cudaSuccess) {
    const dim3 grid(
        static_cast<unsigned>((params.q_len + T::kBlockM - 1) / T::kBlockM * params.heads), 1,
        static_cast<unsigned>(params.batch));
    kernel<<<grid, T::kThreads, T::kSharedBytes, stream>>>(params);
    status = cudaGetLastError();
  }
  check_cuda(status, "flash_forward_kernel launch");
}

}  // namespace tilesim::kernels::flash
