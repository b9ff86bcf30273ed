#pragma once
// An elementwise kernel of the unfused variant over the score matrices S of
// every (sequence, head): q_len rows of kv_len scores each, read from and
// written back to global memory in the input type. `scale_mask` multiplies by
// 1/sqrt(d) and, when causal, masks (from the indices: no mask tensor is
// read); `softmax` computes each row's max, exps and sum and writes P.
// One CTA per block of rows (at least 64 KiB), 256 threads with four 16-byte
// loads each in flight.

#include <string>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_tensors.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

struct ScorePass {
  std::string name;
  AttentionArray input = AttentionArray::scores;
  AttentionArray output = AttentionArray::scores;
  double exps_per_score = 0;               // on the SFUs
  double fp32_instructions_per_score = 0;  // on the CUDA cores
};

gpu::KernelLaunch score_pass_kernel(const ScorePass& pass, const AttentionShape& shape);

}  // namespace tilesim::workloads
