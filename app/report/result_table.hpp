#pragma once
// The human-readable summary `tilesim simulate` prints on stdout.

#include <string>

#include "app/report/study_report.hpp"

namespace tilesim::report {

std::string result_table(const StudyReport& report);

}  // namespace tilesim::report
