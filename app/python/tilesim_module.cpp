// _tilesim: the Python extension behind `import tilesim`. It runs the tilesim
// command in-process with its output captured, so Python gets exactly the
// checks, messages and results of the command line; app/python/tilesim/
// turns that output into dicts and exceptions.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app/cli/keep_freed_memory.hpp"
#include "app/cli/tilesim_app.hpp"

namespace {

// Points a standard stream at a string buffer for one call, and back after.
class CapturedStream {
 public:
  explicit CapturedStream(std::ostream& stream) : stream_(stream), saved_(stream.rdbuf()) {
    stream_.rdbuf(buffer_.rdbuf());
  }
  ~CapturedStream() { stream_.rdbuf(saved_); }
  CapturedStream(const CapturedStream&) = delete;
  CapturedStream& operator=(const CapturedStream&) = delete;
  std::string text() const { return buffer_.str(); }

 private:
  std::ostream& stream_;
  std::streambuf* saved_;
  std::ostringstream buffer_;
};

// (exit status, stdout, stderr) of `tilesim <arguments...>`.
std::tuple<int, std::string, std::string> run(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv{"tilesim"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  CapturedStream out(std::cout);
  CapturedStream err(std::cerr);
  // The GIL stays held: the capture is process-wide, so calls must not overlap.
  const int status = tilesim::cli::run_tilesim(argv);
  return {status, out.text(), err.text()};
}

}  // namespace

PYBIND11_MODULE(_tilesim, module) {
  module.doc() = "The tilesim command, run in-process (use the `tilesim` package instead).";
  // The command's allocator policy: without it each point of a sweep gives its
  // memory back to the kernel and the next faults it in again (bench/README.md,
  // round 7). Process-wide, as in the command; mallopt cannot be undone after a
  // call, so it is set once, on import.
  tilesim::cli::keep_freed_memory();
  module.def("run", &run, pybind11::arg("arguments"),
             "Runs `tilesim <arguments...>`; returns (exit status, stdout, stderr).");
}
