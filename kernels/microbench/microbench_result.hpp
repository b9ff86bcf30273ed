#pragma once
// One figure a microbenchmark measured: the median over its runs, with the
// lowest and highest run beside it, and how it was taken.

#include <string>
#include <vector>

namespace tilesim::microbench {

struct MicrobenchResult {
  std::string name;  // e.g. "hbm_read_bandwidth"
  double value = 0;  // median over runs, in `unit`
  double lowest = 0;
  double highest = 0;
  std::string unit;  // "GB/s", "ns", "us", "flop/clk", "op/clk", "B/clk", "MHz", "MiB"
  int runs = 0;
  std::string method;  // one line: what ran, on which working set, how it was timed
};

// Median, lowest and highest of `samples` (at least one), already in `unit`.
MicrobenchResult summarize(std::string name, std::string unit, std::string method,
                           std::vector<double> samples);

double median(std::vector<double> samples);

}  // namespace tilesim::microbench
