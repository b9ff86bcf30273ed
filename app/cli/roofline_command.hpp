#pragma once
// `tilesim roofline STUDY.yaml --svg PATH [--measured FILE.csv]`: a roofline
// plot of the hardware with every workload of the study on it, and measured
// runs beside their predictions.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

// Adds the subcommand; `exit_code` receives its status when it runs.
void add_roofline_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
