#pragma once
// The tile of a FlashAttention-2-class kernel (its kernel traits): query rows
// per CTA, keys per K/V block, warps and registers, chosen from the head
// dimension as FlashAttention-2 does on sm80/sm90; and the CTA footprint.

#include "hwmodels/data_type.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::workloads {

struct FlashTile {
  int query_rows = 128;  // MMA rows per CTA (short query blocks are padded)
  int key_rows = 64;     // keys per K/V block
  int head_dim = 128;
  int warps = 4;
  int registers_per_thread = 255;
  hw::DataType dtype = hw::DataType::bf16;

  double kv_block_bytes() const;  // one K block plus one V block
  gpu::CtaFootprint footprint() const;
};

// Prefill (`flash`): 128 query rows; 128 keys for head_dim <= 64, else 64;
// 8 warps above head_dim 128 (FlashAttention-2's run_mha_fwd_hdim* traits).
FlashTile prefill_flash_tile(int head_dim, hw::DataType dtype);
// Split-KV decode (run_mha_fwd_splitkv_dispatch): 64 query rows; 256 keys for
// head_dim <= 64, 128 up to 128, else 64; 4 warps.
FlashTile decode_flash_tile(int head_dim, hw::DataType dtype);

}  // namespace tilesim::workloads
