#include "workloads/attention/stream_k_decode_attention.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/decode_packing.hpp"
#include "workloads/attention/decode_queue_drain.hpp"
#include "workloads/attention/flash_cta_program.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

FlashTile decode_tile(const AttentionShape& shape) {
  return decode_flash_tile(static_cast<int>(shape.head_dim), shape.dtype);
}

class StreamKDecodePrograms final : public gpu::CtaProgramSource {
 public:
  StreamKDecodePrograms(const AttentionShape& shape, FlashTile tile, std::int64_t persistent_ctas,
                        const hw::HardwareSpec& spec, const hw::AttentionProfile& profile)
      : shape_(shape),
        builder_(tile, key_chunk_blocks(shape, tile.key_rows), spec, decode_cta_profile(profile)) {
    // pair_begin_[p]: the first block of pair p in the global block order.
    pair_begin_.push_back(0);
    for (const std::int64_t kv_len : shape.kv_lens) {
      for (std::int64_t head = 0; head < shape.kv_heads; ++head) {
        pair_begin_.push_back(pair_begin_.back() + ceil_div(kv_len, tile.key_rows));
      }
    }
    cta_count_ = std::clamp<std::int64_t>(total_blocks(), 1, persistent_ctas);
  }

  std::int64_t cta_count() const { return cta_count_; }
  std::int64_t total_blocks() const { return pair_begin_.back(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    const std::int64_t end = first_block(cta_index + 1);
    for (std::int64_t block = first_block(cta_index); block < end;) {
      const auto pair = static_cast<std::int64_t>(
          std::upper_bound(pair_begin_.begin(), pair_begin_.end(), block) - pair_begin_.begin() -
          1);
      const std::int64_t pair_begin = pair_begin_[static_cast<std::size_t>(pair)];
      const std::int64_t pair_end = pair_begin_[static_cast<std::size_t>(pair) + 1];
      const std::int64_t segment_end = std::min(end, pair_end);
      add_segment(program, cta_index, pair, block - pair_begin, segment_end - pair_begin,
                  pair_begin, pair_end);
      block = segment_end;
    }
    return program;
  }

 private:
  std::int64_t first_block(std::int64_t cta) const { return cta * total_blocks() / cta_count_; }
  // The CTA whose range holds global block `block`.
  std::int64_t cta_of(std::int64_t block) const {
    return ((block + 1) * cta_count_ - 1) / total_blocks();
  }

  // Blocks [begin, end) of pair `pair`, which spans global blocks [pair_begin, pair_end).
  void add_segment(gpu::CtaProgram& program, std::int64_t cta, std::int64_t pair,
                   std::int64_t begin, std::int64_t end, std::int64_t pair_begin,
                   std::int64_t pair_end) const {
    const std::int64_t kv_len = shape_.kv_lens[static_cast<std::size_t>(pair / shape_.kv_heads)];
    const std::int64_t block_keys = builder_.tile().key_rows;
    FlashWorkItem item;
    item.kv_matrix = pair;
    item.query_matrix = pair;
    item.rows = packed_query_rows(shape_);
    item.key_begin = begin * block_keys;
    item.key_end = std::min(kv_len, end * block_keys);
    item.unmasked_end = shape_.visible_keys(kv_len, 0);
    const std::uint16_t segment = builder_.begin_segment(program, item);
    builder_.add_main_loop(program, segment, item, program.steps.empty());

    const std::int64_t owner = cta_of(pair_begin);
    const std::int64_t peers = cta_of(pair_end - 1) - owner;
    const auto flag = static_cast<std::uint32_t>(pair);
    if (cta != owner) {
      builder_.add_partial_store(program, segment, item, static_cast<std::uint32_t>(cta - owner),
                                 flag);
      return;
    }
    if (peers > 0) {
      builder_.add_partial_merge(program, segment, item, 1, static_cast<std::uint32_t>(peers),
                                 gpu::FlagWait{flag, peers});
    }
    builder_.add_output_store(program, segment, item);
  }

  AttentionShape shape_;
  FlashCtaProgramBuilder builder_;
  std::vector<std::int64_t> pair_begin_;
  std::int64_t cta_count_ = 1;
};

}  // namespace

std::string StreamKDecodeAttention::unsupported_reason(const AttentionWorkload& workload,
                                                       const hw::HardwareSpec& /*spec*/) const {
  return packed_rows_problem(workload.shape, decode_tile(workload.shape));
}

AttentionLowering StreamKDecodeAttention::lower(const AttentionWorkload& workload,
                                                const hw::HardwareSpec& spec,
                                                const AttentionKernel& kernel) const {
  const FlashTile tile = decode_flash_tile(kernel.profile, workload.shape);
  const std::int64_t persistent_ctas =
      std::int64_t{spec.sm.count} * gpu::BlockScheduler(spec.sm).ctas_per_sm(tile.footprint());
  auto programs = std::make_shared<StreamKDecodePrograms>(workload.shape, tile, persistent_ctas,
                                                          spec, kernel.profile);
  double overhead_s = kernel.profile.kernel_overhead_s;
  if (kernel.profile.decode == hw::AttentionDecode::as_written) {
    // Ours: the persistent wave's HBM queue drains after the fluid share.
    overhead_s += own_decode_queue_drain_s(
        tile, programs->cta_count(),
        static_cast<double>(programs->total_blocks()) / static_cast<double>(programs->cta_count()),
        spec);
  }
  AttentionLowering lowering;
  lowering.kernels.push_back(attention_kernel_launch(
      workload.name + ".stream_k_decode", programs->cta_count(), tile.footprint(),
      kernel.profile.tensor_efficiency, overhead_s, kernel.profile.ramp_and_drain_s, programs));
  lowering.description = fmt::format("stream_k_decode:ctas={}", programs->cta_count());
  return lowering;
}

}  // namespace tilesim::workloads
