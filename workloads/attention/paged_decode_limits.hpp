#pragma once
// What vLLM's paged decode kernels accept, and their CTA footprint.

#include <string>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/attention/paged_cta_program.hpp"

namespace tilesim::workloads {

// Estimate: vLLM's kernel keeps a handful of K/V vectors per thread.
inline constexpr int kPagedRegistersPerThread = 128;

// Empty when the paged kernels can run the shape.
inline std::string paged_decode_problem(const AttentionShape& shape) {
  if (shape.q_len != 1) {
    return "the paged kernels attend one query per sequence (q_len 1); use flash_decoding";
  }
  return {};
}

// Half the warps' fp32 outputs, for the cross-warp reduction of P V.
inline double paged_output_reduction_bytes(const AttentionShape& shape) {
  return PagedCtaProgramBuilder::kWarps / 2.0 * static_cast<double>(shape.head_dim) * 4;
}

inline gpu::CtaFootprint paged_footprint(double shared_memory_bytes) {
  return {PagedCtaProgramBuilder::kThreads, kPagedRegistersPerThread, shared_memory_bytes};
}

}  // namespace tilesim::workloads
