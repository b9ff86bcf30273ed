#include "app/cli/schema_command.hpp"

#include <iostream>

#include "app/cli/cli_context.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::cli {

void add_schema_command(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand(
      "schema", "Print the reference of every hardware and study key (docs/config.md)");
  command->callback([&exit_code] {
    std::cout << workloads::render_config_reference_markdown();
    exit_code = kExitOk;
  });
}

}  // namespace tilesim::cli
