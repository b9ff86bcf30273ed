#pragma once
// A kernel launch of an attention variant, and the chunking every
// FlashAttention-class kernel of one workload shares.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

// `kernel_overhead_s`: what a timed run pays once (a plan pays its kernels'
// largest once); `ramp_and_drain_s`: what every launch pays after its last CTA.
inline gpu::KernelLaunch attention_kernel_launch(
    std::string name, std::int64_t cta_count, gpu::CtaFootprint footprint, double tensor_efficiency,
    double kernel_overhead_s, double ramp_and_drain_s,
    std::shared_ptr<const gpu::CtaProgramSource> programs) {
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = cta_count;
  launch.footprint = footprint;
  launch.tensor_efficiency = tensor_efficiency;
  launch.fixed_overhead_s = kernel_overhead_s;
  launch.ramp_and_drain_s = ramp_and_drain_s;
  launch.programs = std::move(programs);
  return launch;
}

// A sequence's keys are tracked in L2 as at most this many chunks: CTAs that
// sweep the same keys together share them, and a CTA stays a few steps.
inline constexpr std::int64_t kMaxKeyChunksPerSequence = 4;

inline std::int64_t longest_kv_len(const AttentionShape& shape) {
  return *std::max_element(shape.kv_lens.begin(), shape.kv_lens.end());
}

// Blocks of `block_keys` keys per chunk for the longest sequence.
inline std::int64_t key_chunk_blocks(const AttentionShape& shape, std::int64_t block_keys) {
  const std::int64_t blocks = (longest_kv_len(shape) + block_keys - 1) / block_keys;
  return std::max<std::int64_t>(1,
                                (blocks + kMaxKeyChunksPerSequence - 1) / kMaxKeyChunksPerSequence);
}

}  // namespace tilesim::workloads
