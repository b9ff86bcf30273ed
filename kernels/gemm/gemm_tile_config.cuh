#pragma once
// Compile-time shape of the reference GEMM kernel: CTA tile, warp grid,
// pipeline depth, fragment prefetch, and what follows from them (threads, mma
// tiles per warp, shared memory). One TileConfig per compiled tile variant
// (GemmTileVariant in gemm_launch.hpp; the list is in gemm_kernel_variants.cuh).

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
  static constexpr int kWarpTileM = kTileM / kWarpsM;
  static constexpr int kWarpTileN = kTileN / kWarpsN;
  static constexpr int kMmaM = kWarpTileM / 16;  // m16n8k16 tiles per warp along m
  static constexpr int kMmaN = kWarpTileN / 8;   // ... along n
  static constexpr int kMmaK = kTileK / 16;      // k-steps per k-block
  static constexpr int kAccumulatorsPerThread = kMmaM * kMmaN * 4;

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

// The tilesim_ref profile (configs/hw/h100_sxm.yaml): 128x128x32, 4 stages, 8 warps.
using TileConfigM128N128K32W8S4 = TileConfig<128, 128, 32, 2, 4, 4, 2, false>;
// Same tile, 4 warps of 64x64: fewer shared-memory fragment loads per mma.
// (Prefetching fragments here measured 5% slower on the H100.)
using TileConfigM128N128K32W4S4 = TileConfig<128, 128, 32, 2, 2, 4, 2, false>;
// Larger tiles, one CTA per SM, 8 warps of 64x64 with fragment prefetch: a
// third fewer L2 -> SM bytes per flop than 128x128 (which ran at ~6 TB/s of L2).
using TileConfigM256N128K64W8S3 = TileConfig<256, 128, 64, 4, 2, 3, 1, true>;
using TileConfigM256N128K64W8S4 = TileConfig<256, 128, 64, 4, 2, 4, 1, true>;
using TileConfigM128N256K32W8S4 = TileConfig<128, 256, 32, 2, 4, 4, 1, true>;

}  // namespace tilesim::kernels::gemm
