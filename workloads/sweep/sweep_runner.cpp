#include "workloads/sweep/sweep_runner.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "sim/gpu/cta_program_store.hpp"
#include "sim/gpu/kernel_load_replays.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_cost.hpp"

namespace tilesim::workloads {

namespace {

// What a job left: its runs in summary, or its problems, or the exception of a bug.
struct FinishedJob {
  config::Loaded<SweepJobRuns> runs;
  std::exception_ptr crash;
};

// A job as a one-workload study, so that `auto` and `compare` work as in a study.
// `programs`: the worker's, kept from job to job; `replays`: the workers'.
FinishedJob run_job(const SweepSpec& spec, std::size_t index, const GemmScheduleRegistry& schedules,
                    const SweepRunOptions& options, gpu::CtaProgramStore& programs,
                    gpu::KernelLoadReplays& replays) {
  FinishedJob finished;
  try {
    const SweepJob& job = spec.jobs[index];
    Study study;
    study.source_path = spec.source_path;
    study.workloads.emplace_back(job.workload);
    gpu::SimulationOptions simulation;
    simulation.max_effort_events = options.max_effort_events;
    simulation.set_approximate(options.approximate);
    simulation.program_store = &programs;
    simulation.load_replays = &replays;
    config::Loaded<std::vector<WorkloadRun>> runs =
        run_study(study, spec.hardware.at(job.hardware), schedules, simulation);
    finished.runs.diagnostics = at_sweep_point(spec, job.point, runs.diagnostics);
    if (runs.ok()) {
      SweepJobRuns done;
      done.job = index;
      for (const WorkloadRun& run : *runs.value) {
        done.series.push_back(sweep_run_series(job, run.schedule, runs.value->size()));
        done.runs.push_back(summarize(run));
      }
      finished.runs.value = std::move(done);
    }
  } catch (...) {
    finished.crash = std::current_exception();
  }
  return finished;
}

// "split_k:serial:splits=5" -> "split_k:serial".
std::string without_settings(const std::string& schedule) {
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

// Hands finished jobs on in job order; a job that fails (or crashes) ends
// the sweep after the jobs before it.
class InOrderDelivery {
 public:
  InOrderDelivery(const SweepSpec& spec, const SweepRunOptions& options)
      : spec_(spec), options_(options), next_(options.first_job) {
    result_.jobs_done = options.first_job;
  }

  // False once nothing more is to be handed on.
  bool accepting() const { return !failed_; }

  void finished(std::size_t job, FinishedJob&& outcome) {
    waiting_.emplace(job, std::move(outcome));
    while (!failed_ && !waiting_.empty() && waiting_.begin()->first == next_) {
      FinishedJob done = std::move(waiting_.begin()->second);
      waiting_.erase(waiting_.begin());
      if (done.crash || !done.runs.ok()) {
        failed_ = true;
        crash_ = done.crash;
        problems_ = std::move(done.runs.diagnostics);
        waiting_.clear();
        return;
      }
      result_.add(*done.runs.value, spec_.jobs[next_].point);
      if (options_.on_job) options_.on_job(std::move(*done.runs.value));
      result_.jobs_done = ++next_;
    }
  }

  config::Loaded<SweepResult> take() && {
    if (crash_) std::rethrow_exception(crash_);
    if (failed_) return {std::nullopt, std::move(problems_)};
    return {std::move(result_), {}};
  }

 private:
  const SweepSpec& spec_;
  const SweepRunOptions& options_;
  std::size_t next_;  // the job to hand on next
  std::map<std::size_t, FinishedJob> waiting_;
  SweepResult result_;
  bool failed_ = false;
  std::exception_ptr crash_;
  config::Diagnostics problems_;
};

}  // namespace

std::string sweep_run_series(const SweepJob& job, const std::string& run_schedule,
                             std::size_t runs_in_job) {
  return runs_in_job > 1 ? without_settings(run_schedule) : workload_series(job.workload);
}

void SweepResult::add(const SweepJobRuns& job, std::size_t point) {
  for (std::size_t i = 0; i < job.runs.size(); ++i) {
    runs.push_back(job.runs[i]);
    run_jobs.push_back(job.job);
    run_points.push_back(point);
    run_series.push_back(job.series[i]);
  }
}

config::Loaded<SweepResult> run_sweep(const SweepSpec& spec, const GemmScheduleRegistry& schedules,
                                      const SweepRunOptions& options) {
  const std::size_t total = spec.jobs.size();
  std::mutex mutex;  // guards what follows
  std::size_t next_job = std::min(options.first_job, total);
  std::size_t done = next_job;
  bool stopping = false;
  InOrderDelivery delivery(spec, options);
  gpu::KernelLoadReplays replays;  // the workers'
  auto work = [&] {
    gpu::CtaProgramStore programs;  // this worker's
    for (;;) {
      std::size_t job = 0;
      {
        const std::scoped_lock lock(mutex);
        stopping = stopping || !delivery.accepting() ||
                   (options.stop_requested && options.stop_requested());
        if (stopping || next_job >= total) return;
        job = next_job++;
      }
      FinishedJob outcome = run_job(spec, job, schedules, options, programs, replays);
      const std::scoped_lock lock(mutex);
      delivery.finished(job, std::move(outcome));
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
  return std::move(delivery).take();
}

}  // namespace tilesim::workloads
