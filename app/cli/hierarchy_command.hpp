#pragma once
// `tilesim hierarchy [--hw NAME|PATH] [--svg PATH]`: the memory hierarchy of a
// hardware file as a table, and as a picture of stacked levels.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

// Adds the subcommand; `exit_code` receives its status when it runs.
void add_hierarchy_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
