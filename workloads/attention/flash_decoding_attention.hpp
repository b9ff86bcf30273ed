#pragma once
// `flash_decoding`: FlashAttention-2's split-KV decode. One CTA per (KV split,
// KV head, sequence) attends the packed queries of a GQA group to 1/splits of
// the keys and stores an fp32 partial O and log-sum-exp; a combine kernel
// merges the splits. Every sequence is cut at the same block boundaries, set
// by the longest one, so a short sequence leaves later splits empty. With one
// split the kernel writes O itself and there is no combine. Our kernel
// (`kernel: tilesim_ref`, round 6) has no combine kernel: the last split of a
// (sequence, KV head) to finish merges its splits (split_kv_decode.hpp).
//
// Splits: the workload's `splits`, or FlashAttention-2's heuristic: the fewest
// splits whose wave efficiency (CTAs / SMs over its ceiling) is within 85% of
// the best for up to 128 splits; one split when the CTAs already fill 80% of
// the SMs.

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class FlashDecodingAttention final : public AttentionVariant {
 public:
  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;

  static int splits_for(const AttentionWorkload& workload, const hw::HardwareSpec& spec);
};

}  // namespace tilesim::workloads
