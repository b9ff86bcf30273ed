#include "app/cli/sweep_command.hpp"

#include <fmt/format.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "app/cli/cli_context.hpp"
#include "app/cli/progress_bar.hpp"
#include "app/report/html_report.hpp"
#include "app/report/sweep_csv.hpp"
#include "app/report/sweep_journal.hpp"
#include "app/report/sweep_plots.hpp"
#include "app/report/sweep_shard_file.hpp"
#include "tilesim_version.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_cost.hpp"
#include "workloads/sweep/sweep_loader.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_shard.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::cli {
namespace {

struct SweepOptions {
  std::string sweep_path;
  std::optional<std::string> hardware;
  std::vector<std::string> assignments;
  std::string csv_path;
  std::string svg_path;
  std::string html_path;
  int threads = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  double max_events = workloads::kDefaultMaxEvents;
  bool approximate = false;
  bool resume = false;
  std::optional<std::size_t> stop_after;
  std::optional<std::string> shard_text;  // --shard I/N
  std::vector<std::string> merge_paths;   // --merge: the shards' CSV files
};

// The signal that asked the sweep to stop (SIGINT, SIGTERM), or 0. A signal
// handler can reach nothing but a static, so this one flag is one.
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void request_stop(int signal) {
  stop_signal = signal;
  std::signal(signal, SIG_DFL);  // a second Ctrl-C ends the process at once
}

// Catches SIGINT and SIGTERM while a sweep runs, restoring what was there after.
class StopOnSignal {
 public:
  StopOnSignal()
      : previous_int_(std::signal(SIGINT, request_stop)),
        previous_term_(std::signal(SIGTERM, request_stop)) {
    stop_signal = 0;
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  ~StopOnSignal() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
  }

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

std::string file_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Everything the rows depend on: the sweep file, the options, the hardware and
// kernel profile files it loaded and the build. Resuming, or merging shards,
// made with other inputs is refused.
std::string fingerprint(const SweepOptions& options, const workloads::SweepSpec& spec) {
  std::vector<std::string> inputs = {TILESIM_VERSION, TILESIM_GIT_DESCRIBE,
                                     file_text(options.sweep_path), options.hardware.value_or("")};
  inputs.insert(inputs.end(), options.assignments.begin(), options.assignments.end());
  for (const hw::HardwareSpec& hardware : spec.hardware) {
    inputs.push_back(file_text(hardware.source_path));
    for (const auto& [name, profile] : hardware.kernel_profiles) {
      inputs.push_back(name + "\n" + file_text(profile.source_path));
    }
  }
  return report::sweep_fingerprint(inputs);
}

config::Loaded<workloads::SweepSpec> load_checked_sweep(
    const SweepOptions& options, const workloads::GemmScheduleRegistry& schedules) {
  config::Loaded<std::vector<hw::FieldOverride>> overrides =
      hw::parse_field_overrides(options.assignments);
  if (!overrides.ok()) return {std::nullopt, std::move(overrides.diagnostics)};
  workloads::SweepLoadOptions load_options{config_dir(), options.hardware, *overrides.value,
                                           workloads::study_schedule_names(schedules)};
  load_options.max_events = options.max_events;
  load_options.threads = options.threads;
  config::Loaded<workloads::SweepSpec> spec =
      workloads::load_sweep(options.sweep_path, load_options);
  if (!spec.ok()) return spec;
  config::Diagnostics over_budget =
      workloads::check_sweep_cost(*spec.value, schedules, options.max_events);
  if (!over_budget.empty()) return {std::nullopt, std::move(over_budget)};
  return spec;
}

// The CSV path that gets rows as jobs finish: a file named by --csv.
bool journaled(const SweepOptions& options) {
  return !options.csv_path.empty() && options.csv_path != "-";
}

int report_stop(const SweepOptions& options, const workloads::SweepSpec& spec,
                std::size_t jobs_done, const report::SweepJournal* journal) {
  std::cerr << fmt::format("tilesim: sweep stopped after {} of {} simulations", jobs_done,
                           spec.jobs.size());
  if (journal != nullptr) {
    std::cerr << fmt::format(
        "; the finished rows are in {}; `tilesim sweep {}{} --csv {} --resume` "
        "continues",
        journal->partial_path().string(), options.sweep_path,
        options.shard_text ? " --shard " + *options.shard_text : "", options.csv_path);
  }
  std::cerr << "\n";
  return kExitStopped;
}

// The CSV (unless the journal wrote it), the plot and the HTML report of a
// complete sweep; false when one could not be written.
bool write_outputs(const SweepOptions& options, const workloads::SweepSpec& spec,
                   const workloads::SweepResult& result, bool csv_written) {
  bool ok = true;
  // With no output named, the CSV goes to stdout.
  if (!csv_written &&
      (!options.csv_path.empty() || (options.svg_path.empty() && options.html_path.empty()))) {
    ok = write_output(options.csv_path.empty() ? "-" : options.csv_path,
                      report::sweep_csv(spec, result)) &&
         ok;
  }
  if (!options.svg_path.empty()) {
    ok = write_output(options.svg_path, report::sweep_plot_svg(spec, result)) && ok;
  }
  if (!options.html_path.empty()) {
    ok =
        write_output(options.html_path, report::sweep_html(spec, result, options.sweep_path)) && ok;
  }
  return ok;
}

// Options that make no sense together; the problem, if any.
std::optional<std::string> conflicting_options(const SweepOptions& options) {
  if (!options.merge_paths.empty()) {
    if (options.shard_text) return "--merge: error: cannot be used with --shard";
    if (options.resume) return "--merge: error: cannot be used with --resume";
    if (options.stop_after) return "--merge: error: cannot be used with --stop-after";
  }
  if (options.shard_text && (!options.svg_path.empty() || !options.html_path.empty())) {
    return fmt::format(
        "{}: error: a shard holds part of the sweep; draw it from the merged shards "
        "(`tilesim sweep {} --merge SHARD.csv... {} PATH`)",
        options.svg_path.empty() ? "--html" : "--svg", options.sweep_path,
        options.svg_path.empty() ? "--html" : "--svg");
  }
  if (options.resume && !journaled(options)) {
    return "--resume: error: needs --csv PATH, the file the sweep writes its rows to";
  }
  return std::nullopt;
}

// `--merge`: the outputs of one run from the CSV files of all its shards.
int merge_shards(const SweepOptions& options, const workloads::SweepSpec& spec,
                 const std::string& sweep_fingerprint) {
  const config::Loaded<workloads::SweepResult> merged =
      report::merge_sweep_shards(spec, sweep_fingerprint, options.merge_paths);
  if (!merged.ok()) {
    print_diagnostics(merged.diagnostics);
    return kExitInputError;
  }
  return write_outputs(options, spec, *merged.value, false) ? kExitOk : kExitInputError;
}

int run_sweep_command(const SweepOptions& options) {
  if (const std::optional<std::string> problem = conflicting_options(options)) {
    std::cerr << *problem << "\n";
    return kExitInputError;
  }
  std::optional<workloads::SweepShard> shard;
  if (options.shard_text) {
    const workloads::ParsedSweepShard parsed = workloads::parse_sweep_shard(*options.shard_text);
    if (!parsed.shard) {
      std::cerr << "--shard: error: " << parsed.problem << "\n";
      return kExitInputError;
    }
    shard = parsed.shard;
  }
  // From here on Ctrl-C stops the sweep cleanly, checking its points included.
  const StopOnSignal catch_signals;
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<workloads::SweepSpec> loaded = load_checked_sweep(options, schedules);
  if (!loaded.ok()) {
    print_diagnostics(loaded.diagnostics);
    return kExitInputError;
  }
  const std::string sweep_fingerprint = fingerprint(options, *loaded.value);
  if (!options.merge_paths.empty()) return merge_shards(options, *loaded.value, sweep_fingerprint);
  if (stop_signal != 0) {
    std::cerr << "tilesim: sweep stopped before its first simulation\n";
    return kExitStopped;
  }
  // A shard runs its share of the jobs, each keeping its number in the sweep.
  const workloads::SweepSpec spec =
      shard ? workloads::shard_spec(std::move(*loaded.value), *shard) : std::move(*loaded.value);
  const report::JobColumn job_column = shard ? report::JobColumn::yes : report::JobColumn::no;
  std::optional<report::SweepJournal> journal;
  if (journaled(options)) {
    const std::string progress_name =
        sweep_fingerprint + (shard ? " shard " + shard->text() : std::string());
    config::Loaded<report::SweepJournal> opened =
        options.resume
            ? report::SweepJournal::resume(spec, job_column, options.csv_path, progress_name)
            : report::SweepJournal::start(spec, job_column, options.csv_path, progress_name);
    if (!opened.ok()) {
      print_diagnostics(opened.diagnostics);
      return kExitInputError;
    }
    journal = std::move(opened.value);
  }
  workloads::SweepResult result;
  if (journal) {
    for (const workloads::SweepJobRuns& job : journal->done()) {
      result.add(job, spec.jobs[job.job].point);
    }
  }
  std::optional<std::string> write_problem;
  config::Loaded<workloads::SweepResult> ran;
  {
    ProgressBar progress("simulations");
    std::size_t started = 0;
    workloads::SweepRunOptions run_options;
    run_options.threads = options.threads;
    run_options.first_job = journal ? journal->jobs_done() : 0;
    run_options.max_effort_events = workloads::effort_limit(options.max_events);
    run_options.approximate = options.approximate;
    run_options.progress = [&progress](std::size_t done, std::size_t total) {
      progress.update(done, total);
    };
    run_options.stop_requested = [&] {
      return stop_signal != 0 || write_problem.has_value() ||
             (options.stop_after && started++ >= *options.stop_after);
    };
    run_options.on_job = [&](workloads::SweepJobRuns&& job) {
      if (journal && !write_problem) write_problem = journal->add(job);
      result.add(job, spec.jobs[job.job].point);
    };
    ran = workloads::run_sweep(spec, schedules, run_options);
  }
  if (write_problem) {
    std::cerr << fmt::format("{}: error: {}\n", journal->partial_path().string(), *write_problem);
    return kExitInputError;
  }
  if (!ran.ok()) {
    print_diagnostics(ran.diagnostics);
    return kExitInputError;
  }
  result.jobs_done = ran.value->jobs_done;
  if (result.jobs_done < spec.jobs.size()) {
    return report_stop(options, spec, result.jobs_done, journal ? &*journal : nullptr);
  }
  if (shard) {
    // A shard's CSV ends with its closing line, so that a merge knows it whole.
    const std::string closing =
        report::shard_closing_line(*shard, sweep_fingerprint, spec.jobs.size(), result.runs.size());
    if (journal) {
      if (const std::optional<std::string> problem = journal->finish(closing)) {
        std::cerr << fmt::format("{}: error: {}\n", options.csv_path, *problem);
        return kExitInputError;
      }
      return kExitOk;
    }
    return write_output("-", report::sweep_csv(spec, result, job_column) + closing)
               ? kExitOk
               : kExitInputError;
  }
  bool ok = true;
  if (journal) {
    if (const std::optional<std::string> problem = journal->finish()) {
      std::cerr << fmt::format("{}: error: {}\n", options.csv_path, *problem);
      ok = false;
    }
  }
  return write_outputs(options, spec, result, journal.has_value()) && ok ? kExitOk
                                                                         : kExitInputError;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep", "Simulate one workload over a grid of workload and hardware values (CSV, SVG)");
  command
      ->add_option("sweep", options->sweep_path,
                   "Sweep YAML (e.g. configs/sweeps/stream_k_vs_m.yaml)")
      ->required();
  command->add_option("--csv", options->csv_path,
                      "Write one CSV row per point and schedule to PATH ('-' for stdout; the "
                      "default when --svg is not given). Rows go to PATH.partial as points "
                      "finish; PATH appears when all are done");
  command->add_option(
      "--svg", options->svg_path,
      "Write the plot to PATH: a line chart for one varied key, a heat map for two");
  command->add_option("--html", options->html_path,
                      "Write one self-contained HTML report (plot, sortable rows) to PATH");
  command->add_option("-j,--jobs", options->threads, "Worker threads (default: one per core)")
      ->check(CLI::Range(1, 1024));
  command->add_option("--hw", options->hardware,
                      "Hardware to use instead of the sweep's: a name under configs/hw/ or a path");
  command->add_option(
      "--set", options->assignments,
      "Override a hardware field at every point, e.g. --set hbm.bandwidth=\"4.8 TB/s\" "
      "(repeatable)");
  command->add_flag("--resume", options->resume,
                    "Continue a stopped sweep from PATH.partial and PATH.progress (--csv PATH), "
                    "skipping the points it finished");
  command
      ->add_option("--stop-after", options->stop_after,
                   "Stop cleanly after N more simulations, as Ctrl-C would (exit status 130); "
                   "--resume continues")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--shard", options->shard_text,
                      "Simulate only shard I of N (I counts from 0): the jobs I, I+N, I+2N, ... "
                      "(with --csv; --merge joins the shards' files)");
  command
      ->add_option("--merge", options->merge_paths,
                   "Join the CSV files of all shards of the sweep (--shard I/N) into the "
                   "outputs of one run (--csv, --svg, --html); simulates nothing")
      ->expected(1, -1);
  add_max_events_option(*command, options->max_events);
  add_approximate_option(*command, options->approximate);
  command->callback([options, &exit_code] { exit_code = run_sweep_command(*options); });
}

}  // namespace tilesim::cli
