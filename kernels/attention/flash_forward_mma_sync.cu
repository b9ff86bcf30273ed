// The flash variant's launcher: one FA2-class kernel launch
// (flash_forward_kernel.cuh), no workspace.

#include <stdexcept>

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/flash_forward_kernel.cuh"

namespace tilesim::kernels {

FlashForwardTile flash_forward_tile(int head_dim) {
  FlashForwardTile tile;
  if (head_dim == 64) {
    using T = flash::FlashTraits<64>;
    tile = {T::kBlockM, T::kBlockN, T::kWarps, T::kStages, T::kSharedBytes};
  } else {
    using T = flash::FlashTraits<128>;
    tile = {T::kBlockM, T::kBlockN, T::kWarps, T::kStages, T::kSharedBytes};
  }
  return tile;
}

std::optional<std::string> flash_problem_error(const AttentionProblem& problem) {
  (void)problem;  // attention_problem_error's domain is the kernel's
  return std::nullopt;
}

AttentionWorkspaceSize flash_workspace_size(const AttentionProblem&) {
  return {};
}

int launch_flash(const AttentionProblem& problem, const AttentionTensors& tensors, void*,
                 cudaStream_t stream) {
  if (const auto error = flash_problem_error(problem)) throw std::invalid_argument(*error);
  const FlashForwardParams params = make_flash_forward_params(problem, tensors);
  if (problem.head_dim == 64) {
    launch_flash_forward<64>(params, problem.dtype, stream);
  } else {
    launch_flash_forward<128>(params, problem.dtype, stream);
  }
  return 1;
}

}  // namespace tilesim::kernels
