#pragma once
// `tilesim simulate STUDY.yaml`: simulate every workload, print a table, and
// optionally write JSON, CSV and a Chrome trace.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

// Adds the subcommand; `exit_code` receives its status when it runs.
void add_simulate_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
