// tilesim: the command-line front end. Thin: parse arguments, call the
// libraries, print. Every command has --help.

#include <string>
#include <vector>

#include "app/cli/keep_freed_memory.hpp"
#include "app/cli/tilesim_app.hpp"

int main(int argc, char** argv) {
  tilesim::cli::keep_freed_memory();
  return tilesim::cli::run_tilesim(std::vector<std::string>(argv, argv + argc));
}
