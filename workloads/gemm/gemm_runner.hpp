#pragma once
// Simulates a GEMM workload: lowered with its registered schedule on the
// kernel profile it names, each on a fresh GPU (cold L2); `auto` simulates
// the candidates that could win and keeps the fastest, `compare` reports them
// all.

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/gemm/gemm_workload.hpp"
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

// What `auto` picks for `workload`, as a workload of that schedule, tile and
// splits (what a vendor library's heuristic does per shape); any other
// schedule is returned as it is.
config::Loaded<GemmWorkload> chosen_gemm(const GemmWorkload& workload, const hw::HardwareSpec& spec,
                                         const GemmScheduleRegistry& schedules,
                                         const gpu::SimulationOptions& options = {});

// How many candidates `auto` is expected to simulate for `workload`: those
// whose lower bound is within 1.5x the best one (it stops at the first bound
// past the second-best time, and the fastest candidates run within ~1.5x of
// their bounds), at least two.
std::size_t expected_auto_runs(const GemmWorkload& workload, const hw::HardwareSpec& spec);

// A `compare` workload yields one run per candidate, named
// "<name>/<schedule>"; any other one run.
config::Loaded<std::vector<WorkloadRun>> run_gemm_workload(const GemmWorkload& workload,
                                                           const hw::HardwareSpec& spec,
                                                           const GemmScheduleRegistry& schedules,
                                                           const gpu::SimulationOptions& options);

}  // namespace tilesim::workloads
