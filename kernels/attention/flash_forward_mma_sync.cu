// The flash variant's launcher. The FA2-class kernel lands in the next commit;
// until then the variant refuses every problem.

#include <stdexcept>

#include "kernels/attention/attention_variants.hpp"

namespace tilesim::kernels {

std::optional<std::string> flash_problem_error(const AttentionProblem&) {
  return std::string("flash: the kernel is not written yet");
}

AttentionWorkspaceSize flash_workspace_size(const AttentionProblem&) {
  return {};
}

int launch_flash(const AttentionProblem& problem, const AttentionTensors&, void*, cudaStream_t) {
  throw std::invalid_argument(*flash_problem_error(problem));
}

}  // namespace tilesim::kernels
