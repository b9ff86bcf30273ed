// flash_decoding: split-KV decode over the contiguous cache (FlashDecoding;
// FA2's split-KV path with the GQA group packed), the splits merged by each
// pair's last CTA to finish (one kernel).

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/decode/decode_kernels.hpp"
#include "kernels/attention/decode/decode_plan.hpp"

namespace tilesim::kernels {

std::optional<std::string> flash_decoding_problem_error(const AttentionProblem& problem) {
  return decode::decode_problem_error(problem);
}

AttentionWorkspaceSize flash_decoding_workspace_size(const AttentionProblem& problem) {
  decode::require_decode_problem(problem, "flash_decoding");
  const decode::DecodeSplitPlan plan = decode::flash_decoding_split_plan(problem);
  if (plan.splits == 1) {
    AttentionWorkspaceSize size;
    size.splits = 1;
    return size;
  }
  return decode::decode_split_workspace_size(problem, plan);
}

int launch_flash_decoding(const AttentionProblem& problem, const AttentionTensors& tensors,
                          void* workspace, cudaStream_t stream) {
  decode::require_decode_problem(problem, "flash_decoding");
  const decode::DecodeSplitPlan plan = decode::flash_decoding_split_plan(problem);
  decode::launch_decode_split(problem, tensors, false, plan, plan.splits == 1 ? nullptr : workspace,
                              stream);
  return 1;
}

}  // namespace tilesim::kernels
