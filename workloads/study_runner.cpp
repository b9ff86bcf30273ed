#include "workloads/study_runner.hpp"

#include <fmt/format.h>

#include "hwmodels/data_type.hpp"

namespace tilesim::workloads {
namespace {

std::vector<WorkloadParameter> gemm_parameters(const GemmWorkload& workload,
                                               const hw::KernelProfile& config) {
  const GemmProblem& problem = workload.problem;
  std::vector<WorkloadParameter> parameters = {
      {"m", problem.m},
      {"n", problem.n},
      {"k", problem.k},
      {"dtype", std::string(hw::to_string(problem.input_type))},
      {"out_dtype", std::string(hw::to_string(problem.output_type))},
      {"tile_m", std::int64_t{config.tile_m}},
      {"tile_n", std::int64_t{config.tile_n}},
      {"tile_k", std::int64_t{config.tile_k}},
      {"stages", std::int64_t{config.stages}},
      {"warps", std::int64_t{config.warps}},
      {"swizzle", std::int64_t{config.swizzle}},
      {"cluster_m", std::int64_t{config.cluster.m}},
      {"cluster_n", std::int64_t{config.cluster.n}},
  };
  if (workload.splits) parameters.push_back({"splits", std::int64_t{*workload.splits}});
  return parameters;
}

}  // namespace

config::Loaded<WorkloadRun> simulate_gemm(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec,
                                          const GemmScheduleRegistry& schedules,
                                          const gpu::SimulationOptions& options) {
  config::Loaded<WorkloadRun> loaded;
  const GemmSchedule* schedule = schedules.find(workload.schedule);
  if (schedule == nullptr) {
    loaded.diagnostics.add(workload.where, workload.name + ".schedule",
                           fmt::format("unknown schedule '{}'; allowed: {}", workload.schedule,
                                       fmt::join(schedules.names(), ", ")));
    return loaded;
  }
  config::Loaded<hw::KernelProfile> config = resolve_gemm_kernel(workload, spec);
  if (!config.ok()) {
    loaded.diagnostics = std::move(config.diagnostics);
    return loaded;
  }
  const gpu::KernelPlan plan = schedule->lower(workload, *config.value, spec);
  WorkloadRun run;
  run.name = workload.name;
  run.kind = "gemm";
  run.schedule = workload.schedule;
  run.kernel = workload.kernel;
  run.parameters = gemm_parameters(workload, *config.value);
  run.useful_flops = workload.problem.flops();
  run.result = gpu::simulate(plan, spec, options);
  loaded.value = std::move(run);
  return loaded;
}

config::Loaded<std::vector<WorkloadRun>> run_study(const Study& study, const hw::HardwareSpec& spec,
                                                   const GemmScheduleRegistry& schedules,
                                                   const gpu::SimulationOptions& options) {
  config::Loaded<std::vector<WorkloadRun>> loaded;
  std::vector<WorkloadRun> runs;
  for (const Workload& workload : study.workloads) {
    config::Loaded<WorkloadRun> run = std::visit(
        [&](const GemmWorkload& gemm) { return simulate_gemm(gemm, spec, schedules, options); },
        workload);
    loaded.diagnostics.append(run.diagnostics);
    if (run.ok()) runs.push_back(std::move(*run.value));
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(runs);
  return loaded;
}

}  // namespace tilesim::workloads
