#include "app/explain/run_explanation.hpp"

#include <fmt/format.h>

#include "sim/gpu/gpu_idle_time.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::explain {
namespace {

// Explaining simulates each workload once more than `simulate` does for every
// what-if, so the budget is checked on all of them together; the problem is
// reported at the workload that takes the total over it.
config::Diagnostics check_explain_cost(const workloads::Study& study, const hw::HardwareSpec& spec,
                                       const workloads::GemmScheduleRegistry& schedules,
                                       double max_events) {
  config::Diagnostics problems;
  gpu::PlanCost total;
  for (std::size_t i = 0; i < study.workloads.size(); ++i) {
    const workloads::Workload& workload = study.workloads[i];
    const config::Loaded<gpu::PlanCost> cost =
        workloads::estimate_workload_cost(workload, spec, schedules);
    problems.append(cost.diagnostics);
    if (!cost.ok()) continue;
    total += *cost.value;
    total += estimate_what_if_cost(workload, spec, schedules);
    if (total.events() <= max_events) continue;
    problems.add(workloads::workload_location(workload),
                 fmt::format("workloads[{}].{}", i, workloads::workload_kind(workload)),
                 fmt::format("explained with its what-ifs (one simulation each){}: {}",
                             i == 0 ? "" : ", with the workloads before it",
                             workloads::over_budget_message(total, max_events)));
    break;
  }
  return problems;
}

}  // namespace

RunExplanation explain_run(const workloads::WorkloadRun& run, const hw::HardwareSpec& spec) {
  RunExplanation explanation;
  explanation.name = run.name;
  explanation.kind = run.kind;
  explanation.schedule = run.schedule;
  explanation.time_us = run.result.time_us();
  explanation.breakdown = run_time_breakdown(run.result);
  const std::vector<gpu::KernelIdleTime> idle = gpu::kernel_idle_times(run.result);
  for (std::size_t k = 0; k < run.result.kernels.size(); ++k) {
    const gpu::KernelRecord& kernel = run.result.kernels[k];
    explanation.kernels.push_back({kernel.name, (kernel.end - kernel.start).us(),
                                   idle[k].gap_before.us(), kernel_time_breakdown(run.result, k)});
  }
  explanation.ceilings = roofline_ceilings(spec, run_data_type(run));
  explanation.position = roofline_position(run);
  explanation.verdict =
      run_verdict(run, explanation.breakdown, explanation.ceilings, explanation.position);
  return explanation;
}

config::Loaded<std::vector<RunExplanation>> explain_study(
    const workloads::Study& study, const hw::HardwareSpec& spec,
    const workloads::GemmScheduleRegistry& schedules, double max_events, bool approximate) {
  config::Loaded<std::vector<RunExplanation>> loaded;
  loaded.diagnostics = check_explain_cost(study, spec, schedules, max_events);
  if (!loaded.diagnostics.empty()) return loaded;
  gpu::SimulationOptions options;
  options.attribute_time = true;
  options.max_effort_events = workloads::effort_limit(max_events);
  options.set_approximate(approximate);
  std::vector<RunExplanation> explanations;
  for (const workloads::Workload& workload : study.workloads) {
    const workloads::Study single{
        study.source_path, study.hardware, study.hardware_location, {workload}};
    config::Loaded<std::vector<workloads::WorkloadRun>> runs =
        workloads::run_study(single, spec, schedules, options);
    loaded.diagnostics.append(runs.diagnostics);
    if (!runs.ok()) continue;
    std::map<std::string, std::vector<WhatIf>> hints =
        what_ifs(workload, *runs.value, spec, schedules, options);
    for (const workloads::WorkloadRun& run : *runs.value) {
      RunExplanation explanation = explain_run(run, spec);
      explanation.what_ifs = std::move(hints[run.name]);
      explanations.push_back(std::move(explanation));
    }
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(explanations);
  return loaded;
}

}  // namespace tilesim::explain
