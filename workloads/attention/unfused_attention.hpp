#pragma once
// `unfused`: attention as eager framework code runs it, four kernels with
// their launch gaps and HBM round trips of the score matrix (b x h x q x kv
// elements, stored in the input type):
//   qk_gemm     S = Q K^T, a batched GEMM (writes S);
//   scale_mask  S = S / sqrt(d), causal mask (reads and writes S);
//   softmax     P = softmax(S) (reads S, writes P);
//   pv_gemm     O = P V, a batched GEMM (reads P).
// The GEMMs are the data-parallel GEMM model with the workload's kernel
// profile; P V's tile is narrowed to the head dimension, as a library picks.
// Scores written in place by scale_mask are still in L2 for softmax when
// they fit (small N); no other L2 reuse of S or P between kernels is assumed
// (GEMM tiles and elementwise row blocks are tracked as different blocks).

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class UnfusedAttention final : public AttentionVariant {
 public:
  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;
};

}  // namespace tilesim::workloads
