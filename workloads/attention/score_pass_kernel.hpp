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
// loads each in flight; a CTA per row for a kernel launched so (row_cost).

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

// What one row of a CTA-per-row softmax costs (masked_softmax.cu): the warp
// instructions it issues on its SM's CUDA cores, shared with the SM's other
// resident rows, and its chain of waits (first read, cross-thread reduction,
// second read), which those rows' instructions hide while they last.
// Simulated with at most kMaxRowCtas CTAs per launch: beyond that, each CTA
// runs a few consecutive rows one after another, each row paying what its own
// CTA would (row_start_s: the dispatch and the first read's latency, which a
// CTA of several rows pays once), so a slot's time is the sum of its rows'.
struct SoftmaxRowCost {
  double chain_s = 0;
  double row_start_s = 0;                // a row's CTA: dispatch, then its first read's latency
  int ctas_per_sm = 1;                   // resident rows an SM's cores are shared by
  int warps = 1;                         // of the row's CTA
  int keys_per_lane = 1;                 // a lane's keys per loop step of a pass
  double warp_instructions = 0;          // every warp, whatever the row's length
  double lane_instructions_per_key = 0;  // per key of a lane, per pass
  double sm_fp32_flops_per_s = 0;        // one SM's CUDA cores (an FMA lane: 2 flops)
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
  // Set for a kernel that runs a CTA per row of S (our softmax): the grid as
  // the code launches it, one row a CTA.
  std::optional<SoftmaxRowCost> row_cost;
  // The pass covers this sequence only (a launch per sequence); else all.
  std::optional<std::size_t> only_sequence;
};

gpu::KernelLaunch score_pass_kernel(const ScorePass& pass, const AttentionShape& shape);
// The CTA of every pass (256 threads).
gpu::CtaFootprint score_pass_footprint();

}  // namespace tilesim::workloads
