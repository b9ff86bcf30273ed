#pragma once
// Builds the programs of FlashAttention-2-class CTAs (flash, flash_decoding,
// stream_k_decode): a block of query rows streamed against a range of keys.
//
// Per chunk of K/V blocks, three steps on three units, serialized within the
// CTA as in FlashAttention-2 (other CTAs on the SM overlap them):
//   1. the tensor-core work of Q K^T and P V, at the profile's share of the
//      tensor-core peak (its instruction: mma.sync or wgmma);
//   2. the softmax exponentials on the special-function units;
//   3. the online-softmax bookkeeping on the CUDA cores: scale, running max,
//      row sums, the rescale of the output accumulator, causal masking.
// A profile whose softmax overlaps the GEMMs (FA3's warpgroup ping-pong) pays
// steps 2 and 3 only where they are longer than step 1.
// K and V loads (through L2, the blocks ahead in the profile's stages in
// flight) stream under all three, as FlashAttention-2 issues the next block's
// loads before the softmax; Q is read with the first chunk, after the CTA's
// fixed cost (the profile's cta_overhead).
// A chunk groups blocks so a CTA is a handful of steps; it is also the unit
// the L2 model tracks K and V in, so CTAs reading the same keys share them.

#include <cstdint>
#include <optional>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/flash_tile.hpp"

namespace tilesim::workloads {

// What one CTA, or one segment of a Stream-K CTA, computes: query rows of
// one sequence against keys [key_begin, key_end) of one KV head.
struct FlashWorkItem {
  std::int64_t kv_matrix = 0;     // (sequence, KV head): which K and V
  std::int64_t query_matrix = 0;  // which Q and O rows: (sequence, head), or
                                  // (sequence, KV head) when a GQA group is packed
  std::int64_t query_block = 0;   // block of query rows within the matrix
  std::int64_t rows = 0;          // real query rows, at most the tile's
  std::int64_t key_begin = 0;     // a multiple of the tile's key_rows
  std::int64_t key_end = 0;
  // Keys from here on are masked for some row (causal); key_end or more: none.
  std::int64_t unmasked_end = 0;
};

class FlashCtaProgramBuilder {
 public:
  // `chunk_blocks`: K/V blocks per L2-tracked chunk, the same for every CTA.
  // The SM's unit rates set how the chunk's loads spread over its steps.
  FlashCtaProgramBuilder(FlashTile tile, std::int64_t chunk_blocks, const hw::HardwareSpec& spec,
                         const hw::AttentionProfile& profile);

  const FlashTile& tile() const { return tile_; }
  // A segment labelled (query matrix, query block, key range) for traces.
  std::uint16_t begin_segment(gpu::CtaProgram& program, const FlashWorkItem& item) const;
  void add_main_loop(gpu::CtaProgram& program, std::uint16_t segment, const FlashWorkItem& item,
                     bool fills_pipeline) const;
  // Divides by the row sums and stores O in the input type.
  void add_output_store(gpu::CtaProgram& program, std::uint16_t segment,
                        const FlashWorkItem& item) const;
  // Stores the unnormalized fp32 O and the log-sum-exp of each row to
  // workspace slot `slot`, then raises `signal` if given.
  void add_partial_store(gpu::CtaProgram& program, std::uint16_t segment, const FlashWorkItem& item,
                         std::uint32_t slot, std::optional<std::uint32_t> signal) const;
  // Waits for `wait`, reads slots [first_slot, first_slot + slots) and merges
  // them into the accumulator (rescaled by their log-sum-exps).
  void add_partial_merge(gpu::CtaProgram& program, std::uint16_t segment, const FlashWorkItem& item,
                         std::uint32_t first_slot, std::uint32_t slots,
                         std::optional<gpu::FlagWait> wait) const;
  // Our split kernel's merge (kernels/attention/decode/decode_split_kernel.cu,
  // SplitEpilogue): after `wait` (the pair's other splits have stored their
  // partials), reads slots [0, slots) and merges them, `splits_in_flight`
  // splits' partials loaded per turn of its loop.
  void add_split_merge(gpu::CtaProgram& program, std::uint16_t segment, const FlashWorkItem& item,
                       std::uint32_t slots, int splits_in_flight, gpu::FlagWait wait) const;

 private:
  void add_chunk(gpu::CtaProgram& program, std::uint16_t segment, const FlashWorkItem& item,
                 std::int64_t block_begin, std::int64_t block_end, bool first) const;

  struct UnitRates {
    double tensor_flops_per_s;
    double sfu_ops_per_s;
    double fp32_flops_per_s;
  };

  FlashTile tile_;
  std::int64_t chunk_blocks_;
  UnitRates rates_;
  double kv_bytes_in_flight_;
  bool softmax_overlap_;
  // The softmax hides only under another resident CTA's GEMMs (FA2's
  // serialized warps), not within the CTA: a CTA alone on its SM runs it.
  bool softmax_hidden_by_other_cta_;
  // A work item's first block has no GEMM of its own in flight (our Hopper kernel).
  bool first_softmax_exposed_;
  // The softmax waits for the block's Q K^T, which waits for the last softmax.
  bool softmax_waits_for_scores_;
  double cta_overhead_s_;
  double cta_fixed_turns_;
  double masking_step_cost_;
  double l2_latency_s_;
};

// A split's partial result: fp32 O plus one fp32 log-sum-exp per row.
double flash_partial_bytes(const FlashTile& tile, std::int64_t rows);

}  // namespace tilesim::workloads
