#include "workloads/attention/unfused_attention.hpp"

#include <algorithm>

#include "workloads/attention/batched_gemm_kernel.hpp"
#include "workloads/attention/score_pass_kernel.hpp"

namespace tilesim::workloads {
namespace {

// Narrowest GEMM tile a library would pick for P V's n = head_dim.
constexpr int kMinTileN = 64;

int tile_n_for(std::int64_t n, int profile_tile_n) {
  int tile = kMinTileN;
  while (tile < n && tile < profile_tile_n) tile *= 2;
  return std::min(tile, profile_tile_n);
}

}  // namespace

std::string UnfusedAttention::unsupported_reason(const AttentionWorkload& /*workload*/,
                                                 const hw::HardwareSpec& /*spec*/) const {
  return {};
}

AttentionLowering UnfusedAttention::lower(const AttentionWorkload& workload,
                                          const hw::HardwareSpec& /*spec*/,
                                          const hw::KernelProfile& kernel) const {
  const AttentionShape& shape = workload.shape;
  BatchedGemm qk{workload.name + ".qk_gemm",
                 kernel,
                 {},
                 shape.heads,
                 shape.group_size(),
                 AttentionArray::query,
                 AttentionArray::key};
  BatchedGemm pv{workload.name + ".pv_gemm",
                 kernel,
                 {},
                 shape.heads,
                 shape.group_size(),
                 AttentionArray::probabilities,
                 AttentionArray::value};
  pv.kernel.tile_n = tile_n_for(shape.head_dim, kernel.tile_n);
  for (const std::int64_t kv_len : shape.kv_lens) {
    qk.problems.push_back({shape.q_len, kv_len, shape.head_dim, shape.dtype, shape.dtype});
    pv.problems.push_back({shape.q_len, shape.head_dim, kv_len, shape.dtype, shape.dtype});
  }
  // Scale, plus the select of the mask when causal; softmax: max, subtract,
  // sum, and the multiply by 1/sum.
  const ScorePass scale_mask{workload.name + ".scale_mask", AttentionArray::scores,
                             AttentionArray::scores, 0, shape.causal ? 2.0 : 1.0};
  const ScorePass softmax{workload.name + ".softmax", AttentionArray::scores,
                          AttentionArray::probabilities, 1, 4};

  AttentionLowering lowering;
  lowering.kernels = {batched_gemm_kernel(qk), score_pass_kernel(scale_mask, shape),
                      score_pass_kernel(softmax, shape), batched_gemm_kernel(pv)};
  lowering.description = "unfused";
  return lowering;
}

}  // namespace tilesim::workloads
