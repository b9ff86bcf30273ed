#include "workloads/attention/paged_attention_v1.hpp"

#include <fmt/format.h>

#include "workloads/attention/attention_kernel_launch.hpp"
#include "workloads/attention/paged_cta_program.hpp"
#include "workloads/attention/paged_decode_limits.hpp"
#include "workloads/attention/split_kv_decode.hpp"

namespace tilesim::workloads {
namespace {

class PagedV1Programs final : public gpu::CtaProgramSource {
 public:
  PagedV1Programs(const AttentionShape& shape, const hw::HardwareSpec& spec)
      : shape_(shape), builder_(shape, spec) {}

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    PagedWorkItem item;
    item.sequence = cta_index / shape_.heads;
    item.head = cta_index % shape_.heads;
    item.key_end = shape_.kv_lens[static_cast<std::size_t>(item.sequence)];
    gpu::CtaProgram program;
    builder_.add_attention(program, item);
    builder_.add_output_store(program, item);
    return program;
  }

 private:
  AttentionShape shape_;
  PagedCtaProgramBuilder builder_;
};

// Logits of the longest sequence (padded to whole pages) in fp32, or the
// cross-warp output reduction if that is larger.
double logits_smem_bytes(const AttentionShape& shape) {
  const std::int64_t pages = (longest_kv_len(shape) + shape.page_size - 1) / shape.page_size;
  return std::max(static_cast<double>(pages * shape.page_size) * 4,
                  paged_output_reduction_bytes(shape));
}

}  // namespace

std::string PagedAttentionV1::unsupported_reason(const AttentionWorkload& workload,
                                                 const hw::HardwareSpec& spec) const {
  if (std::string problem = paged_decode_problem(workload.shape); !problem.empty()) {
    return problem;
  }
  const double smem = logits_smem_bytes(workload.shape);
  if (smem > spec.sm.shared_memory.per_cta_max_bytes) {
    return fmt::format(
        "paged_v1 keeps a sequence's logits in shared memory: {} keys need {:.0f} KiB, more "
        "than sm.shared_memory.per_cta_max ({:.0f} KiB); use paged_v2",
        longest_kv_len(workload.shape), smem / 1024,
        spec.sm.shared_memory.per_cta_max_bytes / 1024);
  }
  return {};
}

AttentionLowering PagedAttentionV1::lower(const AttentionWorkload& workload,
                                          const hw::HardwareSpec& spec,
                                          const AttentionKernel& kernel) const {
  const AttentionShape& shape = workload.shape;
  AttentionLowering lowering;
  lowering.description = fmt::format("paged_v1:page_size={}", shape.page_size);
  if (kernel.profile.decode == hw::AttentionDecode::as_written) {
    // Ours (kernels/attention/decode/paged_attention_v1.cu): the decode CTA,
    // one per (sequence, KV head), K/V rows through the block table.
    const FlashTile tile = own_decode_flash_tile(shape, true, kernel.profile.decode_turn);
    lowering.kernels = split_kv_decode_kernels(
        workload, spec, kernel, tile, even_split_kv_plan(shape, tile, 1), "paged_attention_v1");
    return lowering;
  }
  auto programs = std::make_shared<PagedV1Programs>(shape, spec);
  const std::int64_t ctas = shape.heads * static_cast<std::int64_t>(shape.kv_lens.size());
  lowering.kernels.push_back(attention_kernel_launch(
      workload.name + ".paged_attention_v1", ctas, paged_footprint(logits_smem_bytes(shape)), 1.0,
      kernel.profile.kernel_overhead_s, kernel.profile.ramp_and_drain_s, programs));
  return lowering;
}

}  // namespace tilesim::workloads
