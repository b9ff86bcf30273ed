#pragma once
// The cost budget of a sweep (docs/limits.md): every job's plans are lowered
// and estimated before any runs, like a study's workloads, and the sweep is
// refused when a point, or all of them together, would cost more than the
// budget. Problems are laid at the point's value in the sweep file.

#include "hwmodels/diagnostics.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

// What each simulation of a sweep costs beyond its own plans: checking its
// point and keeping its results, in events of the budget.
inline constexpr double kEventsPerSweepSimulation = 500;

// Lowering problems and budget problems of every job.
config::Diagnostics check_sweep_cost(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                     double max_events);

// A problem of one job (found when lowering or running it), laid at its point.
config::Diagnostics at_sweep_point(const SweepSpec& spec, std::size_t point,
                                   const config::Diagnostics& problems);

}  // namespace tilesim::workloads
