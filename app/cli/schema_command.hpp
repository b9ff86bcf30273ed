#pragma once
// `tilesim schema`: prints the reference of every hardware and study key
// (docs/config.md is this output, checked by a test).

#include <CLI/CLI.hpp>

namespace tilesim::cli {

void add_schema_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
