#pragma once
// `flash`: the FlashAttention-2 forward kernel. One CTA per (query block,
// head, sequence), query blocks fastest, so the CTAs of a head -- and of the
// heads of one GQA group -- run together and share K/V blocks in L2. Each CTA
// loops over the K/V blocks its rows can see (causal masking skips the blocks
// above the diagonal, leaving CTAs unequal), then writes O once.

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class FlashAttention final : public AttentionVariant {
 public:
  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;
};

}  // namespace tilesim::workloads
