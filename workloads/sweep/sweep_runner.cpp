#include "workloads/sweep/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "workloads/study_runner.hpp"

namespace tilesim::workloads {

namespace {

// A job as a one-workload study, so that `auto` and `compare` work as in a study.
config::Loaded<std::vector<WorkloadRun>> run_job(const SweepSpec& spec, const SweepJob& job,
                                                 const GemmScheduleRegistry& schedules) {
  Study study;
  study.source_path = spec.source_path;
  study.workloads.emplace_back(job.workload);
  return run_study(study, spec.hardware.at(job.hardware), schedules);
}

// The series of one of several runs of a job (`compare`): the schedule simulated,
// less the settings chosen per point ("split_k:serial:splits=5" -> "split_k:serial"),
// so that a candidate is one line across the points.
std::string candidate_series(const std::string& schedule) {
  std::string series;
  std::size_t start = 0;
  while (start <= schedule.size()) {
    const std::size_t colon = std::min(schedule.find(':', start), schedule.size());
    const std::string part = schedule.substr(start, colon - start);
    if (part.find('=') == std::string::npos) series += (series.empty() ? "" : ":") + part;
    start = colon + 1;
  }
  return series;
}

}  // namespace

config::Loaded<SweepResult> run_sweep(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                      const SweepRunOptions& options) {
  const std::size_t total = spec.jobs.size();
  std::vector<config::Loaded<std::vector<WorkloadRun>>> results(total);
  std::vector<std::exception_ptr> failures(total);
  std::atomic<std::size_t> next_job{0};
  std::mutex progress_mutex;
  std::size_t done = 0;
  auto work = [&] {
    for (std::size_t job = next_job++; job < total; job = next_job++) {
      try {
        results[job] = run_job(spec, spec.jobs[job], schedules);
      } catch (...) {
        failures[job] = std::current_exception();
      }
      const std::scoped_lock lock(progress_mutex);
      ++done;
      if (options.progress) options.progress(done, total);
    }
  };
  {
    const std::size_t threads = std::clamp<std::size_t>(static_cast<std::size_t>(options.threads),
                                                        1, std::max<std::size_t>(total, 1));
    std::vector<std::jthread> workers;
    for (std::size_t i = 1; i < threads; ++i) workers.emplace_back(work);
    work();
  }  // the workers join here
  // The first failure by job index, so that what is reported does not depend on timing.
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  config::Loaded<SweepResult> loaded;
  SweepResult sweep;
  for (std::size_t job = 0; job < total; ++job) {
    loaded.diagnostics.append(results[job].diagnostics);
    if (!results[job].ok()) continue;
    std::vector<WorkloadRun>& runs = *results[job].value;
    for (WorkloadRun& run : runs) {
      sweep.run_points.push_back(spec.jobs[job].point);
      sweep.run_series.push_back(runs.size() > 1 ? candidate_series(run.schedule)
                                                 : workload_series(spec.jobs[job].workload));
      sweep.runs.push_back(std::move(run));
    }
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(sweep);
  return loaded;
}

}  // namespace tilesim::workloads
