#include "app/cli/sweep_command.hpp"

#include <memory>
#include <thread>

#include "app/cli/cli_context.hpp"
#include "app/cli/progress_bar.hpp"
#include "app/report/html_report.hpp"
#include "app/report/sweep_csv.hpp"
#include "app/report/sweep_plots.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/sweep/sweep_loader.hpp"
#include "workloads/sweep/sweep_runner.hpp"

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
};

int run_sweep_command(const SweepOptions& options) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  config::Loaded<std::vector<hw::FieldOverride>> overrides = parse_overrides(options.assignments);
  if (!overrides.ok()) {
    print_diagnostics(overrides.diagnostics);
    return kExitInputError;
  }
  const workloads::SweepLoadOptions load_options{config_dir(), options.hardware, *overrides.value,
                                                 workloads::study_schedule_names(schedules)};
  config::Loaded<workloads::SweepSpec> spec =
      workloads::load_sweep(options.sweep_path, load_options);
  if (!spec.ok()) {
    print_diagnostics(spec.diagnostics);
    return kExitInputError;
  }
  config::Loaded<workloads::SweepResult> result;
  {
    ProgressBar progress("simulations");
    workloads::SweepRunOptions run_options;
    run_options.threads = options.threads;
    run_options.progress = [&progress](std::size_t done, std::size_t total) {
      progress.update(done, total);
    };
    result = workloads::run_sweep(*spec.value, schedules, run_options);
  }
  if (!result.ok()) {
    print_diagnostics(result.diagnostics);
    return kExitInputError;
  }
  bool ok = true;
  // With no output named, the CSV goes to stdout.
  const bool no_output =
      options.csv_path.empty() && options.svg_path.empty() && options.html_path.empty();
  const std::string csv_path = no_output ? "-" : options.csv_path;
  if (!csv_path.empty()) {
    ok = write_output(csv_path, report::sweep_csv(*spec.value, *result.value)) && ok;
  }
  if (!options.svg_path.empty()) {
    ok = write_output(options.svg_path, report::sweep_plot_svg(*spec.value, *result.value)) && ok;
  }
  if (!options.html_path.empty()) {
    ok = write_output(options.html_path,
                      report::sweep_html(*spec.value, *result.value, options.sweep_path)) &&
         ok;
  }
  return ok ? kExitOk : kExitInputError;
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
                      "default when --svg is not given)");
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
  command->callback([options, &exit_code] { exit_code = run_sweep_command(*options); });
}

}  // namespace tilesim::cli
