#pragma once
// Reads a measurement CSV (written by `tilesim-measure`; columns in
// kernels/README.md) into workloads that can be re-simulated from each row
// alone, with the measured times beside them. Each row is checked by the same
// declarations as a study's workload, so a bad value is reported the same way,
// as file:line:column of the CSV with the column's name and what is allowed.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

struct MeasuredGemm {
  GemmWorkload workload;  // schedule, kernel and tile as measured
  double time_us = 0;     // median of the runs
  std::optional<double> time_us_p90;
  int line = 0;  // 1-based line of the row in the CSV
};

// `gemm_schedules`: the names a row's `schedule` may take (concrete schedules,
// not `auto` or `compare`).
config::Loaded<std::vector<MeasuredGemm>> read_measured_csv(
    const std::filesystem::path& path, const std::vector<std::string>& gemm_schedules);

// The same for CSV text held in memory; `origin` names it in diagnostics.
config::Loaded<std::vector<MeasuredGemm>> read_measured_csv_text(
    const std::string& text, const std::string& origin,
    const std::vector<std::string>& gemm_schedules);

}  // namespace tilesim::workloads
