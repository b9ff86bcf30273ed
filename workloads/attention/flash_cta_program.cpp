#include "workloads/attention/flash_cta_program.hpp"

#include <algorithm>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/attention/attention_tensors.hpp"

namespace tilesim::workloads {
namespace {

constexpr double kFp32Bytes = 4;
// CUDA-core work is counted in flops of the fp32 rate, where one instruction
// per lane costs 2 (the rate counts an FMA as 2 flops).
constexpr double kFlopsPerInstruction = 2;
// Per score: running max (FMNMX), before the exponentials; scale-and-subtract-max
// (FFMA) and row sum (FADD), with them.
constexpr double kMaxInstructionsPerScore = 1;
constexpr double kSoftmaxInstructionsPerScore = kMaxInstructionsPerScore + 2;
// Keys per k-step of an mma.sync P V (m16n8k16).
constexpr double kMmaK = 16;
// Per score of a block the causal diagonal crosses: the select that masks it.
constexpr double kMaskInstructionsPerScore = 1;
// Merging partials: the CTA's threads with four 16-byte loads each in flight.
constexpr double kMergeBytesInFlight = 4.0 * 16 * 128;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

FlashCtaProgramBuilder::FlashCtaProgramBuilder(FlashTile tile, std::int64_t chunk_blocks,
                                               const hw::HardwareSpec& spec,
                                               const hw::AttentionProfile& profile)
    : tile_(tile),
      chunk_blocks_(std::max<std::int64_t>(1, chunk_blocks)),
      rates_{spec.sm_mma_flops_per_s(tile.dtype) * profile.tensor_efficiency, spec.sm.sfu_ops_per_s,
             spec.sm.fp32_flops_per_s},
      // A CTA that streams no faster than its loop turns has, by Little's law,
      // that rate times an HBM round trip in flight.
      kv_bytes_in_flight_(tile.max_stream_bytes_per_s > 0
                              ? std::min(tile.kv_bytes_in_flight(),
                                         tile.max_stream_bytes_per_s * spec.hbm.latency_s)
                              : tile.kv_bytes_in_flight()),
      // FA3's ping-pong hides the softmax within the CTA; FA2's serialized
      // warps hide it only under another resident CTA's GEMMs, which run at any
      // phase of this CTA's loop, not only when the CTAs' lengths differ.
      softmax_overlap_(profile.softmax_overlap ||
                       gpu::BlockScheduler(spec.sm).ctas_per_sm(tile.footprint()) > 1),
      softmax_hidden_by_other_cta_(!profile.softmax_overlap && softmax_overlap_),
      first_softmax_exposed_(profile.softmax_overlap && profile.first_block_softmax_exposed),
      softmax_waits_for_scores_(profile.softmax_overlap && profile.softmax_waits_for_scores),
      cta_overhead_s_(profile.cta_overhead_s),
      cta_fixed_turns_(profile.cta_fixed_turns),
      masking_step_cost_(profile.masking_step_cost),
      l2_latency_s_(spec.l2.latency_s) {}

double flash_partial_bytes(const FlashTile& tile, std::int64_t rows) {
  return static_cast<double>(rows) * (tile.head_dim + 1) * kFp32Bytes;
}

std::uint16_t FlashCtaProgramBuilder::begin_segment(gpu::CtaProgram& program,
                                                    const FlashWorkItem& item) const {
  program.segments.push_back({item.query_matrix, item.query_block, item.key_begin, item.key_end});
  return static_cast<std::uint16_t>(program.segments.size() - 1);
}

void FlashCtaProgramBuilder::add_main_loop(gpu::CtaProgram& program, std::uint16_t segment,
                                           const FlashWorkItem& item, bool fills_pipeline) const {
  const std::int64_t first_block = item.key_begin / tile_.key_rows;
  const std::int64_t end_block = ceil_div(item.key_end, tile_.key_rows);
  for (std::int64_t begin = first_block; begin < end_block;) {
    const std::int64_t end = std::min(end_block, (begin / chunk_blocks_ + 1) * chunk_blocks_);
    add_chunk(program, segment, item, begin, end, fills_pipeline && begin == first_block);
    begin = end;
  }
}

void FlashCtaProgramBuilder::add_chunk(gpu::CtaProgram& program, std::uint16_t segment,
                                       const FlashWorkItem& item, std::int64_t block_begin,
                                       std::int64_t block_end, bool first) const {
  const double element_bytes = hw::bytes_per_element(tile_.dtype);
  const double rows = tile_.query_rows;  // MMAs and softmax run on the padded tile
  const double d = tile_.head_dim;
  const auto blocks = static_cast<double>(block_end - block_begin);
  const double scores = rows * tile_.key_rows * blocks;

  gpu::CtaStep mma;
  mma.unit = gpu::ExecutionUnit::tensor;
  mma.mma_type = tile_.dtype;
  mma.flops = 4 * scores * d;  // Q K^T and P V
  // The CTA's fixed work (prologue, epilogue) takes the SM's time as its
  // turns do: counted with its first chunk, in GEMM time.
  if (first) mma.flops += cta_fixed_turns_ * 4 * rows * tile_.key_rows * d;
  gpu::CtaStep exponentials;
  exponentials.unit = gpu::ExecutionUnit::sfu;
  exponentials.flops = scores + rows * blocks;  // exp of each score, and of each max change
  const std::int64_t masked_from = std::max(item.unmasked_end, block_begin * tile_.key_rows);
  const double masked_blocks = static_cast<double>(
      std::max<std::int64_t>(0, block_end - std::max(block_begin, masked_from / tile_.key_rows)));
  // A masking step's warps stall on instruction fetch (ncu: "no instruction"),
  // which the SM's other CTA does not hide: the step holds the SM for
  // masking_step_cost of its GEMMs' time.
  mma.flops += (masking_step_cost_ - 1) * 4 * rows * tile_.key_rows * d * masked_blocks;
  gpu::CtaStep bookkeeping;
  bookkeeping.unit = gpu::ExecutionUnit::fp32;
  bookkeeping.flops = kFlopsPerInstruction *
                      (kSoftmaxInstructionsPerScore * scores + rows * d * blocks +  // rescale of O
                       kMaskInstructionsPerScore * rows * tile_.key_rows * masked_blocks);

  if (softmax_overlap_) {
    // The softmax runs under other warps' GEMMs (the other warpgroup, or
    // another CTA on the SM): what is left is the part longer than the GEMMs.
    const double mma_s = mma.flops / rates_.tensor_flops_per_s;
    const double softmax_s =
        exponentials.flops / rates_.sfu_ops_per_s + bookkeeping.flops / rates_.fp32_flops_per_s;
    // Waiting for its scores, the softmax runs after the block's Q K^T (half
    // of the GEMMs' flops) and only P V can hide it.
    const double scores_s = 2 * scores * d / rates_.tensor_flops_per_s;
    const double chain_s = softmax_waits_for_scores_ ? scores_s + softmax_s : softmax_s;
    double exposed = chain_s > mma_s ? std::min(1.0, (chain_s - mma_s) / softmax_s) : 0.0;
    // A work item's first block: S alone, then its softmax, with no GEMM of
    // its warpgroup in flight (flash_forward_wgmma_kernel.cuh, "Block 0"), so
    // that block's softmax is not hidden; its share of the chunk's softmax.
    if (first && first_softmax_exposed_) exposed += (1 - exposed) / blocks;
    if (softmax_hidden_by_other_cta_) {
      // While no other CTA's GEMMs fill its SM (the other slot in its
      // prologue, or empty at the launch's end), a CTA's turn costs its GEMMs
      // plus what its own P V cannot cover (flash_forward_kernel.cuh,
      // attend_block): the mask, row max and O rescale come before the first
      // P V MMA; the exponentials (with their scale and sum) of each of P V's
      // k-steps but the first run under the MMAs of the steps before it.
      const double before_pv_s =
          kFlopsPerInstruction *
          (kMaxInstructionsPerScore * scores + rows * d * blocks +
           kMaskInstructionsPerScore * rows * tile_.key_rows * masked_blocks) /
          rates_.fp32_flops_per_s;
      const double pv_k_steps = static_cast<double>(tile_.key_rows) / kMmaK;
      const double alone_s = before_pv_s + (softmax_s - before_pv_s) / pv_k_steps;
      mma.min_duration_s = mma_s + std::max(0.0, alone_s - exposed * softmax_s);
    }
    exponentials.flops *= exposed;
    bookkeeping.flops *= exposed;
  }
  // The next blocks' K and V loads are in flight through all three phases
  // (FlashAttention-2 issues them before the softmax), so the chunk's keys are
  // spread over the steps by each step's share of the compute time.
  const double busy[] = {mma.flops / rates_.tensor_flops_per_s,
                         exponentials.flops / rates_.sfu_ops_per_s,
                         bookkeeping.flops / rates_.fp32_flops_per_s};
  const double total_busy = busy[0] + busy[1] + busy[2];
  const std::int64_t key_begin = block_begin * tile_.key_rows;
  const std::int64_t keys = std::min(item.key_end, block_end * tile_.key_rows) - key_begin;
  const auto chunk = static_cast<std::uint32_t>(block_begin / chunk_blocks_);
  gpu::CtaStep* steps[] = {&mma, &exponentials, &bookkeeping};
  double busy_before = 0;
  for (int i = 0; i < 3; ++i) {
    const std::int64_t part_begin =
        key_begin + static_cast<std::int64_t>(static_cast<double>(keys) * busy_before / total_busy);
    busy_before += busy[i];
    const std::int64_t part_end =
        i == 2 ? key_begin + keys
               : key_begin + static_cast<std::int64_t>(static_cast<double>(keys) * busy_before /
                                                       total_busy);
    gpu::CtaStep& step = *steps[i];
    if (part_end > part_begin) {
      const double bytes = static_cast<double>(part_end - part_begin) * d * element_bytes *
                           tile_.hbm_bytes_per_kv_byte;
      step.reads = {
          {{attention_tensor_id(AttentionArray::key, item.kv_matrix), 0, chunk},
           bytes,
           1,
           part_begin,
           part_end},
          {{attention_tensor_id(AttentionArray::value, item.kv_matrix), 0, chunk},
           bytes,
           1,
           part_begin,
           part_end},
      };
    }
    step.bytes_in_flight = kv_bytes_in_flight_;
    step.segment = segment;
  }
  if (first) {
    mma.reads.push_back({{attention_tensor_id(AttentionArray::query, item.query_matrix),
                          static_cast<std::uint32_t>(item.query_block), 0},
                         static_cast<double>(item.rows) * d * element_bytes,
                         1,
                         0,
                         1});
    mma.first_data_waits = 1;
    mma.setup_s = cta_overhead_s_;
  }
  for (gpu::CtaStep* step : steps) program.steps.push_back(std::move(*step));
}

void FlashCtaProgramBuilder::add_output_store(gpu::CtaProgram& program, std::uint16_t segment,
                                              const FlashWorkItem& item) const {
  gpu::CtaStep store;
  store.unit = gpu::ExecutionUnit::fp32;
  store.flops = kFlopsPerInstruction * tile_.query_rows * tile_.head_dim;
  store.write_bytes =
      static_cast<double>(item.rows) * tile_.head_dim * hw::bytes_per_element(tile_.dtype);
  store.segment = segment;
  program.steps.push_back(store);
}

void FlashCtaProgramBuilder::add_partial_store(gpu::CtaProgram& program, std::uint16_t segment,
                                               const FlashWorkItem& item, std::uint32_t slot,
                                               std::optional<std::uint32_t> signal) const {
  gpu::CtaStep store;
  store.write_bytes = flash_partial_bytes(tile_, item.rows);
  store.write_key = gpu::BlockKey{attention_tensor_id(AttentionArray::partial, item.query_matrix),
                                  static_cast<std::uint32_t>(item.query_block), slot};
  store.signal = signal;
  store.segment = segment;
  program.steps.push_back(store);
}

void FlashCtaProgramBuilder::add_partial_merge(gpu::CtaProgram& program, std::uint16_t segment,
                                               const FlashWorkItem& item, std::uint32_t first_slot,
                                               std::uint32_t slots,
                                               std::optional<gpu::FlagWait> wait) const {
  gpu::CtaStep merge;
  const double bytes = flash_partial_bytes(tile_, item.rows);
  for (std::uint32_t slot = first_slot; slot < first_slot + slots; ++slot) {
    merge.reads.push_back({{attention_tensor_id(AttentionArray::partial, item.query_matrix),
                            static_cast<std::uint32_t>(item.query_block), slot},
                           bytes,
                           1,
                           0,
                           1});
  }
  // The partials are independent loads: the CTA's threads have several each
  // in flight, as an elementwise kernel does.
  merge.bytes_in_flight = std::min(bytes * slots, kMergeBytesInFlight);
  // Rescale-and-add of each partial O; the few exps of the log-sum-exps are
  // left out.
  merge.unit = gpu::ExecutionUnit::fp32;
  merge.flops = kFlopsPerInstruction * slots * static_cast<double>(item.rows) * tile_.head_dim;
  merge.wait = wait;
  // One thread takes the peers' flags one after another (an acquire load
  // each), then every thread's merge loop loads a peer's partial per turn and
  // uses it at once: two L2 round trips per peer, in turn
  // (kernels/attention/decode/stream_k_decode.cu, StreamKEpilogue).
  if (wait) merge.setup_s = 2 * static_cast<double>(slots) * l2_latency_s_;
  merge.segment = segment;
  program.steps.push_back(std::move(merge));
}

void FlashCtaProgramBuilder::add_split_merge(gpu::CtaProgram& program, std::uint16_t segment,
                                             const FlashWorkItem& item, std::uint32_t slots,
                                             int splits_in_flight, gpu::FlagWait wait) const {
  gpu::CtaStep merge;
  const double bytes = flash_partial_bytes(tile_, item.rows);
  for (std::uint32_t slot = 0; slot < slots; ++slot) {
    merge.reads.push_back({{attention_tensor_id(AttentionArray::partial, item.query_matrix),
                            static_cast<std::uint32_t>(item.query_block), slot},
                           bytes,
                           1,
                           0,
                           1});
  }
  // Each thread loads a float4 of splits_in_flight splits' partials, then adds them.
  merge.bytes_in_flight =
      std::min(bytes * slots, 16.0 * tile_.warps * 32 * static_cast<double>(splits_in_flight));
  merge.unit = gpu::ExecutionUnit::fp32;
  merge.flops = kFlopsPerInstruction * slots * static_cast<double>(item.rows) * tile_.head_dim;
  merge.wait = wait;
  // Every CTA pays the arrival's round trip (fence, atomic) whether or not it
  // is last; the merger then one L2 round trip per turn of its loop.
  merge.setup_s = static_cast<double>(1 + ceil_div(slots, splits_in_flight)) * l2_latency_s_;
  merge.segment = segment;
  program.steps.push_back(std::move(merge));
}

}  // namespace tilesim::workloads
