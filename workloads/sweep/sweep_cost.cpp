#include "workloads/sweep/sweep_cost.hpp"

#include <fmt/format.h>

#include <set>

#include "workloads/workload_cost.hpp"

namespace tilesim::workloads {
namespace {

// Points with problems reported in full; the rest are counted.
constexpr std::size_t kMaxProblemPoints = 10;

}  // namespace

config::Diagnostics at_sweep_point(const SweepSpec& spec, std::size_t point,
                                   const config::Diagnostics& problems) {
  config::Diagnostics mapped;
  if (spec.axes.empty()) return problems;
  const SweepSource& source = spec.point_source(point);
  for (const config::Diagnostic& problem : problems.items()) {
    mapped.add(source.where, source.key_path,
               fmt::format("at {}: {}{}{}", spec.point_description(point), problem.key_path,
                           problem.key_path.empty() ? "" : ": ", problem.message));
  }
  return mapped;
}

config::Diagnostics check_sweep_cost(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                     double max_events) {
  config::Diagnostics problems;
  std::set<std::string> reported;  // a problem every point has is reported once
  std::size_t problem_points = 0;
  gpu::PlanCost total;
  for (const SweepJob& job : spec.jobs) {
    config::Loaded<gpu::PlanCost> cost =
        estimate_workload_cost(job.workload, spec.hardware.at(job.hardware), schedules);
    config::Diagnostics found = cost.diagnostics;
    if (cost.ok()) {
      total += *cost.value;
      if (cost.value->events() > max_events) {
        found.add({}, "", over_budget_message(*cost.value, max_events));
      }
    }
    config::Diagnostics fresh;
    for (const config::Diagnostic& problem : found.items()) {
      if (reported.insert(problem.key_path + problem.message).second) {
        fresh.add(problem.where, problem.key_path, problem.message);
      }
    }
    if (fresh.empty()) continue;
    if (++problem_points > kMaxProblemPoints) continue;
    problems.append(at_sweep_point(spec, job.point, fresh));
  }
  if (problem_points > kMaxProblemPoints) {
    problems.add(spec.axes.front().key_source.where, "vary",
                 fmt::format("{} more points have problems", problem_points - kMaxProblemPoints));
  }
  const double overhead = kEventsPerSweepSimulation * static_cast<double>(spec.jobs.size());
  if (problems.empty() && total.events() + overhead > max_events && !spec.axes.empty()) {
    problems.add(spec.axes.front().key_source.where, "vary",
                 fmt::format("the sweep's {} simulations together: {}", spec.jobs.size(),
                             over_budget_message(total, max_events, overhead)));
  }
  return problems;
}

}  // namespace tilesim::workloads
