#include "workloads/attention/attention_runner.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/attention/attention_lowering.hpp"
#include "workloads/attention/flash_decoding_attention.hpp"

namespace tilesim::workloads {
namespace {

std::vector<WorkloadParameter> attention_parameters(const AttentionWorkload& workload,
                                                    const hw::HardwareSpec& spec) {
  const AttentionShape& shape = workload.shape;
  std::vector<WorkloadParameter> parameters = {
      {"batch", shape.batch},
      {"heads", shape.heads},
      {"kv_heads", shape.kv_heads},
      {"q_len", shape.q_len},
  };
  const bool uniform = std::all_of(shape.kv_lens.begin(), shape.kv_lens.end(),
                                   [&](std::int64_t len) { return len == shape.kv_lens.front(); });
  if (uniform) {
    parameters.push_back({"kv_len", shape.kv_lens.front()});
  } else {
    parameters.push_back({"kv_lens", fmt::format("[{}]", fmt::join(shape.kv_lens, ", "))});
  }
  parameters.push_back({"head_dim", shape.head_dim});
  parameters.push_back({"causal", std::string(shape.causal ? "true" : "false")});
  parameters.push_back({"dtype", std::string(hw::to_string(shape.dtype))});
  parameters.push_back({"page_size", shape.page_size});
  parameters.push_back({"variant", workload.variant});
  if (workload.variant == "flash_decoding") {
    parameters.push_back(
        {"splits", std::int64_t{FlashDecodingAttention::splits_for(workload, spec)}});
  }
  return parameters;
}

config::Loaded<WorkloadRun> simulate_variant(const AttentionWorkload& workload,
                                             const hw::HardwareSpec& spec,
                                             const gpu::SimulationOptions& options) {
  config::Loaded<AttentionLowering> lowering = lower_attention_variant(workload, spec);
  if (!lowering.ok()) return {std::nullopt, std::move(lowering.diagnostics)};
  gpu::KernelPlan plan;
  plan.kernels = std::move(lowering.value->kernels);
  WorkloadRun run;
  run.name = workload.name;
  run.kind = "attention";
  run.schedule = lowering.value->description;
  run.kernel = workload.kernel;
  run.parameters = attention_parameters(workload, spec);
  run.useful_flops = workload.shape.useful_flops();
  run.result = gpu::simulate(plan, spec, options);
  return {std::move(run), {}};
}

// The workload as each variant it runs as: its own, or with `compare` every
// variant that applies to the shape (only FlashDecoding keeps `splits`).
std::vector<AttentionWorkload> attention_candidates(const AttentionWorkload& workload,
                                                    const hw::HardwareSpec& spec) {
  if (workload.variant != "compare") return {workload};
  const AttentionVariantRegistry variants = builtin_attention_variants();
  std::vector<AttentionWorkload> candidates;
  for (const std::string& name : variants.names()) {
    AttentionWorkload candidate = workload;
    candidate.variant = name;
    if (!variants.find(name)->unsupported_reason(candidate, spec).empty()) continue;
    if (name != "flash_decoding") candidate.splits.reset();
    candidates.push_back(std::move(candidate));
  }
  return candidates;
}

}  // namespace

config::Loaded<std::vector<WorkloadRun>> run_attention_workload(
    const AttentionWorkload& workload, const hw::HardwareSpec& spec,
    const gpu::SimulationOptions& options) {
  std::vector<WorkloadRun> runs;
  for (const AttentionWorkload& candidate : attention_candidates(workload, spec)) {
    config::Loaded<WorkloadRun> run = simulate_variant(candidate, spec, options);
    if (!run.ok()) return {std::nullopt, std::move(run.diagnostics)};
    if (workload.variant == "compare") run.value->name = workload.name + "/" + candidate.variant;
    runs.push_back(std::move(*run.value));
  }
  return {std::move(runs), {}};
}

config::Loaded<gpu::PlanCost> estimate_attention_cost(const AttentionWorkload& workload,
                                                      const hw::HardwareSpec& spec) {
  gpu::PlanCost cost;
  for (const AttentionWorkload& candidate : attention_candidates(workload, spec)) {
    config::Loaded<AttentionLowering> lowering = lower_attention_variant(candidate, spec);
    if (!lowering.ok()) return {std::nullopt, std::move(lowering.diagnostics)};
    gpu::KernelPlan plan;
    plan.kernels = std::move(lowering.value->kernels);
    cost += gpu::estimate_plan_cost(plan, spec);
  }
  return {cost, {}};
}

}  // namespace tilesim::workloads
