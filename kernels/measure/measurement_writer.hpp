#pragma once
// The measurement CSV (one row per workload; shared/DESIGN.md's contract, read
// by `tilesim compare`) and its JSON sidecar (environment + the same rows).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/gemm_measurement.hpp"

namespace tilesim::measure {

struct MeasuredRow {
  GemmCase gemm;
  GemmMeasurement measurement;
};

// The header line: the contract's columns first, extras after.
std::string csv_header();
std::string csv_row(const MeasuredRow& row);

nlohmann::json row_json(const MeasuredRow& row);

}  // namespace tilesim::measure
