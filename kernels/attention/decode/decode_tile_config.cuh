#pragma once
// Compile-time shape of the decode CTA shared by every decode variant.
//
// A CTA attends the packed queries of one GQA group -- group_size x q_len
// rows, query-major (row = query * group_size + head in group), padded to
// 16-row mma tiles -- against blocks of 64 keys of one KV head. Its 4 warps
// split the rows into `kRowTiles` tiles of 16 and each block's keys into
// 4 / kRowTiles slices, so K and V are read once per group whatever its size.
// Each warp keeps its own online-softmax state (max, sum, O in fp32) for its
// 16 rows over its key slice; the slices are merged once per segment.

#include <cstddef>

namespace tilesim::kernels::decode {

template <typename ElementT, int kHeadDimT, int kRowTilesT>
struct DecodeTileConfig {
  using Element = ElementT;
  static constexpr int kHeadDim = kHeadDimT;
  static constexpr int kRowTiles = kRowTilesT;
  static_assert(kHeadDim == 64 || kHeadDim == 128, "head_dim 64 or 128");
  static_assert(kRowTiles == 1 || kRowTiles == 2 || kRowTiles == 4, "16, 32 or 64 rows");

  static constexpr int kWarps = 4;
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kRows = 16 * kRowTiles;
  static constexpr int kBlockKeys = 64;
  static constexpr int kKeySlices = kWarps / kRowTiles;       // warps per row tile
  static constexpr int kSliceKeys = kBlockKeys / kKeySlices;  // 16, 32 or 64 keys per warp
  static constexpr int kSliceKeyTiles = kSliceKeys / 8;       // n8 tiles of S per warp
  static constexpr int kHeadDimSteps = kHeadDim / 16;         // k16 steps of Q K^T
  static constexpr int kHeadDimTiles = kHeadDim / 8;          // n8 tiles of O

  // One key row of one head is kChunksPerRow 16-byte chunks; a block's K (or
  // V) is kBlockKeys rows, loaded by every thread kLoadsPerThread times.
  static constexpr int kChunksPerRow = kHeadDim * 2 / 16;
  static constexpr int kRowsPerPass = kThreads / kChunksPerRow;
  static constexpr int kLoadsPerThread = kBlockKeys / kRowsPerPass;
  static constexpr int kTileBytes = kBlockKeys * kHeadDim * 2;

  // Stages: 4 x 32 KiB at d = 128 (1 CTA per SM, up to 96 KiB of loads in
  // flight while one block is computed), 4 x 16 KiB at d = 64 (2 CTAs per SM).
  // Little's law asks ~14 KiB per SM (3 TB/s x ~0.6 us / 132 SMs); measured,
  // 2 stages instead of 4 cost only 7% where few CTAs run (decode/NOTES.md);
  // 5 at d = 128 (round 8) gained nothing at pages of 16 keys and lost 3-5%
  // on lone CTAs: page 16's loss is not bytes in flight.
  static constexpr int kStages = 4;
  static constexpr int kStageBytes = 2 * kTileBytes;  // K then V

  // Per-warp fp32 O for the cross-slice merge, rows padded by 8 floats so the
  // fragment stores of 8 rows spread over the banks.
  static constexpr int kMergeRowFloats = kHeadDim + 8;
  static constexpr int kMergeBytes = kWarps * 16 * kMergeRowFloats * 4;
  // Max and sum per warp row, then per packed row: the log2-sum-exp and four
  // floats of epilogue scratch.
  static constexpr int kRowStateBytes = (2 * kWarps * 16 + 5 * kRows) * 4;

  static constexpr std::size_t kSharedBytes =
      std::size_t{kStages} * kStageBytes + kMergeBytes + kRowStateBytes;
  // Paged kernels only, past kSharedBytes: a stage's block page numbers (up
  // to 4 ints) per stage, copied in with an earlier block (kv_cache_rows.cuh).
  static constexpr std::size_t kPageRingBytes = std::size_t{kStages} * 16;
};

}  // namespace tilesim::kernels::decode
