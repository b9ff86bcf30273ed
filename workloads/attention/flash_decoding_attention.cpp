#include "workloads/attention/flash_decoding_attention.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/decode_packing.hpp"
#include "workloads/attention/flash_cta_program.hpp"
#include "workloads/attention/split_kv_combine_kernel.hpp"

namespace tilesim::workloads {
namespace {

constexpr int kMaxSplits = 128;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

FlashTile decode_tile(const AttentionShape& shape) {
  return decode_flash_tile(static_cast<int>(shape.head_dim), shape.dtype);
}

// FlashAttention-2's num_splits_heuristic (flash_api.cpp).
int split_heuristic(std::int64_t ctas, int sm_count, std::int64_t key_blocks) {
  if (static_cast<double>(ctas) >= 0.8 * sm_count) return 1;
  const auto max_splits =
      static_cast<int>(std::min<std::int64_t>({kMaxSplits, sm_count, key_blocks}));
  // A split count that gives the same blocks per split as one fewer is no choice.
  auto eligible = [&](int splits) {
    return splits == 1 || ceil_div(key_blocks, splits) != ceil_div(key_blocks, splits - 1);
  };
  std::vector<double> efficiency(static_cast<std::size_t>(std::max(max_splits, 0)), 0.0);
  double best = 0;
  for (int splits = 1; splits <= max_splits; ++splits) {
    if (!eligible(splits)) continue;
    const double waves = static_cast<double>(ctas * splits) / sm_count;
    efficiency[static_cast<std::size_t>(splits - 1)] = waves / std::ceil(waves);
    best = std::max(best, efficiency[static_cast<std::size_t>(splits - 1)]);
  }
  for (int splits = 1; splits <= max_splits; ++splits) {
    if (eligible(splits) && efficiency[static_cast<std::size_t>(splits - 1)] >= 0.85 * best) {
      return splits;
    }
  }
  return 1;
}

class SplitKvPrograms final : public gpu::CtaProgramSource {
 public:
  SplitKvPrograms(const AttentionShape& shape, FlashTile tile, int splits,
                  const hw::HardwareSpec& spec, const hw::AttentionProfile& profile)
      : shape_(shape),
        builder_(tile, key_chunk_blocks(shape, tile.key_rows), spec, profile),
        splits_(splits),
        blocks_per_split_(ceil_div(ceil_div(longest_kv_len(shape), tile.key_rows), splits)) {}

  std::int64_t cta_count() const {
    return splits_ * shape_.kv_heads * static_cast<std::int64_t>(shape_.kv_lens.size());
  }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t split = cta_index % splits_;
    const std::int64_t matrix = cta_index / splits_;  // sequence x kv_heads + KV head
    const std::int64_t kv_len = shape_.kv_lens[static_cast<std::size_t>(matrix / shape_.kv_heads)];
    const std::int64_t block_keys = builder_.tile().key_rows;
    FlashWorkItem item;
    item.kv_matrix = matrix;
    item.query_matrix = matrix;
    item.rows = packed_query_rows(shape_);
    item.key_begin = std::min(kv_len, split * blocks_per_split_ * block_keys);
    item.key_end = std::min(kv_len, (split + 1) * blocks_per_split_ * block_keys);
    item.unmasked_end = shape_.visible_keys(kv_len, 0);

    gpu::CtaProgram program;
    const std::uint16_t segment = builder_.begin_segment(program, item);
    builder_.add_main_loop(program, segment, item, true);
    if (splits_ == 1) {
      builder_.add_output_store(program, segment, item);
    } else {
      // An empty split still writes a zero partial with a log-sum-exp of -inf.
      builder_.add_partial_store(program, segment, item, static_cast<std::uint32_t>(split),
                                 std::nullopt);
    }
    return program;
  }

 private:
  AttentionShape shape_;
  FlashCtaProgramBuilder builder_;
  std::int64_t splits_;
  std::int64_t blocks_per_split_;
};

}  // namespace

int FlashDecodingAttention::splits_for(const AttentionWorkload& workload,
                                       const hw::HardwareSpec& spec) {
  if (workload.splits) return *workload.splits;
  const AttentionShape& shape = workload.shape;
  const FlashTile tile = decode_tile(shape);
  const std::int64_t ctas = static_cast<std::int64_t>(shape.kv_lens.size()) * shape.kv_heads;
  return split_heuristic(ctas, spec.sm.count, ceil_div(longest_kv_len(shape), tile.key_rows));
}

std::string FlashDecodingAttention::unsupported_reason(const AttentionWorkload& workload,
                                                       const hw::HardwareSpec& /*spec*/) const {
  return packed_rows_problem(workload.shape, decode_tile(workload.shape));
}

AttentionLowering FlashDecodingAttention::lower(const AttentionWorkload& workload,
                                                const hw::HardwareSpec& spec,
                                                const AttentionKernel& kernel) const {
  const AttentionShape& shape = workload.shape;
  const FlashTile tile = decode_tile(shape);
  const int splits = splits_for(workload, spec);
  auto programs = std::make_shared<SplitKvPrograms>(shape, tile, splits, spec, kernel.profile);
  AttentionLowering lowering;
  lowering.kernels.push_back(attention_kernel_launch(workload.name + ".flash_fwd_splitkv",
                                                     programs->cta_count(), tile.footprint(),
                                                     kernel.profile.tensor_efficiency, programs));
  if (splits > 1) {
    SplitKvCombine combine;
    combine.name = workload.name + ".splitkv_combine";
    combine.matrices_per_sequence = shape.kv_heads;
    combine.partials.assign(shape.kv_lens.size(), splits);
    combine.rows = packed_query_rows(shape);
    combine.head_dim = shape.head_dim;
    combine.partial_bytes_per_row = flash_partial_bytes(tile, 1);
    combine.dtype = shape.dtype;
    lowering.kernels.push_back(split_kv_combine_kernel(combine));
  }
  lowering.description = fmt::format("flash_decoding:splits={}", splits);
  return lowering;
}

}  // namespace tilesim::workloads
