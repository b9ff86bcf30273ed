#pragma once
// `tilesim simulate --csv`: one row per workload with its fields (so a row can
// be re-simulated) and the predicted time, throughput and bytes per level.

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/report/csv_table.hpp"
#include "app/report/study_report.hpp"
#include "workloads/run_summary.hpp"

namespace tilesim::report {

// The columns after the fields that describe a run, in order.
inline constexpr std::array<const char*, 9> kMetricColumns = {
    "time_us",         "tflops",        "sm_utilization", "l2_read_bytes", "hbm_read_bytes",
    "hbm_write_bytes", "launch_gap_us", "sm_idle_us",     "kernels"};

// The rows as fields, for reports that add columns (sweeps). Parameter columns
// come in order of first appearance over the rows.
CsvTable csv_table(std::span<const workloads::RunSummary> runs);

// The same row by row, for a CSV written as runs finish (sweeps): adds the
// run's parameters not yet in `columns` at their end, true if there were any.
bool add_parameter_columns(const workloads::RunSummary& run, std::vector<std::string>& columns);
std::vector<std::string> csv_header(const std::vector<std::string>& parameter_columns);
std::vector<std::string> csv_row(const workloads::RunSummary& run,
                                 const std::vector<std::string>& parameter_columns);
// A row read back (resuming a sweep): csv_row of the result gives the same
// fields. Nothing when the header or a metric is not csv_header's.
std::optional<workloads::RunSummary> read_csv_row(const std::vector<std::string>& header,
                                                  const std::vector<std::string>& row);

std::string csv_report(const StudyReport& report);

}  // namespace tilesim::report
