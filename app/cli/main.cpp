// tilesim: the command-line front end. Thin: parse arguments, call the
// libraries, print. Every command has --help.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "app/cli/cli_context.hpp"
#include "app/cli/compare_command.hpp"
#include "app/cli/schema_command.hpp"
#include "app/cli/simulate_command.hpp"
#include "app/cli/sweep_command.hpp"
#include "app/cli/validate_command.hpp"
#include "tilesim_version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"tilesim: a discrete-event GPU performance simulator for tiled kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       fmt::format("tilesim {} ({})", TILESIM_VERSION, TILESIM_GIT_DESCRIBE));
  int exit_code = tilesim::cli::kExitOk;
  tilesim::cli::add_simulate_command(app, exit_code);
  tilesim::cli::add_sweep_command(app, exit_code);
  tilesim::cli::add_validate_command(app, exit_code);
  tilesim::cli::add_schema_command(app, exit_code);
  tilesim::cli::add_compare_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version end here too, with status 0.
    return app.exit(error) == 0 ? tilesim::cli::kExitOk : tilesim::cli::kExitUsage;
  } catch (const std::exception& error) {
    // A bug, not an input problem: say so plainly instead of aborting.
    std::cerr << fmt::format("tilesim: internal error: {}\n", error.what());
    return tilesim::cli::kExitInternal;
  }
  return exit_code;
}
