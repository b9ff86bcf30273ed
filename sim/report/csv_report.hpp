#pragma once
// `tilesim simulate --csv`: one row per workload with its fields (so a row can
// be re-simulated) and the predicted time, throughput and bytes per level.

#include <string>

#include "sim/report/study_report.hpp"

namespace tilesim::report {

std::string csv_report(const StudyReport& report);

}  // namespace tilesim::report
