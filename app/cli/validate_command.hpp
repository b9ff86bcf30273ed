#pragma once
// `tilesim validate FILE...`: check hardware, study and sweep YAML files without
// simulating; every problem of every file is reported.

#include <CLI/CLI.hpp>

namespace tilesim::cli {

void add_validate_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
