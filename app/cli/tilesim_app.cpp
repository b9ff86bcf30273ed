#include "app/cli/tilesim_app.hpp"

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
#include "tilesim_version.hpp"

namespace tilesim::cli {

int run_tilesim(const std::vector<std::string>& arguments) {
  CLI::App app{"tilesim: a discrete-event GPU performance simulator for tiled kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       fmt::format("tilesim {} ({})", TILESIM_VERSION, TILESIM_GIT_DESCRIBE));
  int exit_code = kExitOk;
  add_simulate_command(app, exit_code);
  add_sweep_command(app, exit_code);
  add_validate_command(app, exit_code);
  add_schema_command(app, exit_code);
  add_compare_command(app, exit_code);
  add_explain_command(app, exit_code);
  add_roofline_command(app, exit_code);
  add_hierarchy_command(app, exit_code);
  try {
    // CLI11 takes a vector in reverse order, without the program name.
    app.name(arguments.empty() ? "tilesim" : arguments.front());
    std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());
    if (!reversed.empty()) reversed.pop_back();
    app.parse(reversed);
  } catch (const CLI::ParseError& error) {
    // --help and --version end here too, with status 0.
    return app.exit(error) == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& error) {
    // A bug, not an input problem: say so plainly instead of aborting.
    std::cerr << fmt::format("tilesim: internal error: {}\n", error.what());
    return kExitInternal;
  }
  return exit_code;
}

}  // namespace tilesim::cli
