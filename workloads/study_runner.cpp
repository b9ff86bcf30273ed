#include "workloads/study_runner.hpp"

#include <fmt/format.h>

#include "workloads/attention/attention_runner.hpp"
#include "workloads/graph/graph_runner.hpp"
#include "workloads/model/model_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::workloads {
namespace {

config::Loaded<std::vector<WorkloadRun>> run_workload(const Workload& workload, std::size_t index,
                                                      const hw::HardwareSpec& spec,
                                                      const GemmScheduleRegistry& schedules,
                                                      const gpu::SimulationOptions& options) {
  try {
    return std::visit(
        [&](const auto& item) -> config::Loaded<std::vector<WorkloadRun>> {
          using T = std::decay_t<decltype(item)>;
          if constexpr (std::is_same_v<T, AttentionWorkload>) {
            return run_attention_workload(item, spec, options);
          } else if constexpr (std::is_same_v<T, GraphWorkload>) {
            return run_graph_workload(item, spec, schedules, options);
          } else if constexpr (std::is_same_v<T, LayerWorkload>) {
            return run_layer_workload(item, spec, schedules, options);
          } else if constexpr (std::is_same_v<T, ModelWorkload>) {
            return run_model_workload(item, spec, schedules, options);
          } else {
            return run_gemm_workload(item, spec, schedules, options);
          }
        },
        workload);
  } catch (const gpu::SimulationOverBudget& stopped) {
    // The estimate before running was within the budget, but the engine spent
    // more per event than it assumes (docs/limits.md).
    config::Loaded<std::vector<WorkloadRun>> refused;
    refused.diagnostics.add(
        workload_location(workload),
        fmt::format("workloads[{}].{}", index, workload_kind(workload)),
        fmt::format("simulation stopped after {:.3g} events of effort, the most a budget of "
                    "{:.3g} allows (docs/limits.md): many CTAs contend for several full "
                    "resources at once, which makes every event costly; make it smaller, or "
                    "raise the budget with --max-events",
                    stopped.effort_events(), options.max_effort_events / kEffortPerBudgetEvent));
    return refused;
  }
}

}  // namespace

config::Loaded<std::vector<WorkloadRun>> run_study(const Study& study, const hw::HardwareSpec& spec,
                                                   const GemmScheduleRegistry& schedules,
                                                   const gpu::SimulationOptions& options) {
  config::Loaded<std::vector<WorkloadRun>> loaded;
  std::vector<WorkloadRun> runs;
  for (std::size_t i = 0; i < study.workloads.size(); ++i) {
    config::Loaded<std::vector<WorkloadRun>> workload_runs =
        run_workload(study.workloads[i], i, spec, schedules, options);
    loaded.diagnostics.append(workload_runs.diagnostics);
    if (workload_runs.ok()) {
      for (WorkloadRun& run : *workload_runs.value) runs.push_back(std::move(run));
    }
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(runs);
  return loaded;
}

}  // namespace tilesim::workloads
