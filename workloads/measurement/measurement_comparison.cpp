#include "workloads/measurement/measurement_comparison.hpp"

#include "workloads/study_runner.hpp"

namespace tilesim::workloads {

Study measured_study(const std::vector<MeasuredGemm>& rows, LibrarySchedule library_schedule) {
  Study study;
  for (const MeasuredGemm& row : rows) {
    GemmWorkload workload = row.workload;
    if (workload.kernel == "library" && library_schedule == LibrarySchedule::choose) {
      workload.schedule = "auto";
    }
    study.workloads.emplace_back(std::move(workload));
  }
  return study;
}

config::Loaded<std::vector<ComparedGemm>> simulate_measured(const std::vector<MeasuredGemm>& rows,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            LibrarySchedule library_schedule) {
  gpu::SimulationOptions options;
  options.record_bandwidth = false;
  config::Loaded<std::vector<WorkloadRun>> runs =
      run_study(measured_study(rows, library_schedule), spec, schedules, options);
  config::Loaded<std::vector<ComparedGemm>> compared;
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
