// The dispatcher of the reference attention kernels: one switch per entry
// point, each case one variant's function (attention_variants.hpp).

#include <stdexcept>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/attention_variants.hpp"

namespace tilesim::kernels {

std::optional<std::string> attention_launch_error(AttentionVariant variant,
                                                  const AttentionProblem& problem) {
  if (auto error = attention_problem_error(problem)) return error;
  switch (variant) {
    case AttentionVariant::unfused:
      return unfused_problem_error(problem);
    case AttentionVariant::flash:
      return flash_problem_error(problem);
    case AttentionVariant::flash_wgmma:
      return flash_wgmma_problem_error(problem);
    case AttentionVariant::flash_decoding:
      return flash_decoding_problem_error(problem);
    case AttentionVariant::paged_v1:
      return paged_v1_problem_error(problem);
    case AttentionVariant::paged_v2:
      return paged_v2_problem_error(problem);
    case AttentionVariant::stream_k_decode:
      return stream_k_decode_problem_error(problem);
  }
  return "unknown attention variant";
}

bool attention_variant_is_paged(AttentionVariant variant) {
  return variant == AttentionVariant::paged_v1 || variant == AttentionVariant::paged_v2;
}

AttentionWorkspaceSize attention_workspace_size(AttentionVariant variant,
                                                const AttentionProblem& problem) {
  switch (variant) {
    case AttentionVariant::unfused:
      return unfused_workspace_size(problem);
    case AttentionVariant::flash:
      return flash_workspace_size(problem);
    case AttentionVariant::flash_wgmma:
      return flash_wgmma_workspace_size(problem);
    case AttentionVariant::flash_decoding:
      return flash_decoding_workspace_size(problem);
    case AttentionVariant::paged_v1:
      return paged_v1_workspace_size(problem);
    case AttentionVariant::paged_v2:
      return paged_v2_workspace_size(problem);
    case AttentionVariant::stream_k_decode:
      return stream_k_decode_workspace_size(problem);
  }
  return {};
}

int launch_attention(AttentionVariant variant, const AttentionProblem& problem,
                     const AttentionTensors& tensors, void* workspace, cudaStream_t stream) {
  if (const auto error = attention_launch_error(variant, problem)) {
    throw std::invalid_argument("attention " + std::string(to_string(variant)) + " (" +
                                to_string(problem) + "): " + *error);
  }
  switch (variant) {
    case AttentionVariant::unfused:
      return launch_unfused(problem, tensors, workspace, stream);
    case AttentionVariant::flash:
      return launch_flash(problem, tensors, workspace, stream);
    case AttentionVariant::flash_wgmma:
      return launch_flash_wgmma(problem, tensors, workspace, stream);
    case AttentionVariant::flash_decoding:
      return launch_flash_decoding(problem, tensors, workspace, stream);
    case AttentionVariant::paged_v1:
      return launch_paged_v1(problem, tensors, workspace, stream);
    case AttentionVariant::paged_v2:
      return launch_paged_v2(problem, tensors, workspace, stream);
    case AttentionVariant::stream_k_decode:
      return launch_stream_k_decode(problem, tensors, workspace, stream);
  }
  return 0;
}

}  // namespace tilesim::kernels
