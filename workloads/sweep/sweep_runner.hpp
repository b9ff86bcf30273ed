#pragma once
// Runs the jobs of a sweep on a pool of worker threads. Finished jobs are
// handed on in job order, each kept as run summaries (its per-CTA records
// dropped), so the output is the same bytes for any number of threads and a
// sweep of thousands of points holds little memory. A sweep can start past
// jobs already done (resuming) and stop between jobs when asked (Ctrl-C).

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/run_summary.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

// One finished job: one run, or one per candidate for `compare`, each with the
// series (a line, or a heat-map column) it belongs to.
struct SweepJobRuns {
  std::size_t job = 0;
  std::vector<RunSummary> runs;
  std::vector<std::string> series;
};

// The series of a run: the schedule the job asked for, or, for a job with
// several runs, the schedule simulated less the settings chosen per point
// ("split_k:serial:splits=5" -> "split_k:serial"), so that a candidate is one
// line across the points.
std::string sweep_run_series(const SweepJob& job, const std::string& run_schedule,
                             std::size_t runs_in_job);

struct SweepRunOptions {
  int threads = 1;
  std::size_t first_job = 0;  // the jobs before it are done already
  // Each simulation stops at this effort (gpu::SimulationOptions).
  double max_effort_events = std::numeric_limits<double>::infinity();
  bool approximate = false;  // gpu::SimulationOptions::set_approximate
  // Asked before each job starts; true: no further job starts, those running
  // finish and are handed on. May be empty.
  std::function<bool()> stop_requested;
  // After each job with the number done so far, one call at a time (from the
  // worker threads). May be empty.
  std::function<void(std::size_t done, std::size_t total)> progress;
  // Every finished job, in job order, one call at a time. May be empty.
  std::function<void(SweepJobRuns&&)> on_job;
};

// The runs of the jobs from first_job on, in job order.
struct SweepResult {
  std::vector<RunSummary> runs;
  std::vector<std::size_t> run_jobs;    // the job of each run (an index into SweepSpec::jobs)
  std::vector<std::size_t> run_points;  // the grid point of each run
  std::vector<std::string> run_series;
  std::size_t jobs_done = 0;  // first_job plus the jobs handed on

  void add(const SweepJobRuns& job, std::size_t point);
};

// A job that cannot be simulated stops the sweep like a stop request, after
// the jobs before it; its problems come back. Schedules must be safe to call
// from several threads at once (they are stateless).
config::Loaded<SweepResult> run_sweep(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                      const SweepRunOptions& options);

}  // namespace tilesim::workloads
