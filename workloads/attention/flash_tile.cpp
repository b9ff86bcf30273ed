#include "workloads/attention/flash_tile.hpp"

#include <algorithm>

namespace tilesim::workloads {
namespace {
constexpr int kThreadsPerWarp = 32;
// Decode tiles keep fewer accumulators per thread than prefill's 128-row tile
// (estimate from FlashAttention-2's split-KV kernel).
constexpr int kDecodeRegistersPerThread = 168;
}  // namespace

double FlashTile::kv_block_bytes() const {
  return 2.0 * key_rows * head_dim * hw::bytes_per_element(dtype);
}

double FlashTile::kv_bytes_in_flight() const {
  return kv_block_bytes() * std::max(1, stages - 1);
}

// Q and `stages` K and V blocks in shared memory.
gpu::CtaFootprint FlashTile::footprint() const {
  const double bytes =
      (query_rows + 2.0 * stages * key_rows) * head_dim * hw::bytes_per_element(dtype);
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

}  // namespace tilesim::workloads
