#pragma once
// Lowers each workload of a study with its registered schedule and simulates it
// on the study's hardware, each on a fresh GPU (cold L2).

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

config::Loaded<WorkloadRun> simulate_gemm(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec,
                                          const GemmScheduleRegistry& schedules,
                                          const gpu::SimulationOptions& options = {});

// What simulating the workload costs, from its lowered plans: every candidate
// of `compare` and `auto` (an upper bound for `auto`, which stops early), and
// the problems that keep it from lowering.
config::Loaded<gpu::PlanCost> estimate_gemm_cost(const GemmWorkload& workload,
                                                 const hw::HardwareSpec& spec,
                                                 const GemmScheduleRegistry& schedules);

// The names a study's `schedule:` may take: the registry's, plus `auto`
// (simulate candidates, keep the fastest) and `compare` (report them all).
std::vector<std::string> study_schedule_names(const GemmScheduleRegistry& schedules);

// Every workload's problems are reported, not only the first's. A `compare`
// workload yields one run per candidate schedule, named "<name>/<schedule>".
config::Loaded<std::vector<WorkloadRun>> run_study(const Study& study, const hw::HardwareSpec& spec,
                                                   const GemmScheduleRegistry& schedules,
                                                   const gpu::SimulationOptions& options = {});

}  // namespace tilesim::workloads
