#pragma once
// `tilesim compare --measured FILE.csv`: re-simulates every measured row and
// reports predicted against measured (docs/validation.md).

#include <CLI/CLI.hpp>

namespace tilesim::cli {

void add_compare_command(CLI::App& app, int& exit_code);

}  // namespace tilesim::cli
