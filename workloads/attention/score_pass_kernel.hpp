#pragma once
// An elementwise (or row-wise) kernel of an unfused attention path: one pass
// over an array of every sequence, read from and written back to global
// memory. Usually the score matrices S of every (sequence, head) -- q_len rows
// of kv_len scores -- for the mask, the softmax and its checks; also the
// causal mask built once, and the per-head copies and scalings of Q and K an
// eager framework makes. Each element costs bytes read and written, exps on
// the SFUs and instructions on the CUDA cores; the profile of the path says
// how many (hw::AttentionProfile).
// One CTA per block of rows (at least 64 KiB), 256 threads with four 16-byte
// loads each in flight.

#include <cstdint>
#include <optional>
#include <string>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_tensors.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

// What a pass runs over, per sequence.
enum class ScorePassElements {
  scores,   // heads x q_len x kv_len
  mask,     // q_len x kv_len once for the batch (the first sequence's lengths)
  keys,     // heads x kv_len x head_dim (K or V, one copy per query head)
  queries,  // heads x q_len x head_dim
};

struct ScorePass {
  std::string name;
  AttentionArray input = AttentionArray::scores;
  AttentionArray output = AttentionArray::scores;
  ScorePassElements elements = ScorePassElements::scores;
  double read_bytes_per_element = 0;
  double write_bytes_per_element = 0;
  double exps_per_element = 0;               // on the SFUs
  double fp32_instructions_per_element = 0;  // on the CUDA cores
  // A kernel with a CTA per row whose two passes wait on each other (our
  // softmax): each row's chain of latencies. Simulated as blocks of rows that
  // a CTA slot runs one after another, so a block pays its rows' chains in
  // turn; the rows are spread over `row_slots` blocks (the resident CTAs: the
  // code's grid of a CTA per row keeps that many rows in flight), at most
  // 64 KiB of rows each.
  double row_latency_s = 0;
  std::int64_t row_slots = 0;
  // The pass covers this sequence only (a launch per sequence); else all.
  std::optional<std::size_t> only_sequence;
};

gpu::KernelLaunch score_pass_kernel(const ScorePass& pass, const AttentionShape& shape);
// The CTA of every pass (256 threads).
gpu::CtaFootprint score_pass_footprint();

}  // namespace tilesim::workloads
