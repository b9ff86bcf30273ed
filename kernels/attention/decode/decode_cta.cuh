#pragma once
// The work of one decode CTA, shared by every decode kernel: stream a run of
// KV blocks (possibly crossing pairs, for Stream-K) through a cp.async
// pipeline, attend the pair's packed query rows with mma.sync and an online
// softmax, and at the end of each pair's segment merge the warps' key slices
// into one normalized O and log-sum-exp per row for the kernel's epilogue.
//
// Per block and warp: S = Q K^T over the warp's key slice (Q fragments stay
// in registers; K through ldmatrix from a swizzled tile), masked by index
// (key < the row's limit: the sequence end, or the causal diagonal), scaled
// into the log2 domain; running max and sum; P (rounded to the input type)
// times V (ldmatrix.trans) into fp32 O. Keys past the sequence end are never
// loaded (the copy writes zeros) and are masked to -inf, so the NaN that
// unused cache slots hold cannot reach a product.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/attention/decode/decode_params.cuh"
#include "kernels/attention/decode/decode_tile_config.cuh"
#include "kernels/attention/decode/kv_cache_rows.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::decode {

// 2^x on the SFU (ex2.approx; 2^-inf = +0).
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

template <typename Element>
__device__ __forceinline__ std::uint32_t pack_pair(float low, float high);
template <>
__device__ __forceinline__ std::uint32_t pack_pair<__nv_bfloat16>(float low, float high) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(low, high);
  return *reinterpret_cast<const std::uint32_t*>(&v);
}
template <>
__device__ __forceinline__ std::uint32_t pack_pair<__half>(float low, float high) {
  const __half2 v = __floats2half2_rn(low, high);
  return *reinterpret_cast<const std::uint32_t*>(&v);
}

// kPageKeys: 0 for the contiguous cache, else the paged cache's page size
// class (16, 32, or kBlockKeys for pages of a block or more: BlockRows).
template <class Cfg, int kPageKeys>
class DecodeCta {
 public:
  using Element = typename Cfg::Element;
  using Cursor = KvBlockCursor<Cfg::kBlockKeys>;
  static constexpr int kHeadDim = Cfg::kHeadDim;
  static constexpr int kThreads = Cfg::kThreads;
  static constexpr int kColumnGroups = kHeadDim / 4;  // float4 groups of an output row

  __device__ explicit DecodeCta(unsigned char* smem)
      : smem_(smem),
        warp_(static_cast<int>(threadIdx.x) / 32),
        lane_(static_cast<int>(threadIdx.x) % 32),
        row_tile_(warp_ % Cfg::kRowTiles),
        slice_(warp_ / Cfg::kRowTiles) {}

  // Streams `blocks` KV blocks starting at `at`. After the last block of each
  // pair's segment, every thread calls epilogue(*this, p, cursor of that block).
  // Paged (split kernels only: a CTA's blocks lie in one pair): the first
  // kStages - 1 blocks' page numbers are loaded directly; each block issued
  // also copies the page numbers of the block kStages - 1 on into the ring
  // slot of that block's stage, so they land when this block is waited for,
  // just before that block is issued.
  template <class Epilogue>
  __device__ void run(const DecodeParams& p, Cursor at, long long blocks, Epilogue& epilogue) {
    Cursor load = at;
    locate_rows(p, load);
#pragma unroll
    for (int s = 0; s < Cfg::kStages - 1; ++s) {
      if (s < blocks) {
        issue_block(p, load, s);
        copy_pages_ahead(p, load, s);
        advance_load(p, load, kPageKeys == 0 || s + 1 < Cfg::kStages - 1);
      }
      gemm::cp_async_commit();
    }
    // The first segment's queries load while its first blocks are in flight.
    if (blocks > 0) begin_segment(p, at);
    for (long long i = 0; i < blocks; ++i) {
      gemm::cp_async_wait<Cfg::kStages - 2>();
      __syncthreads();  // block i landed for all; stage (i - 1) is free again
      if (i + Cfg::kStages - 1 < blocks) {
        const int s = static_cast<int>((i + Cfg::kStages - 1) % Cfg::kStages);
        if constexpr (kPageKeys != 0) rows_from_ring(p, load, s);
        issue_block(p, load, s);
        copy_pages_ahead(p, load, s);
        advance_load(p, load, kPageKeys == 0);
      }
      gemm::cp_async_commit();
      if (i > 0 && at.block == 0) begin_segment(p, at);
      compute_block(at, static_cast<int>(i % Cfg::kStages), p.scale_log2);
      if (i == blocks - 1 || at.last_of_pair()) {
        merge_slices(p);
        epilogue(*this, p, at);
      }
      at.advance(p);
    }
  }

  // After merge_slices: this segment's O for a row (normalized over the
  // segment's keys) and its log2-sum-exp (-inf when no key was visible).
  __device__ float4 merged_output(int row, int group) const {
    const int tile = row / 16;
    const int local = row % 16;
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int s = 0; s < Cfg::kKeySlices; ++s) {
      const int warp = tile + s * Cfg::kRowTiles;
      const float w = row_weight()[warp * 16 + local];
      const float4 o = *reinterpret_cast<const float4*>(
          merge_rows() + (warp * 16 + local) * Cfg::kMergeRowFloats + group * 4);
      sum.x += w * o.x;
      sum.y += w * o.y;
      sum.z += w * o.z;
      sum.w += w * o.w;
    }
    return sum;
  }
  __device__ float merged_lse(int row) const {
    return row_lse()[row];
  }

  // kRows floats of shared scratch per index (0..3) for an epilogue's row values.
  __device__ float* row_scratch(int index) const {
    return row_lse() + (index + 1) * Cfg::kRows;
  }

 protected:
  __device__ unsigned char* stage(int s) const {
    return smem_ + s * Cfg::kStageBytes;
  }
  __device__ float* merge_rows() const {
    return reinterpret_cast<float*>(smem_ + Cfg::kStages * Cfg::kStageBytes);
  }
  __device__ float* row_max() const {
    return merge_rows() + Cfg::kMergeBytes / 4;
  }
  __device__ float* row_weight() const {
    return row_max();
  }  // merge_slices overwrites max
  __device__ float* row_sum() const {
    return row_max() + Cfg::kWarps * 16;
  }
  __device__ float* row_lse() const {
    return row_sum() + Cfg::kWarps * 16;
  }
  // Paged: the page numbers of the block in stage s (kPageRingBytes past kSharedBytes).
  __device__ int* page_ring(int s) const {
    return reinterpret_cast<int*>(smem_ + Cfg::kSharedBytes) + s * 4;
  }

  // Byte offset of 16-byte chunk `chunk` of key row `row` in a K or V tile:
  // chunks XOR-swizzled by the row's low 3 bits, so the 8 rows an ldmatrix
  // reads at one chunk hit 8 different bank groups.
  __device__ static std::uint32_t swizzle(int row, int chunk) {
    return static_cast<std::uint32_t>(row * Cfg::kChunksPerRow * 16 + ((chunk ^ (row & 7)) * 16));
  }

  __device__ void issue_block(const DecodeParams& p, const Cursor& at, int s) const {
    const auto* k = static_cast<const Element*>(p.k);
    const auto* v = static_cast<const Element*>(p.v);
    const std::uint32_t k_tile = gemm::shared_address(stage(s));
    const std::uint32_t v_tile = k_tile + Cfg::kTileBytes;
    const int chunk = static_cast<int>(threadIdx.x) % Cfg::kChunksPerRow;
    const int first_row = static_cast<int>(threadIdx.x) / Cfg::kChunksPerRow;
#pragma unroll
    for (int j = 0; j < Cfg::kLoadsPerThread; ++j) {
      const int row = first_row + j * Cfg::kRowsPerPass;
      const bool valid = at.block * Cfg::kBlockKeys + row < at.kv_len;
      const long long offset = valid ? next_rows_.offset(j) : 0;
      const std::uint32_t dst = swizzle(row, chunk);
      gemm::cp_async_16(k_tile + dst, k + offset, valid);
      gemm::cp_async_16(v_tile + dst, v + offset, valid);
    }
  }

  // The thread's rows of the block `load` points at (issue_block's next).
  __device__ void locate_rows(const DecodeParams& p, const Cursor& load) {
    next_rows_.load(p, load, static_cast<int>(threadIdx.x) / Cfg::kChunksPerRow,
                    static_cast<int>(threadIdx.x) % Cfg::kChunksPerRow);
  }

  // Paged: the block in stage s was issued from `load`; the page numbers of
  // the block kStages - 1 on go to the ring slot of its stage.
  __device__ void copy_pages_ahead(const DecodeParams& p, const Cursor& load, int s) const {
    if constexpr (kPageKeys != 0) {
      const int ahead = (s + Cfg::kStages - 1) % Cfg::kStages;
      decltype(next_rows_)::copy_pages(p, load, load.block + Cfg::kStages - 1,
                                       gemm::shared_address(page_ring(ahead)));
    }
  }

  // Paged: the rows of the block `load` points at, its page numbers from the
  // ring slot of stage s.
  __device__ void rows_from_ring(const DecodeParams& p, const Cursor& load, int s) {
    next_rows_.load_from(p, load, static_cast<int>(threadIdx.x) / Cfg::kChunksPerRow,
                         static_cast<int>(threadIdx.x) % Cfg::kChunksPerRow, page_ring(s));
  }

  // The loader moves on (with `locate`, the next block's rows are located
  // now: paged, its page numbers loaded, for the next issue_block). When it
  // enters a new pair (Stream-K), that pair's query rows are fetched into L2
  // now, so its begin_segment, kStages - 1 blocks later, waits for an L2 hit
  // rather than HBM.
  __device__ void advance_load(const DecodeParams& p, Cursor& load, bool locate) {
    const int pair = load.pair_index(p);
    load.advance(p);
    if (locate) locate_rows(p, load);
    if (load.block != 0 || load.pair_index(p) == pair) return;
    constexpr int kLinesPerRow = kHeadDim * 2 / 128;
    const auto* q = static_cast<const Element*>(p.q);
    for (int t = static_cast<int>(threadIdx.x); t < p.rows * kLinesPerRow; t += Cfg::kThreads) {
      const int row = t / kLinesPerRow;
      const int query = row / p.group_size;
      const int head = load.head * p.group_size + row % p.group_size;
      const Element* line =
          q +
          ((static_cast<long long>(load.sequence) * p.q_len + query) * p.heads + head) * kHeadDim +
          (t % kLinesPerRow) * 64;
      asm volatile("prefetch.global.L2 [%0];\n" ::"l"(line));
    }
  }

  // A new pair: its Q fragments, each row's key limit, a fresh softmax state.
  __device__ void begin_segment(const DecodeParams& p, const Cursor& at) {
    const auto* q = static_cast<const Element*>(p.q);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int row = row_tile_ * 16 + lane_ / 4 + half * 8;
      const Element* src = nullptr;
      key_limit_[half] = at.kv_len;
      if (row < p.rows) {
        const int query = row / p.group_size;
        const int head = at.head * p.group_size + row % p.group_size;
        src =
            q +
            ((static_cast<long long>(at.sequence) * p.q_len + query) * p.heads + head) * kHeadDim +
            (lane_ % 4) * 2;
        if (p.causal) key_limit_[half] = at.kv_len - p.q_len + query + 1;
      }
      // A fragment: registers 0/1 hold rows g/g+8 at columns 2t, 2t+1;
      // registers 2/3 the same rows 8 columns on.
#pragma unroll
      for (int step = 0; step < Cfg::kHeadDimSteps; ++step) {
        q_[step][half] =
            src != nullptr ? __ldg(reinterpret_cast<const unsigned*>(src + step * 16)) : 0u;
        q_[step][half + 2] =
            src != nullptr ? __ldg(reinterpret_cast<const unsigned*>(src + step * 16 + 8)) : 0u;
      }
    }
    reset_softmax();
  }

  // A fresh online-softmax state: no key seen yet.
  __device__ void reset_softmax() {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      max_[half] = -INFINITY;
      sum_[half] = 0.f;
    }
#pragma unroll
    for (int t = 0; t < Cfg::kHeadDimTiles; ++t) {
#pragma unroll
      for (int e = 0; e < 4; ++e) o_[t][e] = 0.f;
    }
  }

  __device__ void compute_block(const Cursor& at, int s, float scale_log2) {
    const std::uint32_t k_tile = gemm::shared_address(stage(s));
    const std::uint32_t v_tile = k_tile + Cfg::kTileBytes;
    const int slice_key = slice_ * Cfg::kSliceKeys;

    float scores[Cfg::kSliceKeyTiles][4];
#pragma unroll
    for (int t = 0; t < Cfg::kSliceKeyTiles; ++t) {
#pragma unroll
      for (int e = 0; e < 4; ++e) scores[t][e] = 0.f;
    }
    // ldmatrix x4 over 16 keys: matrices (keys 0-7 | 8-15) x (columns 0-7 | 8-15).
    const int k_row = slice_key + (lane_ / 16) * 8 + lane_ % 8;
    const int k_chunk = (lane_ / 8) % 2;
#pragma unroll
    for (int step = 0; step < Cfg::kHeadDimSteps; ++step) {
#pragma unroll
      for (int pair = 0; pair < Cfg::kSliceKeyTiles / 2; ++pair) {
        std::uint32_t b[4];
        gemm::ldmatrix_x4(b, k_tile + swizzle(k_row + pair * 16, step * 2 + k_chunk));
        const std::uint32_t b_low[2] = {b[0], b[1]};
        const std::uint32_t b_high[2] = {b[2], b[3]};
        gemm::mma_m16n8k16<Element>(scores[2 * pair], q_[step], b_low);
        gemm::mma_m16n8k16<Element>(scores[2 * pair + 1], q_[step], b_high);
      }
    }

    // Mask by index, scale, and update the running max (rows g and g + 8).
    const int first_key = at.block * Cfg::kBlockKeys + slice_key + (lane_ % 4) * 2;
    float block_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
    for (int t = 0; t < Cfg::kSliceKeyTiles; ++t) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int half = e / 2;
        const int key = first_key + t * 8 + (e & 1);
        scores[t][e] = key < key_limit_[half] ? scores[t][e] * scale_log2 : -INFINITY;
        block_max[half] = fmaxf(block_max[half], scores[t][e]);
      }
    }
    float shift[2];
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      block_max[half] = fmaxf(block_max[half], __shfl_xor_sync(0xffffffffu, block_max[half], 1));
      block_max[half] = fmaxf(block_max[half], __shfl_xor_sync(0xffffffffu, block_max[half], 2));
      const float new_max = fmaxf(max_[half], block_max[half]);
      shift[half] = new_max == -INFINITY ? 0.f : new_max;  // no (-inf) - (-inf)
      const float rescale = fast_exp2(max_[half] - shift[half]);
      max_[half] = new_max;
      sum_[half] *= rescale;
#pragma unroll
      for (int t = 0; t < Cfg::kHeadDimTiles; ++t) {
        o_[t][2 * half] *= rescale;
        o_[t][2 * half + 1] *= rescale;
      }
    }
#pragma unroll
    for (int t = 0; t < Cfg::kSliceKeyTiles; ++t) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        scores[t][e] = fast_exp2(scores[t][e] - shift[e / 2]);
        sum_[e / 2] += scores[t][e];
      }
    }

    // O += P V, 16 keys at a time; ldmatrix.trans x4: (keys 0-7 | 8-15) x (columns 0-7 | 8-15).
    const int v_row = slice_key + ((lane_ / 8) % 2) * 8 + lane_ % 8;
    const int v_chunk = lane_ / 16;
#pragma unroll
    for (int kk = 0; kk < Cfg::kSliceKeys / 16; ++kk) {
      const std::uint32_t a[4] = {
          pack_pair<Element>(scores[2 * kk][0], scores[2 * kk][1]),
          pack_pair<Element>(scores[2 * kk][2], scores[2 * kk][3]),
          pack_pair<Element>(scores[2 * kk + 1][0], scores[2 * kk + 1][1]),
          pack_pair<Element>(scores[2 * kk + 1][2], scores[2 * kk + 1][3]),
      };
#pragma unroll
      for (int dp = 0; dp < Cfg::kHeadDimTiles / 2; ++dp) {
        std::uint32_t b[4];
        gemm::ldmatrix_x4_trans(b, v_tile + swizzle(v_row + kk * 16, dp * 2 + v_chunk));
        const std::uint32_t b_low[2] = {b[0], b[1]};
        const std::uint32_t b_high[2] = {b[2], b[3]};
        gemm::mma_m16n8k16<Element>(o_[2 * dp], a, b_low);
        gemm::mma_m16n8k16<Element>(o_[2 * dp + 1], a, b_high);
      }
    }
  }

  // Each warp's (max, sum, O) of its key slice -> per row: weights that
  // normalize and merge the slices, and the row's log2-sum-exp.
  __device__ void merge_slices(const DecodeParams& p) {
    const int group_row = lane_ / 4;
    float* rows = merge_rows() + warp_ * 16 * Cfg::kMergeRowFloats;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      sum_[half] += __shfl_xor_sync(0xffffffffu, sum_[half], 1);
      sum_[half] += __shfl_xor_sync(0xffffffffu, sum_[half], 2);
      if (lane_ % 4 == 0) {
        row_max()[warp_ * 16 + group_row + half * 8] = max_[half];
        row_sum()[warp_ * 16 + group_row + half * 8] = sum_[half];
      }
    }
#pragma unroll
    for (int t = 0; t < Cfg::kHeadDimTiles; ++t) {
      const int column = t * 8 + (lane_ % 4) * 2;
      *reinterpret_cast<float2*>(rows + group_row * Cfg::kMergeRowFloats + column) =
          make_float2(o_[t][0], o_[t][1]);
      *reinterpret_cast<float2*>(rows + (group_row + 8) * Cfg::kMergeRowFloats + column) =
          make_float2(o_[t][2], o_[t][3]);
    }
    __syncthreads();
    const int row = static_cast<int>(threadIdx.x);
    if (row < p.rows) {
      const int tile = row / 16;
      const int local = row % 16;
      float top = -INFINITY;
#pragma unroll
      for (int s = 0; s < Cfg::kKeySlices; ++s) {
        top = fmaxf(top, row_max()[(tile + s * Cfg::kRowTiles) * 16 + local]);
      }
      const float shift = top == -INFINITY ? 0.f : top;
      float weights[Cfg::kKeySlices];
      float total = 0.f;
#pragma unroll
      for (int s = 0; s < Cfg::kKeySlices; ++s) {
        const int at = (tile + s * Cfg::kRowTiles) * 16 + local;
        weights[s] = fast_exp2(row_max()[at] - shift);
        total += weights[s] * row_sum()[at];
      }
      const float inverse = total > 0.f ? 1.f / total : 0.f;
#pragma unroll
      for (int s = 0; s < Cfg::kKeySlices; ++s) {
        row_weight()[(tile + s * Cfg::kRowTiles) * 16 + local] = weights[s] * inverse;
      }
      row_lse()[row] = total > 0.f ? shift + log2f(total) : -INFINITY;
    }
    __syncthreads();
  }

  unsigned char* smem_;
  int warp_;
  int lane_;
  int row_tile_;
  int slice_;
  std::uint32_t q_[Cfg::kHeadDimSteps][4];
  float o_[Cfg::kHeadDimTiles][4];
  float max_[2];
  float sum_[2];
  int key_limit_[2];
  // Where the thread's rows of the next block to issue lie.
  BlockRows<Cfg::kBlockKeys, Cfg::kRowsPerPass, kHeadDim, kPageKeys> next_rows_;
};

}  // namespace tilesim::kernels::decode
