// paged_v2: vLLM's PagedAttention v2 schedule -- each sequence cut into
// partitions of a whole number of 512-key units (as many as one wave of
// resident CTAs takes evenly over the batch's keys: decode_plan.hpp), one CTA
// per (partition, KV head, sequence), read through the block table, each
// writing a partial; the last CTA of each (sequence, KV head) to finish
// merges them (vLLM runs a separate reduce kernel; round 6 folds it into the
// partition kernel, as flash_decoding's combine: a sequence with one
// partition writes O directly).

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_plan.hpp"

namespace tilesim::kernels {

std::optional<std::string> paged_v2_problem_error(const AttentionProblem& problem) {
  return decode::decode_problem_error(problem);
}

AttentionWorkspaceSize paged_v2_workspace_size(const AttentionProblem& problem) {
  decode::require_decode_problem(problem, "paged_v2");
  return decode::decode_split_workspace_size(problem, decode::paged_v2_split_plan(problem));
}

int launch_paged_v2(const AttentionProblem& problem, const AttentionTensors& tensors,
                    void* workspace, cudaStream_t stream) {
  decode::require_decode_problem(problem, "paged_v2");
  const decode::DecodeSplitPlan plan = decode::paged_v2_split_plan(problem);
  decode::launch_decode_split(problem, tensors, true, plan, workspace, stream);
  return 1;
}

}  // namespace tilesim::kernels
