// The flash variant's launcher: one FA2-class kernel launch
// (flash_forward_kernel.cuh), no workspace.

#include <cmath>
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
  FlashForwardParams params;
  params.q = tensors.q;
  params.k = tensors.k;
  params.v = tensors.v;
  params.o = tensors.o;
  params.kv_starts = tensors.kv_starts;
  params.kv_lens = tensors.kv_lens;
  params.batch = problem.batch;
  params.q_len = problem.q_len;
  params.heads = problem.heads;
  params.kv_heads = problem.kv_heads;
  params.causal = problem.causal;
  params.scale_log2 = static_cast<float>(1.4426950408889634 / std::sqrt(double(problem.head_dim)));
  if (problem.head_dim == 64) {
    launch_flash_forward<64>(params, problem.dtype, stream);
  } else {
    launch_flash_forward<128>(params, problem.dtype, stream);
  }
  return 1;
}

}  // namespace tilesim::kernels
