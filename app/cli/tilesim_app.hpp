#pragma once
// The whole `tilesim` command as one function, so that the executable and the
// Python module run the same parsing, checks and messages.

#include <string>
#include <vector>

namespace tilesim::cli {

// `arguments[0]` is the program name, as in argv. Writes to std::cout and
// std::cerr; returns the exit status (README.md, Exit status).
int run_tilesim(const std::vector<std::string>& arguments);

}  // namespace tilesim::cli
