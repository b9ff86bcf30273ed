// flash_decoding: split-KV decode over the contiguous cache, then a combine
// kernel (FlashDecoding; FA2's split-KV path with the GQA group packed).

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
  AttentionWorkspaceSize size;
  size.splits = plan.splits;
  if (plan.splits > 1) {
    size.bytes = decode::decode_partial_bytes(problem, decode::decode_pairs(problem) * plan.splits);
  }
  return size;
}

int launch_flash_decoding(const AttentionProblem& problem, const AttentionTensors& tensors,
                          void* workspace, cudaStream_t stream) {
  decode::require_decode_problem(problem, "flash_decoding");
  const decode::DecodeSplitPlan plan = decode::flash_decoding_split_plan(problem);
  if (plan.splits == 1) {
    decode::launch_decode_split(problem, tensors, false, plan, nullptr, stream);
    return 1;
  }
  auto* partials = static_cast<float*>(workspace);
  decode::launch_decode_split(problem, tensors, false, plan, partials, stream);
  decode::launch_split_kv_combine(problem, tensors, plan, partials, stream);
  return 2;
}

}  // namespace tilesim::kernels
