#pragma once
// The cost budget: what simulating a study would cost, estimated from the
// workloads' lowered plans before anything runs (gpu::PlanCost), and the
// problems reported for inputs above the budget, so that every accepted input
// simulates in seconds and bounded memory (docs/limits.md).

#include <string>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/plan_cost.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"

namespace tilesim::workloads {

// Engine events one command may simulate unless --max-events says otherwise:
// about 10 s and 2 GiB on a 2-core laptop-class machine (docs/limits.md).
inline constexpr double kDefaultMaxEvents = 10e6;

// The effort at which a running simulation is stopped (gpu::SimulationOptions::
// max_effort_events), for a budget of `max_events` estimated events. The
// estimate counts events generously (0.9-6x those processed) and cannot see the
// engine's slow path; effort counts what the engine does, so it gets 2.5
// times the room: at most about 8 s of work (docs/limits.md).
inline constexpr double kEffortPerBudgetEvent = 2.5;
inline double effort_limit(double max_events) {
  return kEffortPerBudgetEvent * max_events;
}

// Every run the study runner would make of `workload` (all candidates of
// `compare` and `auto`), or the problems that keep it from lowering.
config::Loaded<gpu::PlanCost> estimate_workload_cost(const Workload& workload,
                                                     const hw::HardwareSpec& spec,
                                                     const GemmScheduleRegistry& schedules);

// "estimated 4.1e+09 simulation events (2.1e+08 CTAs, 6 steps each), above the
// budget of 1e+07 events ..." for problems about the budget; `overhead_events`
// are added to the plans' own.
std::string over_budget_message(const gpu::PlanCost& cost, double max_events,
                                double overhead_events = 0);

// Lowering problems of every workload, then one problem per workload above the
// budget, or, when each fits but all together do not, one at the workload that
// takes the total over it.
// `whole`: the study's total counts too (simulate, validate); without it only
// each workload is checked (compare: a measurement file is as long as the
// measurements it holds, each a real shape).
enum class StudyBudget { whole, per_workload };
config::Diagnostics check_study_cost(const Study& study, const hw::HardwareSpec& spec,
                                     const GemmScheduleRegistry& schedules, double max_events,
                                     StudyBudget budget = StudyBudget::whole);

}  // namespace tilesim::workloads
