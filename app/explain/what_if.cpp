#include "app/explain/what_if.hpp"

#include <functional>
#include <utility>

#include "workloads/attention/attention_variant.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::explain {
namespace {

using workloads::Workload;
using workloads::WorkloadRun;

struct HardwareChange {
  std::string label;
  std::function<void(hw::HardwareSpec&)> apply;
};

std::vector<HardwareChange> hardware_changes() {
  return {
      {"2x HBM bandwidth", [](hw::HardwareSpec& spec) { spec.hbm.bandwidth_bytes_per_s *= 2; }},
      {"2x L2 bandwidth",
       [](hw::HardwareSpec& spec) {
         spec.l2.bandwidth_bytes_per_s *= 2;
         spec.l2.slice_bandwidth_bytes_per_s *= 2;
         spec.sm.l2_port_bytes_per_s *= 2;
       }},
      {"2x tensor-core throughput",
       [](hw::HardwareSpec& spec) {
         hw::TensorCoreRates& tensor = spec.sm.tensor;
         tensor.fp16_flops_per_s *= 2;
         tensor.bf16_flops_per_s *= 2;
         tensor.tf32_flops_per_s *= 2;
         tensor.fp8_flops_per_s *= 2;
       }},
  };
}

// The runs of `workload` on `spec`; none when it cannot run there.
std::vector<WorkloadRun> simulate(const Workload& workload, const hw::HardwareSpec& spec,
                                  const workloads::GemmScheduleRegistry& schedules,
                                  const gpu::SimulationOptions& options) {
  workloads::Study study;
  study.workloads.push_back(workload);
  config::Loaded<std::vector<WorkloadRun>> runs =
      workloads::run_study(study, spec, schedules, options);
  return runs.ok() ? std::move(*runs.value) : std::vector<WorkloadRun>{};
}

// The workload with each other concrete choice of what it names one of.
std::vector<Workload> alternatives(const Workload& workload, const hw::HardwareSpec& spec,
                                   const workloads::GemmScheduleRegistry& schedules) {
  std::vector<Workload> others;
  if (const auto* gemm = std::get_if<workloads::GemmWorkload>(&workload)) {
    if (schedules.find(gemm->schedule) == nullptr) return others;  // auto, compare
    for (const std::string& name : schedules.names()) {
      if (name == gemm->schedule) continue;
      workloads::GemmWorkload other = *gemm;
      other.schedule = name;
      others.emplace_back(std::move(other));
    }
  } else if (const auto* attention = std::get_if<workloads::AttentionWorkload>(&workload)) {
    const workloads::AttentionVariantRegistry variants = workloads::builtin_attention_variants();
    if (variants.find(attention->variant) == nullptr) return others;  // compare
    for (const std::string& name : variants.names()) {
      if (name == attention->variant) continue;
      workloads::AttentionWorkload other = *attention;
      other.variant = name;
      if (name != "flash_decoding") other.splits.reset();
      if (!variants.find(name)->unsupported_reason(other, spec).empty()) continue;
      others.emplace_back(std::move(other));
    }
  } else if (const auto* graph = std::get_if<workloads::GraphWorkload>(&workload)) {
    if (graph->launch == "compare") return others;
    workloads::GraphWorkload other = *graph;
    other.launch = graph->launch == "eager" ? "cuda_graph" : "eager";
    others.emplace_back(std::move(other));
  } else if (const auto* layer = std::get_if<workloads::LayerWorkload>(&workload)) {
    if (layer->launch != "compare") {
      workloads::LayerWorkload other = *layer;
      other.launch = layer->launch == "eager" ? "cuda_graph" : "eager";
      others.emplace_back(std::move(other));
    }
    if (layer->fused != "compare") {
      workloads::LayerWorkload other = *layer;
      other.fused = layer->fused == "true" ? "false" : "true";
      others.emplace_back(std::move(other));
    }
  }
  return others;
}

}  // namespace

std::map<std::string, std::vector<WhatIf>> what_ifs(
    const workloads::Workload& workload, const std::vector<workloads::WorkloadRun>& runs,
    const hw::HardwareSpec& spec, const workloads::GemmScheduleRegistry& schedules,
    const gpu::SimulationOptions& options) {
  std::map<std::string, double> base_us;
  std::map<std::string, std::vector<WhatIf>> hints;
  for (const WorkloadRun& run : runs) {
    base_us[run.name] = run.result.time_us();
    hints[run.name];
  }
  for (const HardwareChange& change : hardware_changes()) {
    hw::HardwareSpec changed = spec;
    change.apply(changed);
    for (const WorkloadRun& run : simulate(workload, changed, schedules, options)) {
      if (const auto base = base_us.find(run.name); base != base_us.end()) {
        hints[run.name].push_back({change.label, run.result.time_us(), base->second});
      }
    }
  }
  if (runs.size() != 1) return hints;
  const WorkloadRun& base = runs.front();
  for (const Workload& other : alternatives(workload, spec, schedules)) {
    const std::vector<WorkloadRun> other_runs = simulate(other, spec, schedules, options);
    if (other_runs.size() != 1) continue;
    hints[base.name].push_back({"as " + other_runs.front().schedule,
                                other_runs.front().result.time_us(), base_us[base.name]});
  }
  return hints;
}

gpu::PlanCost estimate_what_if_cost(const workloads::Workload& workload,
                                    const hw::HardwareSpec& spec,
                                    const workloads::GemmScheduleRegistry& schedules) {
  gpu::PlanCost total;
  // What does not lower is not simulated either (simulate() gives no runs).
  const auto add = [&](const Workload& item, const hw::HardwareSpec& on) {
    const config::Loaded<gpu::PlanCost> cost =
        workloads::estimate_workload_cost(item, on, schedules);
    if (cost.ok()) total += *cost.value;
  };
  for (const HardwareChange& change : hardware_changes()) {
    hw::HardwareSpec changed = spec;
    change.apply(changed);
    add(workload, changed);
  }
  for (const Workload& other : alternatives(workload, spec, schedules)) add(other, spec);
  return total;
}

}  // namespace tilesim::explain
