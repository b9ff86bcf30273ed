#include "workloads/attention/paged_attention_v2.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "sim/gpu/block_scheduler.hpp"
#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/paged_cta_program.hpp"
#include "workloads/attention/paged_decode_limits.hpp"
#include "workloads/attention/split_kv_combine_kernel.hpp"
#include "workloads/attention/split_kv_decode.hpp"

namespace tilesim::workloads {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::int64_t partitions(std::int64_t kv_len) {
  return ceil_div(kv_len, PagedAttentionV2::kPartitionKeys);
}

class PagedV2Programs final : public gpu::CtaProgramSource {
 public:
  PagedV2Programs(const AttentionShape& shape, const hw::HardwareSpec& spec)
      : shape_(shape), builder_(shape, spec) {}

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const std::int64_t sequences = static_cast<std::int64_t>(shape_.kv_lens.size());
    const std::int64_t partition = cta_index / (sequences * shape_.heads);
    PagedWorkItem item;
    item.sequence = cta_index / shape_.heads % sequences;
    item.head = cta_index % shape_.heads;
    const std::int64_t kv_len = shape_.kv_lens[static_cast<std::size_t>(item.sequence)];
    item.key_begin = partition * PagedAttentionV2::kPartitionKeys;
    item.key_end = std::min(kv_len, item.key_begin + PagedAttentionV2::kPartitionKeys);
    gpu::CtaProgram program;
    if (item.key_begin >= kv_len) return program;  // past this sequence's end: exits
    builder_.add_attention(program, item);
    builder_.add_partial_store(program, item, static_cast<std::uint32_t>(partition));
    return program;
  }

 private:
  AttentionShape shape_;
  PagedCtaProgramBuilder builder_;
};

// Blocks until the last CTA ends when every pair is cut into splits of
// blocks_per_split and the CTAs that hold keys go, in grid order, to
// whichever of `slots` resident slots frees first, each costing its blocks
// plus one (kernels/attention/decode/decode_plan.cu, launch_makespan_blocks).
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

// Our kernel's partitions (kernels/attention/decode/decode_plan.cu,
// paged_v2_split_plan): whole 512-key units, the batch's keys over every pair
// shared evenly by one wave of resident CTAs, rounded up; larger partitions
// when they end the launch sooner (a rounding that leaves a second wave).
SplitKvPlan own_partition_plan(const AttentionShape& shape, const hw::HardwareSpec& spec,
                               const FlashTile& tile) {
  const std::int64_t resident =
      std::int64_t{spec.sm.count} * gpu::BlockScheduler(spec.sm).ctas_per_sm(tile.footprint());
  std::int64_t keys = 0;
  for (const std::int64_t kv_len : shape.kv_lens) keys += kv_len;
  const std::int64_t unit_blocks = PagedAttentionV2::kPartitionKeys / tile.key_rows;
  const std::int64_t longest_blocks = ceil_div(longest_kv_len(shape), tile.key_rows);
  const std::int64_t share_units = std::max<std::int64_t>(
      1, ceil_div(ceil_div(keys * shape.kv_heads, resident), PagedAttentionV2::kPartitionKeys));
  std::int64_t units = share_units;
  std::int64_t best = launch_makespan_blocks(shape, tile, units * unit_blocks, resident);
  for (std::int64_t u = share_units + 1; u <= ceil_div(longest_blocks, unit_blocks); ++u) {
    const std::int64_t end = launch_makespan_blocks(shape, tile, u * unit_blocks, resident);
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

}  // namespace

std::int64_t PagedAttentionV2::own_partitions(const AttentionShape& shape,
                                              const hw::HardwareSpec& spec) {
  return own_partition_plan(shape, spec, own_decode_flash_tile(shape)).splits;
}

std::string PagedAttentionV2::unsupported_reason(const AttentionWorkload& workload,
                                                 const hw::HardwareSpec& /*spec*/) const {
  if (kPartitionKeys % workload.shape.page_size != 0) {
    return fmt::format(
        "paged_v2 partitions of {} keys must hold whole pages; page_size {} "
        "does not divide {}",
        kPartitionKeys, workload.shape.page_size, kPartitionKeys);
  }
  return paged_decode_problem(workload.shape);
}

AttentionLowering PagedAttentionV2::lower(const AttentionWorkload& workload,
                                          const hw::HardwareSpec& spec,
                                          const AttentionKernel& kernel) const {
  const AttentionShape& shape = workload.shape;
  if (kernel.profile.decode == hw::AttentionDecode::as_written) {
    // Ours (kernels/attention/decode/paged_attention_v2.cu): the decode CTA per
    // (partition, KV head, sequence), the pair's last merging the partitions
    // (a pair of one partition writes O).
    const FlashTile tile = own_decode_flash_tile(shape, true, kernel.profile.decode_turn);
    const SplitKvPlan plan = own_partition_plan(shape, spec, tile);
    AttentionLowering lowering;
    lowering.kernels =
        split_kv_decode_kernels(workload, spec, kernel, tile, plan, "paged_attention_v2");
    lowering.description = fmt::format("paged_v2:page_size={}", shape.page_size);
    return lowering;
  }
  const auto sequences = static_cast<std::int64_t>(shape.kv_lens.size());
  auto programs = std::make_shared<PagedV2Programs>(shape, spec);
  const double smem =
      std::max(static_cast<double>(kPartitionKeys) * 4, paged_output_reduction_bytes(shape));
  AttentionLowering lowering;
  lowering.kernels.push_back(attention_kernel_launch(
      workload.name + ".paged_attention_v2",
      partitions(longest_kv_len(shape)) * sequences * shape.heads, paged_footprint(smem), 1.0,
      kernel.profile.kernel_overhead_s, programs));

  SplitKvCombine reduce;
  reduce.name = workload.name + ".paged_attention_v2_reduce";
  reduce.matrices_per_sequence = shape.heads;
  for (const std::int64_t kv_len : shape.kv_lens) reduce.partials.push_back(partitions(kv_len));
  reduce.rows = 1;
  reduce.head_dim = shape.head_dim;
  reduce.partial_bytes_per_row = PagedCtaProgramBuilder(shape, spec).partial_bytes_per_row();
  reduce.dtype = shape.dtype;
  lowering.kernels.push_back(split_kv_combine_kernel(reduce));
  lowering.description = fmt::format("paged_v2:page_size={}", shape.page_size);
  return lowering;
}

}  // namespace tilesim::workloads
