#include "workloads/attention/flash_attention.hpp"

#include <algorithm>
#include <utility>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/flash_cta_program.hpp"

namespace tilesim::workloads {
namespace {

class FlashPrograms final : public gpu::CtaProgramSource {
 public:
  FlashPrograms(const AttentionShape& shape, FlashTile tile, const hw::HardwareSpec& spec,
                const hw::AttentionProfile& profile)
      : shape_(shape),
        builder_(tile, key_chunk_blocks(shape, tile.key_rows), spec, profile),
        query_blocks_((shape.q_len + tile.query_rows - 1) / tile.query_rows),
        order_(profile.causal_order),
        masking_steps_(shape.causal && profile.masking_step_cost > 1 ? masking_steps(shape, tile)
                                                                     : 0) {}

  std::int64_t cta_count() const {
    return query_blocks_ * shape_.heads * static_cast<std::int64_t>(shape_.kv_lens.size());
  }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t per_sequence = query_blocks_ * shape_.heads;
    const std::int64_t sequence = cta_index / per_sequence;
    const auto [query_block, head] = block_of(cta_index % per_sequence);
    const std::int64_t query_matrix = sequence * shape_.heads + head;
    const std::int64_t kv_len = shape_.kv_lens[static_cast<std::size_t>(sequence)];
    const std::int64_t first_row = query_block * builder_.tile().query_rows;
    const std::int64_t rows =
        std::min<std::int64_t>(builder_.tile().query_rows, shape_.q_len - first_row);
    FlashWorkItem item;
    item.kv_matrix = sequence * shape_.kv_heads + head / shape_.group_size();
    item.query_matrix = query_matrix;
    item.query_block = query_block;
    item.rows = rows;
    item.key_end = shape_.visible_keys(kv_len, first_row + rows - 1);
    item.unmasked_end = masking_steps_ > 0 ? masking_steps_begin(item.key_end)
                                           : shape_.visible_keys(kv_len, first_row);

    gpu::CtaProgram program;
    const std::uint16_t segment = builder_.begin_segment(program, item);
    builder_.add_main_loop(program, segment, item, true);
    builder_.add_output_store(program, segment, item);
    return program;
  }

 private:
  // (query block, head) of a CTA's index within its sequence (kernels/attention/
  // flash_block_order.cuh for the heaviest-first order).
  std::pair<std::int64_t, std::int64_t> block_of(std::int64_t linear) const {
    if (!shape_.causal || order_ == hw::CausalBlockOrder::ascending) {
      return {linear % query_blocks_, linear / query_blocks_};
    }
    const std::int64_t group = linear / (kHeadGroup * query_blocks_);
    const std::int64_t in_group = linear % (kHeadGroup * query_blocks_);
    const std::int64_t group_heads = std::min(kHeadGroup, shape_.heads - group * kHeadGroup);
    return {query_blocks_ - 1 - in_group / group_heads,
            group * kHeadGroup + in_group % group_heads};
  }

  // FlashAttention-2's n_masking_steps (flash_fwd_kernel.h): a causal CTA runs
  // its last ceil(kBlockM / kBlockN) key blocks through the masked loop, one
  // more when Is_even_MN is false (flash_fwd_launch_template.h: q_len not a
  // multiple of kBlockM or kv_len of kBlockN).
  static std::int64_t masking_steps(const AttentionShape& shape, const FlashTile& tile) {
    const std::int64_t steps = (tile.query_rows + tile.key_rows - 1) / tile.key_rows;
    const bool even = shape.q_len % tile.query_rows == 0 &&
                      std::all_of(shape.kv_lens.begin(), shape.kv_lens.end(),
                                  [&](std::int64_t kv) { return kv % tile.key_rows == 0; });
    return even ? steps : steps + 1;
  }

  // Where a CTA's masking steps begin: they are its last blocks, or all of them.
  std::int64_t masking_steps_begin(std::int64_t key_end) const {
    const std::int64_t key_rows = builder_.tile().key_rows;
    const std::int64_t end_block = (key_end + key_rows - 1) / key_rows;
    return std::max<std::int64_t>(0, end_block - masking_steps_) * key_rows;
  }

  // Heads whose blocks a heaviest-first grid interleaves (kHeadGroup): the
  // K and V that CTAs running together read stay a few heads' worth.
  static constexpr std::int64_t kHeadGroup = 8;

  AttentionShape shape_;
  FlashCtaProgramBuilder builder_;
  std::int64_t query_blocks_;
  hw::CausalBlockOrder order_;
  std::int64_t masking_steps_;  // 0: masked blocks are the diagonal's
};

}  // namespace

std::string FlashAttention::unsupported_reason(const AttentionWorkload& /*workload*/,
                                               const hw::HardwareSpec& /*spec*/) const {
  return {};
}

AttentionLowering FlashAttention::lower(const AttentionWorkload& workload,
                                        const hw::HardwareSpec& spec,
                                        const AttentionKernel& kernel) const {
  const FlashTile tile =
      flash_tile(kernel.profile, static_cast<int>(workload.shape.head_dim), workload.shape.dtype);
  auto programs = std::make_shared<FlashPrograms>(workload.shape, tile, spec, kernel.profile);
  AttentionLowering lowering;
  lowering.kernels.push_back(
      attention_kernel_launch(workload.name + ".flash_fwd", programs->cta_count(), tile.footprint(),
                              kernel.profile.tensor_efficiency, kernel.profile.kernel_overhead_s,
                              kernel.profile.ramp_and_drain_s, programs));
  lowering.description = "flash";
  return lowering;
}

}  // namespace tilesim::workloads
