#include "workloads/attention/unfused_attention.hpp"

#include <algorithm>

#include "workloads/attention/batched_gemm_kernel.hpp"
#include "workloads/attention/score_pass_kernel.hpp"

namespace tilesim::workloads {
namespace {

// Narrowest GEMM tile a library would pick for P V's n = head_dim.
constexpr int kMinTileN = 64;
// Bytes per element of a bool tensor (the eager path's masks).
constexpr double kBoolBytes = 1;
// Instructions per element of a vectorized elementwise kernel (load, op,
// store of a 16-byte vector, amortized): the pass is bandwidth-bound.
constexpr double kVectorizedInstructionsPerElement = 1;

int tile_n_for(std::int64_t n, int profile_tile_n) {
  int tile = kMinTileN;
  while (tile < n && tile < profile_tile_n) tile *= 2;
  return std::min(tile, profile_tile_n);
}

ScorePass pass(const std::string& name, AttentionArray input, AttentionArray output,
               ScorePassElements elements, double read_bytes, double write_bytes,
               double instructions, double exps = 0) {
  return {name, input, output, elements, read_bytes, write_bytes, exps, instructions};
}

// The passes before Q K^T: the eager path builds the causal mask, scales Q,
// copies K and V to every head of a GQA group and scales K.
std::vector<ScorePass> passes_before_gemms(const AttentionWorkload& workload,
                                           const hw::AttentionProfile& profile, bool copies_kv) {
  const AttentionShape& shape = workload.shape;
  const double e = hw::bytes_per_element(shape.dtype);
  std::vector<ScorePass> passes;
  if (profile.mask == hw::UnfusedMask::additive_pass) {
    if (shape.causal) {
      passes.push_back(pass(workload.name + ".build_mask", AttentionArray::scores,
                            AttentionArray::scores, ScorePassElements::mask, kBoolBytes, e,
                            profile.elementwise_instructions_per_score));
    }
    passes.push_back(pass(workload.name + ".scale_q", AttentionArray::query, AttentionArray::query,
                          ScorePassElements::queries, e, e, kVectorizedInstructionsPerElement));
  }
  if (copies_kv) {
    const double read = e / static_cast<double>(shape.group_size());  // once per group
    passes.push_back(pass(workload.name + ".copy_k", AttentionArray::key, AttentionArray::key,
                          ScorePassElements::keys, read, e, profile.copy_instructions_per_element));
    passes.push_back(pass(workload.name + ".copy_v", AttentionArray::value, AttentionArray::value,
                          ScorePassElements::keys, read, e, profile.copy_instructions_per_element));
  }
  if (profile.mask == hw::UnfusedMask::additive_pass) {
    passes.push_back(pass(workload.name + ".scale_k", AttentionArray::key, AttentionArray::key,
                          ScorePassElements::keys, e, e, kVectorizedInstructionsPerElement));
  }
  return passes;
}

// The passes over S between the GEMMs.
std::vector<ScorePass> passes_over_scores(const AttentionWorkload& workload,
                                          const hw::AttentionProfile& profile) {
  const AttentionShape& shape = workload.shape;
  const double e = hw::bytes_per_element(shape.dtype);
  const std::int64_t longest = *std::max_element(shape.kv_lens.begin(), shape.kv_lens.end());
  const double softmax_instructions = longest <= profile.warp_softmax_max_keys
                                          ? profile.warp_softmax_instructions_per_score
                                          : profile.softmax_instructions_per_score;
  std::vector<ScorePass> passes;
  if (profile.mask == hw::UnfusedMask::additive_pass && shape.causal) {
    passes.push_back(pass(workload.name + ".add_mask", AttentionArray::scores,
                          AttentionArray::scores, ScorePassElements::scores, e, e,
                          profile.elementwise_instructions_per_score));
  }
  passes.push_back(pass(workload.name + ".softmax", AttentionArray::scores,
                        AttentionArray::probabilities, ScorePassElements::scores, e, e,
                        softmax_instructions, profile.softmax_exps_per_score));
  if (profile.safe_softmax_passes) {
    passes.push_back(pass(workload.name + ".isneginf", AttentionArray::scores,
                          AttentionArray::masked_scores, ScorePassElements::scores, e, kBoolBytes,
                          kVectorizedInstructionsPerElement));
    passes.push_back(pass(workload.name + ".all_masked", AttentionArray::masked_scores,
                          AttentionArray::partial, ScorePassElements::scores, kBoolBytes, 0,
                          kVectorizedInstructionsPerElement));
    passes.push_back(pass(workload.name + ".where", AttentionArray::probabilities,
                          AttentionArray::probabilities, ScorePassElements::scores, e, e,
                          profile.elementwise_instructions_per_score));
  }
  return passes;
}

}  // namespace

std::string UnfusedAttention::unsupported_reason(const AttentionWorkload& /*workload*/,
                                                 const hw::HardwareSpec& /*spec*/) const {
  return {};
}

AttentionLowering UnfusedAttention::lower(const AttentionWorkload& workload,
                                          const hw::HardwareSpec& /*spec*/,
                                          const AttentionKernel& kernel) const {
  const AttentionShape& shape = workload.shape;
  const hw::AttentionProfile& profile = kernel.profile;
  // With K and V copied per query head, the GEMMs read a copy per head.
  const bool copies_kv = profile.gqa_kv_copy && shape.group_size() > 1;
  const std::int64_t gemm_group = copies_kv ? 1 : shape.group_size();
  BatchedGemm qk{workload.name + ".qk_gemm", kernel.gemm,        {}, shape.heads, gemm_group,
                 AttentionArray::query,      AttentionArray::key};
  BatchedGemm pv{workload.name + ".pv_gemm",    kernel.gemm,          {}, shape.heads, gemm_group,
                 AttentionArray::probabilities, AttentionArray::value};
  pv.kernel.tile_n = tile_n_for(shape.head_dim, kernel.gemm.tile_n);
  for (const std::int64_t kv_len : shape.kv_lens) {
    qk.problems.push_back({shape.q_len, kv_len, shape.head_dim, shape.dtype, shape.dtype});
    pv.problems.push_back({shape.q_len, shape.head_dim, kv_len, shape.dtype, shape.dtype});
  }
  AttentionLowering lowering;
  for (const ScorePass& p : passes_before_gemms(workload, profile, copies_kv)) {
    lowering.kernels.push_back(score_pass_kernel(p, shape));
  }
  lowering.kernels.push_back(batched_gemm_kernel(qk));
  for (const ScorePass& p : passes_over_scores(workload, profile)) {
    lowering.kernels.push_back(score_pass_kernel(p, shape));
  }
  lowering.kernels.push_back(batched_gemm_kernel(pv));
  lowering.description = "unfused";
  return lowering;
}

}  // namespace tilesim::workloads
