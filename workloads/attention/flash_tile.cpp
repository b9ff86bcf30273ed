#include "workloads/attention/flash_tile.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::workloads {
namespace {
constexpr int kThreadsPerWarp = 32;
// Decode tiles keep fewer accumulators per thread than prefill's 128-row tile
// (estimate from FlashAttention-2's split-KV kernel).
constexpr int kDecodeRegistersPerThread = 168;

// Our decode CTA (kernels/attention/decode/decode_tile_config.cuh).
constexpr int kOwnDecodeRowTileRows = 16;  // kRows = 16 x kRowTiles
constexpr int kOwnDecodeBlockKeys = 64;    // kBlockKeys
constexpr int kOwnDecodeStages = 4;        // kStages
constexpr int kOwnDecodeWarps = 4;         // kWarps
// ptxas: 114 to 246 registers for 1 to 4 row tiles (decode/NOTES.md); the
// largest, which still fits two CTAs per SM at head_dim 64.
constexpr int kOwnDecodeRegistersPerThread = 246;
// decode_turn.page_hbm is stated for rows of this many bytes (head_dim 128, 16-bit).
constexpr double kPageHbmRowBytes = 256;
// Merge rows padded by 8 floats (kMergeRowFloats).
constexpr int kOwnDecodeMergePadFloats = 8;

int own_decode_row_tiles(std::int64_t packed_rows) {
  const auto tiles = (packed_rows + kOwnDecodeRowTileRows - 1) / kOwnDecodeRowTileRows;
  return tiles <= 1 ? 1 : (tiles <= 2 ? 2 : 4);
}
}  // namespace

double FlashTile::kv_block_bytes() const {
  return 2.0 * key_rows * head_dim * hw::bytes_per_element(dtype);
}

double FlashTile::kv_bytes_in_flight() const {
  return kv_block_bytes() * hbm_bytes_per_kv_byte * std::max(1, stages - 1);
}

// Q and `stages` K and V blocks in shared memory, unless the kernel's own count is known.
gpu::CtaFootprint FlashTile::footprint() const {
  const double bytes = shared_bytes > 0 ? shared_bytes
                                        : (query_rows + 2.0 * stages * key_rows) * head_dim *
                                              hw::bytes_per_element(dtype);
  return {warps * kThreadsPerWarp, registers_per_thread, bytes};
}

FlashTile flash_tile(const hw::AttentionProfile& profile, int head_dim, hw::DataType dtype) {
  FlashTile tile;
  tile.query_rows = profile.query_rows;
  tile.key_rows = head_dim <= 64 ? profile.key_rows_d64 : profile.key_rows_d128;
  tile.warps = profile.warps;
  tile.stages = profile.stages;
  tile.registers_per_thread = profile.registers_per_thread;
  tile.head_dim = head_dim;
  tile.dtype = dtype;
  return tile;
}

FlashTile decode_flash_tile(int head_dim, hw::DataType dtype) {
  FlashTile tile;
  tile.query_rows = 64;
  tile.key_rows = head_dim <= 64 ? 256 : (head_dim <= 128 ? 128 : 64);
  tile.registers_per_thread = kDecodeRegistersPerThread;
  tile.head_dim = head_dim;
  tile.dtype = dtype;
  return tile;
}

FlashTile own_decode_flash_tile(const AttentionShape& shape) {
  const int row_tiles = own_decode_row_tiles(shape.group_size() * shape.q_len);
  FlashTile tile;
  tile.query_rows = kOwnDecodeRowTileRows * row_tiles;
  tile.key_rows = kOwnDecodeBlockKeys;
  tile.warps = kOwnDecodeWarps;
  tile.stages = kOwnDecodeStages;
  tile.registers_per_thread = kOwnDecodeRegistersPerThread;
  tile.head_dim = static_cast<int>(shape.head_dim);
  tile.dtype = shape.dtype;
  // kSharedBytes: the stages, a 16-row fp32 O per warp for the merge, and the
  // row state (max and sum per warp row, five floats per packed row).
  const double merge_bytes =
      kOwnDecodeWarps * kOwnDecodeRowTileRows * (tile.head_dim + kOwnDecodeMergePadFloats) * 4.0;
  const double row_state_bytes =
      (2.0 * kOwnDecodeWarps * kOwnDecodeRowTileRows + 5.0 * tile.query_rows) * 4;
  tile.shared_bytes = tile.stages * tile.kv_block_bytes() + merge_bytes + row_state_bytes;
  return tile;
}

FlashTile own_decode_flash_tile(const AttentionShape& shape, bool paged,
                                const hw::DecodeTurn& turn) {
  FlashTile tile = own_decode_flash_tile(shape);
  if (turn.load_issue_bytes_per_s <= 0) return tile;
  // One block per turn of the loop, alone on its SM: a fixed part (the
  // barrier, the pipeline's wait, the softmax's dependent steps), its loads
  // issued, and each warp's HMMAs: head_dim x key slice / 64 of them, where
  // the 4 warps cut the block's 64 keys into 4 / row_tiles slices.
  const double warp_hmmas =
      static_cast<double>(tile.head_dim) * static_cast<double>(tile.query_rows) / 64.0;
  // A paged block also runs its own address path (the block's page numbers,
  // loaded a block ahead, turned into one base offset per page: a little at
  // every page size, ncu round 6) and waits a little on each page it starts.
  const double pages_per_block =
      paged ? static_cast<double>(kOwnDecodeBlockKeys) / static_cast<double>(shape.page_size) : 0;
  const double turn_s = turn.fixed_s + tile.kv_block_bytes() / turn.load_issue_bytes_per_s +
                        warp_hmmas * turn.per_hmma_s + (paged ? turn.per_paged_block_s : 0) +
                        pages_per_block * turn.per_page_s;
  // Under shared HBM a page run costs more than its bytes: page_hbm_bytes for
  // rows of 256 bytes (head_dim 128, 16-bit), scaled by the square of the
  // row's bytes: the one head_dim 64 row measured (round 5 A/B, page 16) pays a
  // quarter of head_dim 128's per run, an empirical form, not a derived one.
  // The reads carry that cost, and the lone turn's rate is in the same units.
  if (paged) {
    const double row_bytes = tile.head_dim * hw::bytes_per_element(shape.dtype);
    const double page_run_bytes = static_cast<double>(shape.page_size) * row_bytes;
    tile.hbm_bytes_per_kv_byte =
        1 + turn.page_hbm_bytes * std::pow(row_bytes / kPageHbmRowBytes, 2) / page_run_bytes;
  }
  tile.max_stream_bytes_per_s = tile.kv_block_bytes() * tile.hbm_bytes_per_kv_byte / turn_s;
  return tile;
}

hw::AttentionProfile decode_cta_profile(const hw::AttentionProfile& profile) {
  hw::AttentionProfile decode = profile;
  if (profile.decode == hw::AttentionDecode::as_written) {
    decode.cta_overhead_s = 0;
    decode.cta_fixed_turns = 0;
  }
  return decode;
}

FlashTile decode_flash_tile(const hw::AttentionProfile& profile, const AttentionShape& shape) {
  if (profile.decode == hw::AttentionDecode::as_written) {
    return own_decode_flash_tile(shape, false, profile.decode_turn);
  }
  return decode_flash_tile(static_cast<int>(shape.head_dim), shape.dtype);
}

}  // namespace tilesim::workloads
