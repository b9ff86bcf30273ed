#include "workloads/measurement/measurement_comparison.hpp"

#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::workloads {

config::Loaded<std::vector<ComparedGemm>> simulate_measured(const std::vector<MeasuredGemm>& rows,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            LibrarySchedule library_schedule,
                                                            double max_events) {
  Study study;
  for (const MeasuredGemm& row : rows) {
    GemmWorkload workload = row.workload;
    if (workload.kernel == "library" && library_schedule == LibrarySchedule::choose) {
      workload.schedule = "auto";
    }
    study.workloads.emplace_back(std::move(workload));
  }
  config::Loaded<std::vector<ComparedGemm>> compared;
  // Each workload sits on its row's line: problems are the row's.
  const config::Diagnostics problems = check_study_cost(study, spec, schedules, max_events);
  for (const config::Diagnostic& problem : problems.items()) {
    const bool whole = problem.key_path.starts_with("workloads[");
    compared.diagnostics.add(problem.where, whole ? "row" : problem.key_path, problem.message);
  }
  if (!compared.diagnostics.empty()) return compared;
  gpu::SimulationOptions options;
  options.max_effort_events = max_events;
  config::Loaded<std::vector<WorkloadRun>> runs = run_study(study, spec, schedules, options);
  compared.diagnostics = std::move(runs.diagnostics);
  if (!runs.ok()) return compared;
  std::vector<ComparedGemm> result;
  // Concrete schedules and `auto` give one run per workload, in order.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const WorkloadRun& run = (*runs.value)[i];
    result.push_back({rows[i], run.schedule, run.result.time_us()});
  }
  compared.value = std::move(result);
  return compared;
}

}  // namespace tilesim::workloads
