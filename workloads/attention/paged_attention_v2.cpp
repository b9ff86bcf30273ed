#include "workloads/attention/paged_attention_v2.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/own_decode_plan.hpp"
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

}  // namespace

std::int64_t PagedAttentionV2::own_partitions(const AttentionShape& shape,
                                              const hw::HardwareSpec& spec) {
  return own_paged_v2_plan(shape, spec, own_decode_flash_tile(shape)).splits;
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
    const SplitKvPlan plan = own_paged_v2_plan(shape, spec, tile);
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
      kernel.profile.kernel_overhead_s, kernel.profile.ramp_and_drain_s, programs));

  SplitKvCombine reduce;
  reduce.name = workload.name + ".paged_attention_v2_reduce";
  reduce.matrices_per_sequence = shape.heads;
  for (const std::int64_t kv_len : shape.kv_lens) reduce.partials.push_back(partitions(kv_len));
  reduce.rows = 1;
  reduce.head_dim = shape.head_dim;
  reduce.partial_bytes_per_row = PagedCtaProgramBuilder(shape, spec).partial_bytes_per_row();
  reduce.dtype = shape.dtype;
  reduce.ramp_and_drain_s = kernel.profile.ramp_and_drain_s;
  lowering.kernels.push_back(split_kv_combine_kernel(reduce));
  lowering.description = fmt::format("paged_v2:page_size={}", shape.page_size);
  return lowering;
}

}  // namespace tilesim::workloads
