#pragma once
// The tensor-core main loop every schedule shares: accumulate
// A[m0:m0+TM, kb*TK:...] * B[..., n0:n0+TN] over k-blocks [k_begin, k_end) of one
// tile into fp32 registers.
//
// Pipeline: `kStages` shared-memory stages filled by cp.async (16 B per thread
// per copy, zero-filled past the matrix edges), kStages-1 k-blocks in flight
// while the tensor cores work on the oldest; one barrier per k-block.
// Fragments come from shared memory by ldmatrix (B transposed on the fly),
// either one k-step at a time (run_plain: the 128x128 tiles, whose 2 CTAs x
// 256 threads per SM leave 128 registers a thread, where two fragment sets
// spilled) or prefetched one k-step ahead across k-block boundaries
// (run_prefetching: the one-CTA-per-SM tiles).
//
// Shared-memory layout, per stage: A as TM rows of TK bf16, B as TK rows of TN,
// in 16-byte chunks whose column is XOR-swizzled with the row, so the eight
// row addresses of each ldmatrix 8x8 matrix (and each cp.async warp) hit eight
// different 16-byte bank groups: no bank conflicts.
//
// kVectorLoads = false is the variant for rows of A or B that are not 16-byte
// aligned (k or n not a multiple of 8): guarded 2-byte loads staged through
// registers. It is a separate kernel so its registers do not crowd the fast one.

#include <cstdint>

#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/ptx_primitives.cuh"

namespace tilesim::kernels::gemm {

template <class Cfg, typename Element, bool kVectorLoads>
struct GemmMainloop {
  using Accumulators = float[Cfg::kMmaM][Cfg::kMmaN][4];

  static constexpr int kChunksPerRowA = Cfg::kTileK / 8;  // 16-byte chunks
  static constexpr int kChunksPerRowB = Cfg::kTileN / 8;
  static constexpr int kRowsPerCopyA = Cfg::kThreads / kChunksPerRowA;  // rows per pass
  static constexpr int kRowsPerCopyB = Cfg::kThreads / kChunksPerRowB;
  static constexpr int kCopiesA = Cfg::kTileM / kRowsPerCopyA;  // 16-byte copies per thread
  static constexpr int kCopiesB = Cfg::kTileK / kRowsPerCopyB;
  static_assert(Cfg::kTileM % kRowsPerCopyA == 0 && Cfg::kTileK % kRowsPerCopyB == 0,
                "every thread copies whole chunks");

  // Byte offset of chunk (row, chunk) of the A stage: a 128-byte line holds
  // 8 / kChunksPerRowA rows; the chunk index is XORed with the line index.
  __device__ static int offset_a(int row, int chunk) {
    constexpr int kRowsPerLine = 8 / kChunksPerRowA;
    return (row * kChunksPerRowA + (chunk ^ ((row / kRowsPerLine) % kChunksPerRowA))) * 16;
  }
  // B rows are at least 128 bytes: XOR the low three chunk bits with the row.
  __device__ static int offset_b(int row, int chunk) {
    return (row * kChunksPerRowB + (chunk ^ (row % 8))) * 16;
  }

  struct Fragments {
    std::uint32_t a[Cfg::kMmaM][4];
    std::uint32_t b[Cfg::kMmaN][2];
  };

  // Per-thread copy plan of a unit. Copy i of a thread is kRowsPerCopy rows
  // below copy 0, which keeps the swizzle phase, so one shared-memory offset
  // and one global pointer per operand describe all of them.
  struct CopyPlan {
    const Element* a;     // A[m0 + row_a][col_a] (k-block 0)
    const Element* b;     // B[row_b][n0 + col_b] (k-block 0)
    std::uint32_t dst_a;  // copy 0's offset in a stage
    std::uint32_t dst_b;
    unsigned rows_a_inside;  // bit i: copy i's row of A is < m
    int col_a;               // k offset of this thread's A chunk in a k-block
    int row_b;               // k offset of this thread's first B row in a k-block
    bool cols_b_inside;      // this thread's B chunk is < n
  };

  static_assert(kRowsPerCopyA % (2 * kChunksPerRowA) == 0 || kCopiesA == 1,
                "A copies must keep the swizzle phase");
  static_assert(kRowsPerCopyB % 8 == 0 || kCopiesB == 1, "B copies must keep the swizzle phase");

  __device__ static CopyPlan plan_copies(const GemmKernelParams& p, int m0, int n0) {
    const int row_a = threadIdx.x / kChunksPerRowA;
    const int chunk_a = threadIdx.x % kChunksPerRowA;
    const int row_b = threadIdx.x / kChunksPerRowB;
    const int chunk_b = threadIdx.x % kChunksPerRowB;
    CopyPlan plan;
    plan.col_a = chunk_a * 8;
    plan.row_b = row_b;
    plan.a =
        static_cast<const Element*>(p.a) + static_cast<long long>(m0 + row_a) * p.k + plan.col_a;
    plan.b =
        static_cast<const Element*>(p.b) + static_cast<long long>(row_b) * p.n + n0 + chunk_b * 8;
    plan.dst_a = offset_a(row_a, chunk_a);
    plan.dst_b = Cfg::kStageBytesA + offset_b(row_b, chunk_b);
    plan.rows_a_inside = 0;
#pragma unroll
    for (int i = 0; i < kCopiesA; ++i) {
      if (m0 + row_a + i * kRowsPerCopyA < p.m) plan.rows_a_inside |= 1u << i;
    }
    plan.cols_b_inside = n0 + chunk_b * 8 < p.n;
    return plan;
  }

  // Eight elements of row `row` from column `col` on, zeros past rows x cols.
  __device__ static uint4 gather_chunk(const Element* matrix, int row, int col, int rows,
                                       int cols) {
    const auto* raw = reinterpret_cast<const unsigned short*>(matrix);
    unsigned short values[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) {
      const bool inside = row < rows && col + e < cols;
      values[e] = inside ? raw[static_cast<long long>(row) * cols + col + e] : 0;
    }
    uint4 chunk;
    chunk.x = values[0] | (static_cast<unsigned>(values[1]) << 16);
    chunk.y = values[2] | (static_cast<unsigned>(values[3]) << 16);
    chunk.z = values[4] | (static_cast<unsigned>(values[5]) << 16);
    chunk.w = values[6] | (static_cast<unsigned>(values[7]) << 16);
    return chunk;
  }

  // Copies k-block `kb` of the tile at (m0, n0) into the stage at `stage`.
  __device__ static void load_stage(const GemmKernelParams& p, const CopyPlan& plan,
                                    std::uint32_t stage, int m0, int n0, int kb) {
    constexpr int kRowBytesA = kChunksPerRowA * 16;
    constexpr int kRowBytesB = kChunksPerRowB * 16;
    const int k0 = kb * Cfg::kTileK;
#pragma unroll
    for (int i = 0; i < kCopiesA; ++i) {
      const std::uint32_t dst = stage + plan.dst_a + i * kRowsPerCopyA * kRowBytesA;
      if constexpr (kVectorLoads) {
        const bool valid = ((plan.rows_a_inside >> i) & 1u) && k0 + plan.col_a < p.k;
        const Element* src = plan.a + static_cast<long long>(i) * kRowsPerCopyA * p.k + k0;
        cp_async_16(dst, valid ? src : static_cast<const Element*>(p.a), valid);
      } else {
        const int row = m0 + static_cast<int>(threadIdx.x) / kChunksPerRowA + i * kRowsPerCopyA;
        store_shared_16(
            dst, gather_chunk(static_cast<const Element*>(p.a), row, k0 + plan.col_a, p.m, p.k));
      }
    }
#pragma unroll
    for (int i = 0; i < kCopiesB; ++i) {
      const std::uint32_t dst = stage + plan.dst_b + i * kRowsPerCopyB * kRowBytesB;
      const int row = k0 + plan.row_b + i * kRowsPerCopyB;
      if constexpr (kVectorLoads) {
        const bool valid = plan.cols_b_inside && row < p.k;
        const Element* src = plan.b + static_cast<long long>(k0 + i * kRowsPerCopyB) * p.n;
        cp_async_16(dst, valid ? src : static_cast<const Element*>(p.b), valid);
      } else {
        const int col = n0 + (static_cast<int>(threadIdx.x) % kChunksPerRowB) * 8;
        store_shared_16(dst, gather_chunk(static_cast<const Element*>(p.b), row, col, p.k, p.n));
      }
    }
  }

  // Where this lane's ldmatrix rows start, relative to a stage: per k-step for
  // A, per pair of n8 tiles for B. Moving 16 rows down keeps the swizzle phase
  // (A: 16 rows are a whole number of XOR periods; B: 16 % 8 == 0), so the
  // other fragments are these offsets plus compile-time constants.
  struct FragmentOffsets {
    std::uint32_t a[Cfg::kMmaK];
    std::uint32_t b[Cfg::kMmaN / 2];
  };

  __device__ static FragmentOffsets fragment_offsets(int warp_m0, int warp_n0) {
    const int lane = threadIdx.x % 32;
    FragmentOffsets offsets;
#pragma unroll
    for (int ks = 0; ks < Cfg::kMmaK; ++ks) {
      offsets.a[ks] = offset_a(warp_m0 + lane % 16, ks * 2 + lane / 16);
    }
#pragma unroll
    for (int nj = 0; nj < Cfg::kMmaN / 2; ++nj) {
      offsets.b[nj] = Cfg::kStageBytesA + offset_b(lane % 16, (warp_n0 + nj * 16) / 8 + lane / 16);
    }
    return offsets;
  }

  // Fragments of k-step `ks` of the stage at `stage` for this warp's sub-tile.
  __device__ static void load_fragments(Fragments& f, std::uint32_t stage, int ks,
                                        const FragmentOffsets& offsets) {
    constexpr int kRowBytesA = kChunksPerRowA * 16;
    constexpr int kRowBytesB = kChunksPerRowB * 16;
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
      ldmatrix_x4(f.a[mi], stage + offsets.a[ks] + mi * 16 * kRowBytesA);
    }
#pragma unroll
    for (int nj = 0; nj < Cfg::kMmaN / 2; ++nj) {
      std::uint32_t pair[4];
      ldmatrix_x4_trans(pair, stage + offsets.b[nj] + ks * 16 * kRowBytesB);
      f.b[2 * nj][0] = pair[0];
      f.b[2 * nj][1] = pair[1];
      f.b[2 * nj + 1][0] = pair[2];
      f.b[2 * nj + 1][1] = pair[3];
    }
  }

  __device__ static void multiply(Accumulators& acc, const Fragments& f) {
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
        // Serpentine over n keeps one A fragment hot between neighbouring mmas.
        const int n = (mi % 2 == 0) ? ni : Cfg::kMmaN - 1 - ni;
        mma_m16n8k16<Element>(acc[mi][n], f.a[mi], f.b[n]);
      }
    }
  }

  // One barrier per k-block; within it the unrolled k-steps let the compiler
  // overlap step ks+1's ldmatrix with step ks's mma as far as registers allow.
  __device__ static void run_plain(Accumulators& acc, const GemmKernelParams& p,
                                   const CopyPlan& plan, const FragmentOffsets& offsets,
                                   std::uint32_t smem_base, int m0, int n0, int k_begin,
                                   int iters) {
    int read_stage = 0;
    int write_stage = Cfg::kStages - 1;
    for (int it = 0; it < iters; ++it) {
      // Refill the stage every warp finished reading in the previous iteration
      // (the barrier below ordered those reads before this copy).
      const int next = it + Cfg::kStages - 1;
      if (next < iters) {
        load_stage(p, plan, smem_base + write_stage * Cfg::kStageBytes, m0, n0, k_begin + next);
      }
      cp_async_commit();
      write_stage = (write_stage + 1) % Cfg::kStages;
#pragma unroll
      for (int ks = 0; ks < Cfg::kMmaK; ++ks) {
        Fragments fragments;
        load_fragments(fragments, smem_base + read_stage * Cfg::kStageBytes, ks, offsets);
        multiply(acc, fragments);
      }
      // k-block it + 1 has landed, and no warp still reads stage `read_stage`.
      cp_async_wait<Cfg::kStages - 2>();
      __syncthreads();
      read_stage = (read_stage + 1) % Cfg::kStages;
    }
  }

  // Two fragment sets: step ks+1's ldmatrix is issued before step ks's mma,
  // also across the k-block boundary (the barrier sits before the last step's
  // mma, so the next block's first fragments load while it runs).
  __device__ static void run_prefetching(Accumulators& acc, const GemmKernelParams& p,
                                         const CopyPlan& plan, const FragmentOffsets& offsets,
                                         std::uint32_t smem_base, int m0, int n0, int k_begin,
                                         int iters) {
    Fragments frags[2];
    int read_stage = 0;
    int write_stage = Cfg::kStages - 1;
    load_fragments(frags[0], smem_base, 0, offsets);
    for (int it = 0; it < iters; ++it) {
#pragma unroll
      for (int ks = 0; ks < Cfg::kMmaK; ++ks) {
        if (ks == Cfg::kMmaK - 1) {
          // Wait for k-block it + 1 (the barrier makes every thread's copies
          // visible). Every warp has also loaded its last fragments of this
          // stage by now, so the copy at ks == 0 of the next iteration may
          // overwrite it.
          cp_async_wait<Cfg::kStages - 2>();
          __syncthreads();
          read_stage = (read_stage + 1) % Cfg::kStages;
        }
        if (ks < Cfg::kMmaK - 1 || it + 1 < iters) {
          load_fragments(frags[(ks + 1) % 2], smem_base + read_stage * Cfg::kStageBytes,
                         (ks + 1) % Cfg::kMmaK, offsets);
        }
        if (ks == 0) {
          const int next = it + Cfg::kStages - 1;
          if (next < iters) {
            load_stage(p, plan, smem_base + write_stage * Cfg::kStageBytes, m0, n0, k_begin + next);
          }
          cp_async_commit();
          write_stage = (write_stage + 1) % Cfg::kStages;
        }
        multiply(acc, frags[ks % 2]);
      }
    }
  }

  // acc = sum over k-blocks [k_begin, k_end) of the tile at (m0, n0). Leaves no
  // copy in flight and ends on a barrier, so shared memory may be reused.
  __device__ static void run(Accumulators& acc, const GemmKernelParams& p, unsigned char* smem,
                             int m0, int n0, int k_begin, int k_end) {
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[mi][ni][e] = 0.0f;
      }
    }
    const std::uint32_t smem_base = shared_address(smem);
    const int warp = threadIdx.x / 32;
    const int warp_m0 = (warp / Cfg::kWarpsN) * Cfg::kWarpTileM;
    const int warp_n0 = (warp % Cfg::kWarpsN) * Cfg::kWarpTileN;
    const CopyPlan plan = plan_copies(p, m0, n0);
    const FragmentOffsets offsets = fragment_offsets(warp_m0, warp_n0);
    const int iters = k_end - k_begin;

#pragma unroll
    for (int s = 0; s < Cfg::kStages - 1; ++s) {
      if (s < iters) load_stage(p, plan, smem_base + s * Cfg::kStageBytes, m0, n0, k_begin + s);
      cp_async_commit();
    }
    cp_async_wait<Cfg::kStages - 2>();
    __syncthreads();

    if constexpr (Cfg::kPrefetchFragments) {
      run_prefetching(acc, p, plan, offsets, smem_base, m0, n0, k_begin, iters);
    } else {
      run_plain(acc, p, plan, offsets, smem_base, m0, n0, k_begin, iters);
    }
    cp_async_wait<0>();
    __syncthreads();
  }
};

}  // namespace tilesim::kernels::gemm
