#pragma once
// Runs every job of a sweep on a pool of worker threads. Each job's runs are
// stored at the job's index, so the output is the same bytes for any number of
// threads.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/sweep/sweep_spec.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

struct SweepRunOptions {
  int threads = 1;
  // Called after each job with the number done so far, one call at a time (from
  // the worker threads); may be empty.
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// The runs of a sweep in job order. A job yields one run, or one per candidate
// for `schedule: compare`.
struct SweepResult {
  std::vector<WorkloadRun> runs;
  std::vector<std::size_t> run_points;  // the grid point of each run
  std::vector<std::string> run_series;  // the line or heat-map column it belongs to:
                                        // the schedule asked for, or for a job with
                                        // several runs, the schedule simulated
};

// Schedules must be safe to call from several threads at once (they are stateless).
config::Loaded<SweepResult> run_sweep(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                      const SweepRunOptions& options);

}  // namespace tilesim::workloads
