#include "workloads/attention/split_kv_decode.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/decode_packing.hpp"
#include "workloads/attention/decode_queue_drain.hpp"
#include "workloads/attention/flash_cta_program.hpp"
#include "workloads/attention/split_kv_combine_kernel.hpp"

namespace tilesim::workloads {
namespace {

// kernels/attention/decode/decode_split_kernel.cu: kCombineUnroll, the
// splits' partials each thread of the merging CTA loads at once.
constexpr int kOwnMergeSplitsInFlight = 8;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

class SplitKvPrograms final : public gpu::CtaProgramSource {
 public:
  SplitKvPrograms(const AttentionShape& shape, FlashTile tile, const SplitKvPlan& plan,
                  const hw::HardwareSpec& spec, const hw::AttentionProfile& profile)
      : shape_(shape),
        builder_(tile, key_chunk_blocks(shape, tile.key_rows), spec, decode_cta_profile(profile)),
        plan_(plan),
        merged_in_kernel_(profile.decode == hw::AttentionDecode::as_written) {}

  std::int64_t cta_count() const {
    return plan_.splits * shape_.kv_heads * static_cast<std::int64_t>(shape_.kv_lens.size());
  }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t split = cta_index % plan_.splits;
    const std::int64_t matrix = cta_index / plan_.splits;  // sequence x kv_heads + KV head
    const std::int64_t kv_len = shape_.kv_lens[static_cast<std::size_t>(matrix / shape_.kv_heads)];
    const std::int64_t split_keys = plan_.blocks_per_split * builder_.tile().key_rows;
    FlashWorkItem item;
    item.kv_matrix = matrix;
    item.query_matrix = matrix;
    item.rows = packed_query_rows(shape_);
    item.key_begin = std::min(kv_len, split * split_keys);
    item.key_end = std::min(kv_len, (split + 1) * split_keys);
    item.unmasked_end = shape_.visible_keys(kv_len, 0);

    gpu::CtaProgram program;
    const std::uint16_t segment = builder_.begin_segment(program, item);
    if (merged_in_kernel_) {
      add_own_split_epilogue(program, segment, item, split, ceil_div(kv_len, split_keys), matrix,
                             kv_len % split_keys != 0);
      return program;
    }
    builder_.add_main_loop(program, segment, item, true);
    if (plan_.splits == 1 && !plan_.always_combine) {
      builder_.add_output_store(program, segment, item);
    } else {
      // An empty split still writes a zero partial with a log-sum-exp of -inf.
      builder_.add_partial_store(program, segment, item, static_cast<std::uint32_t>(split),
                                 std::nullopt);
    }
    return program;
  }

 private:
  // Ours (decode_split_kernel.cu): an empty split exits at once; a pair of one
  // non-empty split writes O; otherwise each split stores its partial and the
  // last to arrive merges them all into O. The model gives the merge to the
  // pair's last full-length split: the last dispatched of the longest ones,
  // so the one to finish last when they run side by side (a shorter tail
  // split finishes first and exits, freeing its slot, as in the kernel).
  void add_own_split_epilogue(gpu::CtaProgram& program, std::uint16_t segment,
                              const FlashWorkItem& item, std::int64_t split,
                              std::int64_t pair_splits, std::int64_t pair, bool short_tail) const {
    if (split >= pair_splits) return;
    builder_.add_main_loop(program, segment, item, true);
    if (pair_splits == 1) {
      builder_.add_output_store(program, segment, item);
      return;
    }
    const auto flag = static_cast<std::uint32_t>(pair);
    const bool merger = split == pair_splits - (short_tail ? 2 : 1);
    builder_.add_partial_store(program, segment, item, static_cast<std::uint32_t>(split),
                               merger ? std::nullopt : std::optional<std::uint32_t>(flag));
    if (!merger) return;
    builder_.add_split_merge(program, segment, item, static_cast<std::uint32_t>(pair_splits),
                             kOwnMergeSplitsInFlight, gpu::FlagWait{flag, pair_splits - 1});
    builder_.add_output_store(program, segment, item);
  }

  AttentionShape shape_;
  FlashCtaProgramBuilder builder_;
  SplitKvPlan plan_;
  bool merged_in_kernel_;
};

}  // namespace

SplitKvPlan even_split_kv_plan(const AttentionShape& shape, const FlashTile& tile,
                               std::int64_t splits) {
  const std::int64_t blocks =
      std::max<std::int64_t>(1, ceil_div(longest_kv_len(shape), tile.key_rows));
  SplitKvPlan plan;
  plan.blocks_per_split = ceil_div(blocks, std::clamp<std::int64_t>(splits, 1, blocks));
  plan.splits = ceil_div(blocks, plan.blocks_per_split);
  return plan;
}

std::vector<gpu::KernelLaunch> split_kv_decode_kernels(
    const AttentionWorkload& workload, const hw::HardwareSpec& spec, const AttentionKernel& kernel,
    const FlashTile& tile, const SplitKvPlan& plan, const std::string& kernel_name) {
  const AttentionShape& shape = workload.shape;
  auto programs = std::make_shared<SplitKvPrograms>(shape, tile, plan, spec, kernel.profile);
  double overhead_s = kernel.profile.kernel_overhead_s;
  if (kernel.profile.decode == hw::AttentionDecode::as_written) {
    // Ours: the wave's HBM queue drains after the fluid share (empty splits
    // exit at once and hold nothing in flight).
    const std::int64_t split_keys = plan.blocks_per_split * tile.key_rows;
    std::int64_t working_ctas = 0;
    std::int64_t blocks = 0;
    for (const std::int64_t kv_len : shape.kv_lens) {
      working_ctas += ceil_div(kv_len, split_keys) * shape.kv_heads;
      blocks += ceil_div(kv_len, tile.key_rows) * shape.kv_heads;
    }
    if (working_ctas > 0) {
      overhead_s += own_decode_queue_drain_s(
          tile, working_ctas, static_cast<double>(blocks) / static_cast<double>(working_ctas),
          spec);
    }
  }
  std::vector<gpu::KernelLaunch> kernels;
  kernels.push_back(attention_kernel_launch(
      workload.name + "." + kernel_name, programs->cta_count(), tile.footprint(),
      kernel.profile.tensor_efficiency, overhead_s, kernel.profile.ramp_and_drain_s, programs));
  // Ours merges the splits inside the split kernel.
  const bool combine_kernel = kernel.profile.decode != hw::AttentionDecode::as_written &&
                              (plan.splits > 1 || plan.always_combine);
  if (combine_kernel) {
    SplitKvCombine combine;
    combine.name = workload.name + ".splitkv_combine";
    combine.matrices_per_sequence = shape.kv_heads;
    combine.partials.assign(shape.kv_lens.size(), plan.splits);
    combine.rows = packed_query_rows(shape);
    combine.head_dim = shape.head_dim;
    combine.partial_bytes_per_row = flash_partial_bytes(tile, 1);
    combine.dtype = shape.dtype;
    combine.ramp_and_drain_s = kernel.profile.ramp_and_drain_s;
    kernels.push_back(split_kv_combine_kernel(combine));
  }
  return kernels;
}

}  // namespace tilesim::workloads
