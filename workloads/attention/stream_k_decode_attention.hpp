#pragma once
// `stream_k_decode`: LeanAttention-style decode. The K/V blocks of every
// (sequence, KV head) pair, laid end to end, are cut evenly over a persistent
// grid of SMs x occupancy CTAs, regardless of sequence boundaries. A CTA that
// covers a pair whole writes O; otherwise, as in Stream-K GEMM, the peers that
// hold a pair's later blocks store fp32 partials (O, log-sum-exp) to a
// workspace and raise the pair's flag, and the CTA holding the pair's first
// blocks -- its owner, which reaches that pair last -- waits for them, merges
// the partials and writes O. No combine kernel.

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class StreamKDecodeAttention final : public AttentionVariant {
 public:
  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;
};

}  // namespace tilesim::workloads
