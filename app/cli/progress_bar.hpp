#pragma once
// A one-line progress bar on stderr for long commands, drawn only when stderr
// is a terminal so that logs and pipes get no control characters.

#include <cstddef>
#include <string>

namespace tilesim::cli {

class ProgressBar {
 public:
  // `what`: the unit counted, e.g. "simulations".
  explicit ProgressBar(std::string what);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();  // clears the line

  // Redraws when the shown percentage changes. Not thread-safe: call it from one
  // thread at a time.
  void update(std::size_t done, std::size_t total);

 private:
  std::string what_;
  bool enabled_;
  int shown_percent_ = -1;
};

}  // namespace tilesim::cli
