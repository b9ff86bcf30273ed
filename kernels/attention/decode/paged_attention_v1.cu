// paged_v1: vLLM's PagedAttention v1 schedule -- one CTA per (sequence, KV
// head) over all its keys, read through the block table; no split, no workspace.

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_plan.hpp"

namespace tilesim::kernels {

std::optional<std::string> paged_v1_problem_error(const AttentionProblem& problem) {
  return decode::decode_problem_error(problem);
}

AttentionWorkspaceSize paged_v1_workspace_size(const AttentionProblem& problem) {
  decode::require_decode_problem(problem, "paged_v1");
  return {};
}

int launch_paged_v1(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* /*workspace*/, cudaStream_t stream) {
  decode::require_decode_problem(problem, "paged_v1");
  decode::DecodeSplitPlan whole;
  whole.blocks_per_split = decode::longest_kv_blocks(problem);
  whole.splits = 1;
  decode::launch_decode_split(problem, tensors, true, whole, nullptr, stream);
  return 1;
}

}  // namespace tilesim::kernels
