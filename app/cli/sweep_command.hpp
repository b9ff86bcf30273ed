#pragma once
// `tilesim sweep SWEEP.yaml`: simulate one workload over a grid of workload and
// hardware values (docs/sweeps.md), in parallel, and write a CSV and an SVG plot.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

// Adds the subcommand; `exit_code` receives its status when it runs.
void add_sweep_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
