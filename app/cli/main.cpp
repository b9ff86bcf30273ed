// tilesim: the command-line front end. Thin: parse arguments, call the
// libraries, print. Every command has --help.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "app/cli/cli_context.hpp"
#include "app/cli/compare_command.hpp"
#include "app/cli/explain_command.hpp"
#include "app/cli/hierarchy_command.hpp"
#include "app/cli/roofline_command.hpp"
#include "app/cli/schema_command.hpp"
#include "app/cli/simulate_command.hpp"
#include "app/cli/sweep_command.hpp"
#include "app/cli/validate_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"tilesim: a discrete-event GPU performance simulator for tiled kernels"};
  app.require_subcommand(1);
  int exit_code = tilesim::cli::kExitOk;
  tilesim::cli::add_simulate_command(app, exit_code);
  tilesim::cli::add_sweep_command(app, exit_code);
  tilesim::cli::add_validate_command(app, exit_code);
  tilesim::cli::add_schema_command(app, exit_code);
  tilesim::cli::add_compare_command(app, exit_code);
  tilesim::cli::add_explain_command(app, exit_code);
  tilesim::cli::add_roofline_command(app, exit_code);
  tilesim::cli::add_hierarchy_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    // A bug, not an input problem: say so plainly instead of aborting.
    std::cerr << fmt::format("tilesim: internal error: {}\n", error.what());
    return 3;
  }
  return exit_code;
}
