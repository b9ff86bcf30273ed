#pragma once
// Which hardware-file fields the microbenchmarks measure, and their values:
// the physics of calibration in one place. A field whose result is missing or
// not positive is left out, so the base file's value stays.

#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

struct MeasuredField {
  std::string key_path;  // "l2.bandwidth"
  std::string value;     // YAML scalar, e.g. "7.12 TB/s"
  std::string comment;   // "measured: ...", without the leading '#'
};

// `base` supplies what a measurement is relative to (the datasheet HBM peak);
// `date` (YYYY-MM-DD) goes into every comment.
std::vector<MeasuredField> measured_fields(const std::vector<MicrobenchResult>& results,
                                           const hw::HardwareSpec& base, const std::string& date);

}  // namespace tilesim::microbench
