#include "workloads/attention/own_decode_plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/paged_attention_v2.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::int64_t resident_slots(const hw::HardwareSpec& spec, const FlashTile& tile) {
  return std::int64_t{spec.sm.count} * gpu::BlockScheduler(spec.sm).ctas_per_sm(tile.footprint());
}

// Blocks until the last CTA ends when every pair is cut into splits of
// blocks_per_split and the CTAs that hold keys go, in grid order, to
// whichever of `slots` resident slots frees first, each costing its blocks
// plus one (its pipeline fill and merge); empty splits are left out
// (decode_plan.cu, launch_makespan_blocks).
std::int64_t launch_makespan_blocks(const AttentionShape& shape, const FlashTile& tile,
                                    std::int64_t blocks_per_split, std::int64_t slots) {
  std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> free_at;
  for (std::int64_t s = 0; s < slots; ++s) free_at.push(0);
  std::int64_t end = 0;
  for (const std::int64_t kv_len : shape.kv_lens) {
    const std::int64_t blocks = ceil_div(kv_len, tile.key_rows);
    for (std::int64_t head = 0; head < shape.kv_heads; ++head) {
      for (std::int64_t first = 0; first < blocks; first += blocks_per_split) {
        const std::int64_t done = free_at.top() + std::min(blocks_per_split, blocks - first) + 1;
        free_at.pop();
        free_at.push(done);
        end = std::max(end, done);
      }
    }
  }
  return end;
}

// No cut ends before the longest pair's first split (its blocks plus one);
// the bound grows with blocks_per_split, so the searches stop at the first
// candidate it rules out (decode_plan.cu, makespan_lower_bound: the kernel's
// search ran up to ~200 makespans on the host each launch, longer than the
// kernel).
std::int64_t makespan_lower_bound(std::int64_t blocks_per_split, std::int64_t longest_blocks) {
  return std::min(blocks_per_split, longest_blocks) + 1;
}

std::int64_t total_blocks(const AttentionShape& shape, const FlashTile& tile) {
  std::int64_t blocks = 0;
  for (const std::int64_t kv_len : shape.kv_lens) blocks += ceil_div(kv_len, tile.key_rows);
  return blocks * shape.kv_heads;
}

}  // namespace

SplitKvPlan own_flash_decoding_plan(const AttentionShape& shape, const hw::HardwareSpec& spec,
                                    const FlashTile& tile) {
  const std::int64_t slots = resident_slots(spec, tile);
  const std::int64_t pairs = static_cast<std::int64_t>(shape.kv_lens.size()) * shape.kv_heads;
  const std::int64_t wave_splits = std::max<std::int64_t>(1, slots / pairs);
  SplitKvPlan best = even_split_kv_plan(shape, tile, wave_splits);
  std::int64_t best_end = launch_makespan_blocks(shape, tile, best.blocks_per_split, slots);
  const std::int64_t longest = ceil_div(longest_kv_len(shape), tile.key_rows);
  const std::int64_t share = ceil_div(total_blocks(shape, tile), slots);
  for (std::int64_t splits = ceil_div(longest, share); splits > wave_splits; --splits) {
    const SplitKvPlan plan = even_split_kv_plan(shape, tile, splits);
    if (makespan_lower_bound(plan.blocks_per_split, longest) >= best_end) break;
    const std::int64_t end = launch_makespan_blocks(shape, tile, plan.blocks_per_split, slots);
    if (end < best_end) {
      best = plan;
      best_end = end;
    }
  }
  return best;
}

SplitKvPlan own_paged_v2_plan(const AttentionShape& shape, const hw::HardwareSpec& spec,
                              const FlashTile& tile) {
  const std::int64_t slots = resident_slots(spec, tile);
  std::int64_t keys = 0;
  for (const std::int64_t kv_len : shape.kv_lens) keys += kv_len;
  const std::int64_t unit_blocks = PagedAttentionV2::kPartitionKeys / tile.key_rows;
  const std::int64_t longest_blocks = ceil_div(longest_kv_len(shape), tile.key_rows);
  const std::int64_t share_units = std::max<std::int64_t>(
      1, ceil_div(ceil_div(keys * shape.kv_heads, slots), PagedAttentionV2::kPartitionKeys));
  std::int64_t units = share_units;
  std::int64_t best = launch_makespan_blocks(shape, tile, units * unit_blocks, slots);
  for (std::int64_t u = share_units + 1; u <= ceil_div(longest_blocks, unit_blocks); ++u) {
    if (makespan_lower_bound(u * unit_blocks, longest_blocks) >= best) break;
    const std::int64_t end = launch_makespan_blocks(shape, tile, u * unit_blocks, slots);
    if (end < best) {
      best = end;
      units = u;
    }
  }
  SplitKvPlan plan;
  plan.blocks_per_split = units * unit_blocks;
  plan.splits = ceil_div(longest_blocks, plan.blocks_per_split);
  return plan;
}

}  // namespace tilesim::workloads
