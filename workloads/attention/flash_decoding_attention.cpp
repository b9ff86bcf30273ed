#include "workloads/attention/flash_decoding_attention.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/decode_packing.hpp"
#include "workloads/attention/own_decode_plan.hpp"
#include "workloads/attention/split_kv_decode.hpp"

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
  const FlashTile tile = decode_flash_tile(kernel.profile, shape);
  SplitKvPlan plan;
  if (kernel.profile.decode == hw::AttentionDecode::as_written) {
    // Our kernel (kernels/attention/decode/decode_plan.cu): any count is
    // evened to whole blocks per split; `splits: 0` as own_flash_decoding_plan.
    plan = workload.splits ? even_split_kv_plan(shape, tile, *workload.splits)
                           : own_flash_decoding_plan(shape, spec, tile);
  } else {
    plan.splits = splits_for(workload, spec);
    plan.blocks_per_split = ceil_div(ceil_div(longest_kv_len(shape), tile.key_rows), plan.splits);
  }
  AttentionLowering lowering;
  lowering.kernels =
      split_kv_decode_kernels(workload, spec, kernel, tile, plan, "flash_fwd_splitkv");
  lowering.description = fmt::format("flash_decoding:splits={}", plan.splits);
  return lowering;
}

}  // namespace tilesim::workloads
