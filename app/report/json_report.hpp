#pragma once
// `tilesim simulate --json`: {"results": [...]} with one item per workload
// (name, time_us, schedule, per-kernel entries, bytes per memory level).
// Keys keep their insertion order and numbers print exactly, so the same input
// gives the same bytes.

#include <nlohmann/json.hpp>

#include "app/report/study_report.hpp"

namespace tilesim::report {

nlohmann::ordered_json json_report(const StudyReport& report);

}  // namespace tilesim::report
