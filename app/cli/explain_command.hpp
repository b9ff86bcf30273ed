#pragma once
// `tilesim explain STUDY.yaml`: per workload and kernel, where the simulated
// time goes, the roofline position, what bounds it and re-simulated what-ifs.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

// Adds the subcommand; `exit_code` receives its status when it runs.
void add_explain_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
