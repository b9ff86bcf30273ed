#include "workloads/attention/flash_tile.hpp"

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

// Q, one K and one V block in shared memory (FlashAttention-2 does not
// multi-buffer K/V; it issues the next block's load before the softmax).
gpu::CtaFootprint FlashTile::footprint() const {
  const double bytes = (query_rows + 2.0 * key_rows) * head_dim * hw::bytes_per_element(dtype);
  return {warps * kThreadsPerWarp, registers_per_thread, bytes};
}

FlashTile prefill_flash_tile(int head_dim, hw::DataType dtype) {
  FlashTile tile;
  tile.key_rows = head_dim <= 64 ? 128 : 64;
  tile.warps = head_dim <= 128 ? 4 : 8;
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
