#pragma once
// `tilesim simulate --csv`: one row per workload with its fields (so a row can
// be re-simulated) and the predicted time, throughput and bytes per level.

#include <span>
#include <string>

#include "app/report/csv_table.hpp"
#include "app/report/study_report.hpp"

namespace tilesim::report {

// The same rows as fields, for reports that add columns (sweeps).
CsvTable csv_table(std::span<const workloads::WorkloadRun> runs);

std::string csv_report(const StudyReport& report);

}  // namespace tilesim::report
