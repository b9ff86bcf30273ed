#pragma once
// `paged_v2`: vLLM's paged_attention_v2. Each sequence is cut into partitions
// of 512 keys; one CTA per (query head, sequence, partition), partitions
// slowest, with the grid sized for the longest sequence (CTAs past a shorter
// sequence's end exit at once). Each stores its unnormalized O in the input
// type with its max logit and exp sum; a reduce kernel, one CTA per (query
// head, sequence), combines the partitions. Our kernel (`kernel: tilesim_ref`)
// runs our decode CTA per (partition, KV head, sequence) instead, with
// partitions of whole 512-key units sized by one wave (own_partitions), and
// no reduce kernel: the last partition of a (sequence, KV head) to finish
// merges them (round 6).

#include "workloads/attention/attention_variant.hpp"

namespace tilesim::workloads {

class PagedAttentionV2 final : public AttentionVariant {
 public:
  static constexpr std::int64_t kPartitionKeys = 512;
  // Partitions of the longest sequence our kernel (`kernel: tilesim_ref`) cuts:
  // whole kPartitionKeys units sized by one wave of resident CTAs.
  static std::int64_t own_partitions(const AttentionShape& shape, const hw::HardwareSpec& spec);

  std::string unsupported_reason(const AttentionWorkload& workload,
                                 const hw::HardwareSpec& spec) const override;
  AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                          const AttentionKernel& kernel) const override;
};

}  // namespace tilesim::workloads
