#pragma once
// What the commands share: where configs live and how problems reach the user.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/measurement/measurement_comparison.hpp"
#include "workloads/study.hpp"

namespace tilesim::cli {

// Exit statuses of every command (README.md, Exit status).
constexpr int kExitOk = 0;
constexpr int kExitInputError = 1;   // a config, study, measurement, budget or output problem
constexpr int kExitUsage = 2;        // the command line itself: unknown option, missing argument
constexpr int kExitInternal = 3;     // a bug in tilesim, reported instead of aborting
constexpr int kExitRowsSkipped = 4;  // outputs written; measured rows over the budget skipped
constexpr int kExitStopped = 130;    // a sweep stopped early (Ctrl-C, SIGTERM, --stop-after)

// $TILESIM_CONFIG_DIR when set, else the installed share/tilesim/configs beside
// the executable, else configs/ of the source tree it was built from.
std::filesystem::path config_dir();

void print_diagnostics(const config::Diagnostics& diagnostics);

// Measured rows skipped as over the cost budget, one warning each:
// "file:line:col: warning: row: NAME skipped: REASON".
void print_skipped_rows(const std::vector<workloads::SkippedRow>& skipped);

// A study with the hardware it names (or `hw_override`), ready to simulate.
struct LoadedStudy {
  workloads::Study study;
  std::string hardware_reference;
  hw::HardwareSpec hardware;
};

config::Loaded<LoadedStudy> load_study_and_hardware(
    const std::filesystem::path& study_path, const std::optional<std::string>& hw_override,
    const std::vector<hw::FieldOverride>& overrides,
    const workloads::GemmScheduleRegistry& schedules);

// What simulate, explain and roofline read from their command line: a study,
// and the hardware to run it on when not the study's own.
struct StudyInput {
  std::string study_path;
  std::optional<std::string> hardware;   // --hw
  std::vector<std::string> assignments;  // --set key=value
};

// The study argument (required), --hw and --set, with the same help everywhere.
void add_study_input_options(CLI::App& command, StudyInput& input);

// `--set` assignments parsed, then the study and its hardware loaded as above.
config::Loaded<LoadedStudy> load_study_for_run(const StudyInput& input,
                                               const workloads::GemmScheduleRegistry& schedules);

// --max-events: the cost budget of the command (docs/limits.md).
void add_max_events_option(CLI::App& command, double& max_events);

// --approximate: approximate mode (docs/model.md, "Approximate mode").
void add_approximate_option(CLI::App& command, bool& approximate);

// Writes `text` to `path`, or to stdout when path is "-"; false with a message on failure.
bool write_output(const std::string& path, const std::string& text);

}  // namespace tilesim::cli
