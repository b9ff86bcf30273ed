#pragma once
// The tile of a flash-class kernel (its kernel traits): query rows per CTA,
// keys per K/V block, K/V blocks in shared memory, warps and registers, from
// the implementation's attention profile and the head dimension; and the CTA
// footprint.

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/data_type.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

struct FlashTile {
  int query_rows = 128;  // MMA rows per CTA (short query blocks are padded)
  int key_rows = 64;     // keys per K/V block
  int head_dim = 128;
  int warps = 4;
  int stages = 1;  // K/V blocks in shared memory
  int registers_per_thread = 255;
  hw::DataType dtype = hw::DataType::bf16;
  // When > 0, the shared memory the kernel allocates (our decode CTA: the K/V
  // stages and its cross-warp merge buffers; Q stays in registers); else Q
  // and the K/V stages.
  double shared_bytes = 0;
  // When > 0, the most K and V bytes per second one CTA streams: its warps
  // issue a block's loads and run the block's dependent compute chain in
  // turn, so a CTA alone on its SM cannot keep its stages full (our decode
  // CTA, kernels/attention/decode/NOTES.md).
  double max_stream_bytes_per_s = 0;
  // HBM transfer time per byte of K and V read, in bytes: 1 for a contiguous
  // cache; above 1 for our paged kernels, whose every page run (a KV head's
  // rows of one page) costs HBM the time of `decode_turn.page_hbm` bytes more.
  double hbm_bytes_per_kv_byte = 1;

  double kv_block_bytes() const;  // one K block plus one V block
  // K and V bytes a CTA has in flight, in HBM-time bytes: the blocks ahead of
  // the one in use (FlashAttention-2, one stage, issues the next block's loads
  // early).
  double kv_bytes_in_flight() const;
  gpu::CtaFootprint footprint() const;
};

// Prefill (`flash`): the profile's tile at this head dimension.
FlashTile flash_tile(const hw::AttentionProfile& profile, int head_dim, hw::DataType dtype);
// Split-KV decode (run_mha_fwd_splitkv_dispatch): 64 query rows; 256 keys for
// head_dim <= 64, 128 up to 128, else 64; 4 warps.
FlashTile decode_flash_tile(int head_dim, hw::DataType dtype);
// Our decode CTA (kernels/attention/decode/decode_tile_config.cuh), which every
// decode variant of `kernel: tilesim_ref` runs: the packed GQA rows in 16-row
// mma tiles (1, 2 or 4), 64-key blocks through 4 cp.async stages, 4 warps.
// Its geometry alone (what the partition plans need):
FlashTile own_decode_flash_tile(const AttentionShape& shape);
// With the rate one such CTA streams at alone on its SM: the profile's
// `decode_turn` per block. `paged`: the paged kernels read the same way (each
// block's page numbers are loaded one block ahead, under the compute of the
// block before), but each page a block starts costs it a wait.
FlashTile own_decode_flash_tile(const AttentionShape& shape, bool paged,
                                const hw::DecodeTurn& turn);
// The profile a decode CTA is built with: ours (a profile that runs the
// variant as written) without the profile's cta_overhead, which is the
// prefill CTA's; our decode CTA's fixed work (Q load, pipeline fill, slice
// merge, epilogue) is simulated step by step. Attention calibration 3's rows
// of many short decode CTAs (6 blocks each, 9.7 waves) came out 22% slow with it.
hw::AttentionProfile decode_cta_profile(const hw::AttentionProfile& profile);
// The decode tile of an implementation: ours when the profile runs the variant
// as written (our kernels), else FlashAttention-2's split-KV tile.
FlashTile decode_flash_tile(const hw::AttentionProfile& profile, const AttentionShape& shape);

}  // namespace tilesim::workloads
