#pragma once
// Compile-time shape of the reference GEMM kernel: CTA tile, warp grid,
// pipeline depth, fragment prefetch, and what follows from them (threads, mma
// tiles per warp, shared memory). One TileConfig per compiled tile variant
// (GemmTileVariant in gemm_launch.hpp; the list is in gemm_kernel_variants.cuh).
//
// Both kinds of config (TileConfig: cp.async + mma.sync; WgmmaTileConfig: TMA +
// wgmma) describe their accumulators the same way to the fixup and epilogue:
// kMathThreads threads (threadIdx.x < kMathThreads), warps in a kWarpsM x
// kWarpsN grid of kWarpTileM x kWarpTileN tiles, each holding kMmaM x kMmaN
// m16n8 accumulator fragments (4 floats per thread in mma.sync's C layout),
// and sync_math_threads() as their barrier.

#include "kernels/gemm/ptx_hopper_primitives.cuh"

namespace tilesim::kernels::gemm {

template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kStages_,
          int kMinCtasPerSm_, bool kPrefetchFragments_>
struct TileConfig {
  static constexpr int kTileM = kTileM_;
  static constexpr int kTileN = kTileN_;
  static constexpr int kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_;
  static constexpr int kWarpsN = kWarpsN_;
  static constexpr int kStages = kStages_;
  static constexpr int kMinCtasPerSm = kMinCtasPerSm_;  // __launch_bounds__: caps registers
  // Load the next k-step's fragments (across k-block boundaries too) before
  // this k-step's mma: two fragment sets in registers.
  static constexpr bool kPrefetchFragments = kPrefetchFragments_;

  static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
  static constexpr int kMathThreads = kThreads;
  static constexpr int kWarpTileM = kTileM / kWarpsM;
  static constexpr int kWarpTileN = kTileN / kWarpsN;
  static constexpr int kMmaM = kWarpTileM / 16;  // m16n8k16 tiles per warp along m
  static constexpr int kMmaN = kWarpTileN / 8;   // ... along n
  static constexpr int kMmaK = kTileK / 16;      // k-steps per k-block
  static constexpr int kAccumulatorsPerThread = kMmaM * kMmaN * 4;
  using Accumulators = float[kMmaM][kMmaN][4];

  __device__ static void sync_math_threads() { __syncthreads(); }
  // Fixup workspace loads in flight per thread: one (load, add, store, then
  // the next), the kernel the H100 validation dataset measured and that the
  // simulator's `tilesim_ref` profile describes (fixup_loads_in_flight: 1).
  static constexpr int kFixupLoadBatch = 1;

  static constexpr int kElementBytes = 2;  // bf16 / fp16 operands
  static constexpr int kStageBytesA = kTileM * kTileK * kElementBytes;
  static constexpr int kStageBytesB = kTileK * kTileN * kElementBytes;
  static constexpr int kStageBytes = kStageBytesA + kStageBytesB;
  static constexpr int kSharedBytes = kStages * kStageBytes;

  static_assert(kTileK == 32 || kTileK == 64, "A rows are 4 or 8 16-byte chunks");
  static_assert(kTileN >= 64, "B rows need at least 8 16-byte chunks for the swizzle");
  static_assert(kWarpTileM % 16 == 0 && kWarpTileN % 16 == 0, "whole ldmatrix.x4 tiles");
  static_assert(kStages >= 2, "a pipeline needs two stages");
  static_assert(!kPrefetchFragments || kMmaK % 2 == 0, "prefetch alternates two fragment sets");
};

// 128x128x32, 4 stages, 8 warps: the tilesim_ref profile's first tile (now
// m256n128k64_w8_s3, configs/kernels/tilesim_ref.yaml).
using TileConfigM128N128K32W8S4 = TileConfig<128, 128, 32, 2, 4, 4, 2, false>;
// Same tile, 4 warps of 64x64: fewer shared-memory fragment loads per mma.
// (Prefetching fragments here measured 5% slower on the H100.)
using TileConfigM128N128K32W4S4 = TileConfig<128, 128, 32, 2, 2, 4, 2, false>;
// Larger tiles, one CTA per SM, 8 warps of 64x64 with fragment prefetch: a
// third fewer L2 -> SM bytes per flop than 128x128 (which ran at ~6 TB/s of L2).
using TileConfigM256N128K64W8S3 = TileConfig<256, 128, 64, 4, 2, 3, 1, true>;
using TileConfigM256N128K64W8S4 = TileConfig<256, 128, 64, 4, 2, 4, 1, true>;
using TileConfigM128N256K32W8S4 = TileConfig<128, 256, 32, 2, 4, 4, 1, true>;

// Warp-specialized Hopper tile: kConsumers warpgroups each multiply a 64-row
// slab of the tile (wgmma.m64nNk16, A and B from shared memory) while one
// producer warpgroup (the last, so consumers are threads 0..kMathThreads-1)
// streams k-blocks in by TMA, `kStages` deep, handshaking on mbarriers. The
// shared-memory stage holds A as TM rows of TK = 64 elements (128 bytes, the
// 128-byte swizzle's width) and B as TN/64 column blocks of TK rows x 64
// elements, each block one TMA box in the same swizzle.
// kStoresByTma: C leaves through shared memory and TMA stores
// (gemm_epilogue_tma_store.cuh) instead of from registers, so the copy engine
// writes it to global memory while the consumers start their next unit.
// kClusterM: CTAs per thread-block cluster, stacked along m. They take the
// same work units (one cluster tile of kClusterM * kTileM rows) and each
// loads its own rows of A but only its share of B's boxes, multicast into
// every CTA of the cluster: B's L2 -> SM bytes divided by kClusterM.
// kSwizzleBytesB: the swizzle (and row bytes) of B's boxes and of C's staging
// boxes; 128, or 64 for tiles whose columns are not a multiple of 64 elements
// (96: three 32-column boxes). A keeps the 128-byte swizzle.
// kClusterN: the CTAs side by side along n instead (cluster tiles of
// kClusterN * kTileN columns): each loads its own B and 1 / kClusterN of A's
// rows, multicast into every CTA: A's L2 -> SM bytes divided by kClusterN.
// One of kClusterM, kClusterN is 1.
template <int kTileM_, int kTileN_, int kStages_, bool kStoresByTma_ = false, int kClusterM_ = 1,
          int kSwizzleBytesB_ = 128, int kClusterN_ = 1>
struct WgmmaTileConfig {
  static constexpr int kTileM = kTileM_;
  static constexpr int kTileN = kTileN_;
  static constexpr int kTileK = 64;
  static constexpr int kStages = kStages_;
  static constexpr int kMinCtasPerSm = 1;
  static constexpr bool kStoresByTma = kStoresByTma_;
  static constexpr int kClusterM = kClusterM_;
  static constexpr int kClusterN = kClusterN_;
  static constexpr int kClusterCtas = kClusterM * kClusterN;
  static_assert(kClusterM == 1 || kClusterN == 1, "clusters along m or along n");

  static constexpr int kConsumers = kTileM / 64;  // consumer warpgroups
  static constexpr int kMathThreads = 128 * kConsumers;
  static constexpr int kThreads = kMathThreads + 128;  // + the producer warpgroup
  // Registers per thread after setmaxnreg: the consumers hold the accumulators,
  // the producer issues copies; 64K registers per SM in all (the launch bound
  // gives 168 a thread to 3 warpgroups, 128 to 4). Three consumers split them
  // 160 / 32, as CUTLASS's and FlashAttention-3's three-consumer kernels do.
  static constexpr int kConsumerRegisters = kConsumers == 2 ? 232 : 160;
  static constexpr int kProducerRegisters = kConsumers == 2 ? 40 : 32;
  static_assert(kConsumerRegisters * kMathThreads + kProducerRegisters * 128 <= 65536);
  static_assert(kConsumers == 2 || kConsumers == 3, "a register split for 2 or 3 consumers");

  // Accumulator fragments: warp w holds rows 16w..16w+15 of the tile and all
  // kTileN columns (wgmma's D layout is mma.sync's m16n8 C layout per warp).
  static constexpr int kWarpsM = kMathThreads / 32;
  static constexpr int kWarpsN = 1;
  static constexpr int kWarpTileM = 16;
  static constexpr int kWarpTileN = kTileN;
  static constexpr int kMmaM = 1;
  static constexpr int kMmaN = kTileN / 8;
  static constexpr int kAccumulatorsPerThread = kMmaN * 4;
  // Fixup workspace loads in flight per thread: 4 (16 registers) is what the
  // 232 consumer registers hold beside the 128 accumulators without spills.
  static constexpr int kFixupLoadBatch = 4;
  using Accumulators = float[kMmaM][kMmaN][4];

  static constexpr int kElementBytes = 2;
  static constexpr int kSwizzleBytes = 128;  // A: one row of a k-block
  static constexpr int kSwizzleBytesB = kSwizzleBytesB_;
  static_assert(kSwizzleBytesB == 128 || kSwizzleBytesB == 64);
  static constexpr int kBoxN = kSwizzleBytesB / kElementBytes;  // B columns per TMA box
  static constexpr int kStageBytesA = kTileM * kTileK * kElementBytes;
  static constexpr int kBoxBytesB = kTileK * kSwizzleBytesB;
  static constexpr int kStageBytesB = kTileK * kTileN * kElementBytes;
  static constexpr int kStageBytes = kStageBytesA + kStageBytesB;
  static constexpr int kBarrierBytes = 2 * kStages * 8;  // full and empty mbarrier per stage
  static constexpr int kUnitRingBytes = 96;              // gemm_work_unit_ring.cuh
  static constexpr int kAlignmentBytes = 1024;           // swizzle atoms: 8 rows of 128 bytes
  // kStoresByTma: C staging before the stages, two boxes of 64 rows x 128
  // bytes per consumer warpgroup (one filled while the other is stored);
  // what is left of the 227 KiB beside four 48 KiB stages.
  static constexpr int kEpilogueRowBytes = kSwizzleBytesB;  // C's boxes: B's swizzle
  static constexpr int kEpilogueBoxBytes = 64 * kEpilogueRowBytes;
  static constexpr int kEpilogueBoxesPerConsumer = 2;
  static constexpr int kEpilogueBytes =
      kStoresByTma ? kConsumers * kEpilogueBoxesPerConsumer * kEpilogueBoxBytes : 0;
  static constexpr int kSharedBytes =
      kEpilogueBytes + kStages * kStageBytes + kBarrierBytes + kUnitRingBytes + kAlignmentBytes;
  static_assert(kSharedBytes <= 227 * 1024, "the H100's shared memory per block");

  static_assert(kTileM % 64 == 0 && kTileN % kBoxN == 0 && kTileN <= 256);
  static constexpr int kBoxesB = kTileN / kBoxN;
  // B boxes each CTA of a cluster loads (and multicasts to the others) where
  // they divide evenly; otherwise CTA r loads boxes r, r + kClusterM, ...
  static constexpr int kBoxesPerCta = kBoxesB / kClusterM;
  // A's rows each CTA of a cluster along n loads (and multicasts to the others).
  static constexpr int kRowsAPerCta = kTileM / kClusterN;
  static_assert(kRowsAPerCta * kSwizzleBytes % kAlignmentBytes == 0, "whole swizzle atoms of A");
  // Arrivals that free a stage: every consumer warp of every CTA in the cluster
  // (each CTA's copies write into all of them).
  static constexpr int kEmptyArrivals = kClusterCtas * kMathThreads / 32;
  static_assert(kStageBytesA % kAlignmentBytes == 0, "B and the next stage stay aligned");

  // Barrier 0 is __syncthreads; the consumers meet at barrier 1.
  __device__ static void sync_math_threads() {
#if defined(TILESIM_SM90A)
    sm90::named_barrier_sync(1, kMathThreads);
#endif
  }
};

// 128x256x64, 4 stages: two consumer warpgroups of 64x256 (wgmma m64n256k16)
// and a TMA producer warpgroup, 384 threads, one CTA per SM.
using WgmmaTileConfigM128N256S4 = WgmmaTileConfig<128, 256, 4>;
// The same tile and main loop; C stored through shared memory by TMA.
using WgmmaTileConfigM128N256S4TmaStore = WgmmaTileConfig<128, 256, 4, true>;
// The tma_store kernel in 2-CTA clusters along m (a 256x256 cluster tile): B multicast.
using WgmmaTileConfigM128N256S4TmaStoreC2 = WgmmaTileConfig<128, 256, 4, true, 2>;
// The same kernel with 128x192 tiles (wgmma m64n192k16, a 256x192 cluster
// tile): three B boxes a stage, rank 0 multicasting boxes 0 and 2, rank 1
// box 1. 192-column tiles fill whole waves where 256-column ones leave a
// partial one (3072x3072: 192 cluster tiles, 2.9 waves of 66 clusters).
using WgmmaTileConfigM128N192S4TmaStoreC2 = WgmmaTileConfig<128, 192, 4, true, 2>;
// 192x192 tiles in 2-CTA clusters (a 384x192 cluster tile), as cuBLAS's
// nvjet_sm90_tst_192x192_64x3_2x1: three consumer warpgroups (96 accumulators
// each) and three stages (48 KiB each; C's staging takes 48 KiB). Per k-block a
// CTA reads 24 KiB of A and 12 of B from L2 for 2.36 M multiply-adds: the
// bytes per flop of 128x256 in clusters, 14% fewer than 128x192's, with tiles
// that divide 1536 and 3072 both ways.
// Four stages (one C staging box a warpgroup) ran in one H200 call beside
// it: its consumers' waits on stage data fell from 42% to 11% of ncu's warp
// samples at 3072x3072x4096, its time did not (every row there at the 700 W
// cap; bench/measurements/h200_sxm_2026-11-28_gemm_wgmma_m192_NOTES.md).
using WgmmaTileConfigM192N192S3TmaStoreC2 = WgmmaTileConfig<192, 192, 3, true, 2>;
// 192x96 tiles in 2-CTA clusters (a 384x96 cluster tile), cuBLAS's tile at
// 1536^3 (192x96 on 128 CTAs, one wave, no split): 1536^3 is 64 cluster
// tiles, one wave of 66 clusters, where 128x192 leaves 48 and Stream-K must
// split every tile. Three consumer warpgroups of 64x96 (wgmma m64n96k16, 48
// accumulators), four 36 KiB stages; B and C in 64-byte swizzled boxes of 32
// columns (96 is no multiple of the 128-byte swizzle's 64), B's three boxes
// multicast 2 + 1. Per k-block a CTA reads 24 KiB of A and 8 or 4 of B.
using WgmmaTileConfigM192N96S4TmaStoreC2 = WgmmaTileConfig<192, 96, 4, true, 2, 64>;
// The same CTA with its pair side by side along n (192x192 cluster tiles), as
// cuBLAS's nvjet_sm90_tst_192x96_64x5_1x2 pairs its CTAs: each loads 96 of the
// tile's 192 A rows and multicasts them, and its own three B boxes, so a
// k-block costs a CTA 12 + 12 KiB from L2 instead of 24 + 6 (24 + 12 for the
// pair instead of 48 + 12).
using WgmmaTileConfigM192N96S4TmaStoreC2N = WgmmaTileConfig<192, 96, 4, true, 1, 64, 2>;

}  // namespace tilesim::kernels::gemm
