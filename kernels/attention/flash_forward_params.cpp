// Kernel arguments of the flash forward kernels from a problem and its tensors.

#include "kernels/attention/flash_forward_params.hpp"

#include <cmath>

namespace tilesim::kernels {

FlashForwardParams make_flash_forward_params(const AttentionProblem& problem,
                                             const AttentionTensors& tensors) {
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
  return params;
}

}  // namespace tilesim::kernels
