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

// The kernel profile (configs/kernels/) that describes what ran: `library`
// for cuBLAS, else the profile of the compiled tile variant launched (an
// unaligned wgmma case runs the mma.sync fallback: `tilesim_ref`).
std::string measured_profile(const GemmCase& gemm);

// The header line: the contract's columns first, extras after.
std::string csv_header();
std::string csv_row(const MeasuredRow& row);

nlohmann::json row_json(const MeasuredRow& row);

// Writes `text` to `path`; false (with errno's reason in `error`) on failure.
bool write_text_file(const std::filesystem::path& path, const std::string& text,
                     std::string& error);

}  // namespace tilesim::measure
