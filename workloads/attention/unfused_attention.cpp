#include "workloads/attention/unfused_attention.hpp"

#include <algorithm>

#include "sim/gpu/block_scheduler.hpp"
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
// Threads of a warp; bytes of the softmax's vector loads.
constexpr int kWarpThreads = 32;
constexpr double kVectorBytes = 16;

int tile_n_for(std::int64_t n, int profile_tile_n) {
  int tile = kMinTileN;
  while (tile < n && tile < profile_tile_n) tile *= 2;
  return std::min(tile, profile_tile_n);
}

ScorePass pass(const std::string& name, AttentionArray input, AttentionArray output,
               ScorePassElements elements, double read_bytes, double write_bytes,
               double instructions, double exps = 0) {
  ScorePass p;
  p.name = name;
  p.input = input;
  p.output = output;
  p.elements = elements;
  p.read_bytes_per_element = read_bytes;
  p.write_bytes_per_element = write_bytes;
  p.exps_per_element = exps;
  p.fp32_instructions_per_element = instructions;
  return p;
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

// Our softmax's rows (masked_softmax.cu): a CTA of 256 threads per row, as
// many resident on an SM as its threads and registers allow. Pass 1 reads S
// from HBM, pass 2 re-reads it from L2.
SoftmaxRowCost softmax_row_cost(const hw::AttentionProfile& profile, const hw::HardwareSpec& spec,
                                const AttentionShape& shape) {
  const gpu::CtaFootprint footprint = score_pass_footprint();
  SoftmaxRowCost cost;
  cost.chain_s = spec.hbm.latency_s + profile.softmax_row_reduction_cycles / spec.sm.clock_hz +
                 spec.l2.latency_s;
  cost.ctas_per_sm = gpu::BlockScheduler(spec.sm).ctas_per_sm(footprint);
  // A packed row's own CTA: dispatched, then its first read from HBM waited.
  cost.row_start_s = spec.launch.cta_dispatch_s + spec.hbm.latency_s;
  cost.warps = footprint.threads / kWarpThreads;
  // 16-byte loads when every row starts 16-byte aligned, else one key a lane.
  const auto vector_keys =
      static_cast<std::int64_t>(kVectorBytes / hw::bytes_per_element(shape.dtype));
  const bool vector_loads =
      std::all_of(shape.kv_lens.begin(), shape.kv_lens.end(),
                  [&](std::int64_t kv_len) { return kv_len % vector_keys == 0; });
  cost.keys_per_lane = vector_loads ? static_cast<int>(vector_keys) : 1;
  cost.warp_instructions = profile.softmax_warp_instructions;
  cost.lane_instructions_per_key = profile.softmax_lane_instructions_per_key;
  cost.sm_fp32_flops_per_s = spec.sm.fp32_flops_per_s;
  return cost;
}

// The passes over S between the GEMMs.
std::vector<ScorePass> passes_over_scores(const AttentionWorkload& workload,
                                          const hw::AttentionProfile& profile,
                                          const hw::HardwareSpec& spec) {
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
  ScorePass softmax =
      pass(workload.name + ".softmax", AttentionArray::scores, AttentionArray::probabilities,
           ScorePassElements::scores, e, e, softmax_instructions, profile.softmax_exps_per_score);
  if (profile.softmax_row_reduction_cycles > 0) {
    softmax.row_cost = softmax_row_cost(profile, spec, shape);
  }
  passes.push_back(softmax);
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

// Our path (kernels/attention/unfused_attention.cu): per sequence, Q K^T as
// one strided-batched GEMM (over the KV heads) per query head of a GQA group,
// the softmax of the sequence's rows, then P V the same way: short sequences
// make many short launches.
std::vector<gpu::KernelLaunch> per_sequence_kernels(const AttentionWorkload& workload,
                                                    const AttentionKernel& kernel,
                                                    const std::vector<ScorePass>& over_scores,
                                                    int pv_tile_n) {
  const AttentionShape& shape = workload.shape;
  std::vector<gpu::KernelLaunch> kernels;
  auto cublas_call = [&](const BatchedGemm& gemm) {
    gpu::KernelLaunch launch = batched_gemm_kernel(gemm);
    launch.host_dispatch_s = kernel.profile.gemm_call_host_s;
    return launch;
  };
  auto member_gemm = [&](const std::string& name, AttentionArray a, AttentionArray b,
                         const GemmProblem& problem, std::size_t sequence, std::int64_t member) {
    BatchedGemm gemm{name, kernel.gemm, {problem}, shape.kv_heads, 1, a, b};
    gemm.first_sequence = static_cast<std::int64_t>(sequence);
    gemm.a_heads_per_sequence = shape.heads;
    gemm.a_head_stride = shape.group_size();
    gemm.a_head_offset = member;
    return gemm;
  };
  for (std::size_t sequence = 0; sequence < shape.kv_lens.size(); ++sequence) {
    const std::int64_t kv_len = shape.kv_lens[sequence];
    for (std::int64_t member = 0; member < shape.group_size(); ++member) {
      kernels.push_back(cublas_call(member_gemm(
          workload.name + ".qk_gemm", AttentionArray::query, AttentionArray::key,
          {shape.q_len, kv_len, shape.head_dim, shape.dtype, shape.dtype}, sequence, member)));
    }
    for (ScorePass p : over_scores) {
      p.only_sequence = sequence;
      kernels.push_back(score_pass_kernel(p, shape));
    }
    for (std::int64_t member = 0; member < shape.group_size(); ++member) {
      BatchedGemm pv = member_gemm(
          workload.name + ".pv_gemm", AttentionArray::probabilities, AttentionArray::value,
          {shape.q_len, shape.head_dim, kv_len, shape.dtype, shape.dtype}, sequence, member);
      pv.kernel.tile_n = pv_tile_n;
      kernels.push_back(cublas_call(pv));
    }
  }
  return kernels;
}

}  // namespace

std::string UnfusedAttention::unsupported_reason(const AttentionWorkload& /*workload*/,
                                                 const hw::HardwareSpec& /*spec*/) const {
  return {};
}

AttentionLowering UnfusedAttention::lower(const AttentionWorkload& workload,
                                          const hw::HardwareSpec& spec,
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
  AttentionLowering lowering;
  lowering.description = "unfused";
  for (const ScorePass& p : passes_before_gemms(workload, profile, copies_kv)) {
    lowering.kernels.push_back(score_pass_kernel(p, shape));
  }
  if (profile.launches == hw::UnfusedLaunches::per_sequence) {
    for (gpu::KernelLaunch& launch : per_sequence_kernels(
             workload, kernel, passes_over_scores(workload, profile, spec), pv.kernel.tile_n)) {
      lowering.kernels.push_back(std::move(launch));
    }
    return lowering;
  }
  for (const std::int64_t kv_len : shape.kv_lens) {
    qk.problems.push_back({shape.q_len, kv_len, shape.head_dim, shape.dtype, shape.dtype});
    pv.problems.push_back({shape.q_len, shape.head_dim, kv_len, shape.dtype, shape.dtype});
  }
  lowering.kernels.push_back(batched_gemm_kernel(qk));
  for (const ScorePass& p : passes_over_scores(workload, profile, spec)) {
    lowering.kernels.push_back(score_pass_kernel(p, shape));
  }
  lowering.kernels.push_back(batched_gemm_kernel(pv));
  return lowering;
}

}  // namespace tilesim::workloads
