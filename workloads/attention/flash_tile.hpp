#pragma once
// The tile of a flash-class kernel (its kernel traits): query rows per CTA,
// keys per K/V block, K/V blocks in shared memory, warps and registers, from
// the implementation's attention profile and the head dimension; and the CTA
// footprint.

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/data_type.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::workloads {

struct FlashTile {
  int query_rows = 128;  // MMA rows per CTA (short query blocks are padded)
  int key_rows = 64;     // keys per K/V block
  int head_dim = 128;
  int warps = 4;
  int stages = 1;  // K/V blocks in shared memory
  int registers_per_thread = 255;
  hw::DataType dtype = hw::DataType::bf16;

  double kv_block_bytes() const;  // one K block plus one V block
  // K and V bytes a CTA has in flight: the blocks ahead of the one in use
  // (FlashAttention-2, one stage, issues the next block's loads early).
  double kv_bytes_in_flight() const;
  gpu::CtaFootprint footprint() const;
};

// Prefill (`flash`): the profile's tile at this head dimension.
FlashTile flash_tile(const hw::AttentionProfile& profile, int head_dim, hw::DataType dtype);
// Split-KV decode (run_mha_fwd_splitkv_dispatch): 64 query rows; 256 keys for
// head_dim <= 64, 128 up to 128, else 64; 4 warps.
FlashTile decode_flash_tile(int head_dim, hw::DataType dtype);

}  // namespace tilesim::workloads
