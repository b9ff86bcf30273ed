#pragma once
// The measurement CSV (one row per workload; shared/DESIGN.md's contract, read
// by `tilesim compare`; attention columns in kernels/README.md) and its JSON
// sidecar (environment + the same rows).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
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

// Why the row's checked run failed, e.g. "rel_error 3.10e-01 above its bound
// 1.00e-02 (cuBLAS fp32 reference)", "12 non-finite outputs (NaN or Inf)",
// "wrote past the end of its output"; nullopt when it passed. A failed case is
// not timed and has no row in the CSV: the sidecar lists it under
// `failed_checks` with this reason (failed_check_json), and tilesim-measure
// says so and exits with status 1.
std::optional<std::string> check_failure(const AnyMeasuredRow& row);

// The GEMM header line: the contract's columns first, extras after.
std::string csv_header();
std::string csv_row(const MeasuredRow& row);

// The whole CSV, rows in study order, those that failed their check left out. GEMM rows only:
// csv_header() and csv_row() lines. With attention rows: the attention columns (the contract's
// order) after the GEMM columns when both kinds are present; a row fills its
// own columns and leaves the others empty (an attention row's `variant` is set).
std::string measurement_csv(const std::vector<AnyMeasuredRow>& rows);

nlohmann::json row_json(const MeasuredRow& row);
nlohmann::json row_json(const MeasuredAttentionRow& row);

// A failed row for the sidecar: its `name`, `why` (check_failure) and what the
// check found, without timing fields.
nlohmann::json failed_check_json(const AnyMeasuredRow& row);

}  // namespace tilesim::measure
