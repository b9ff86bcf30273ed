#pragma once
// `paged_v1`: vLLM's paged_attention_v1 decode kernel. One CTA per (query
// head, sequence), query heads fastest (heads of a GQA group read the same
// K/V pages, mostly L2 hits), each over all of its sequence's keys; the logits
// of the whole sequence sit in shared memory, which bounds the context and
// the occupancy. Reads go through the page table (paged_cta_program.hpp).

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class PagedAttentionV1 final : public AttentionVariant {
 public:
  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;
};

}  // namespace tilesim::workloads
