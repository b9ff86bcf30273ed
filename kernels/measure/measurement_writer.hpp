#pragma once
// The measurement CSV (one row per workload; shared/DESIGN.md's contract, read
// by `tilesim compare`; attention columns in kernels/README.md) and its JSON
// sidecar (environment + the same rows).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "kernels/measure/attention_case.hpp"
#include "kernels/measure/attention_measurement.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/gemm_measurement.hpp"

namespace tilesim::measure {

struct MeasuredRow {
  GemmCase gemm;
  GemmMeasurement measurement;
};

struct MeasuredAttentionRow {
  AttentionCase attention;
  AttentionMeasurement measurement;
};

using AnyMeasuredRow = std::variant<MeasuredRow, MeasuredAttentionRow>;

// The kernel profile (configs/kernels/) that describes what ran: `library`
// for cuBLAS, else the profile of the compiled tile variant launched (an
// unaligned wgmma case runs the mma.sync fallback: `tilesim_ref`).
std::string measured_profile(const GemmCase& gemm);

// The GEMM header line: the contract's columns first, extras after.
std::string csv_header();
std::string csv_row(const MeasuredRow& row);

// The whole CSV, rows in study order. GEMM rows only: csv_header() and
// csv_row() lines. With attention rows: the attention columns (the contract's
// order) after the GEMM columns when both kinds are present; a row fills its
// own columns and leaves the others empty (an attention row's `variant` is set).
std::string measurement_csv(const std::vector<AnyMeasuredRow>& rows);

nlohmann::json row_json(const MeasuredRow& row);
nlohmann::json row_json(const MeasuredAttentionRow& row);

}  // namespace tilesim::measure
