#pragma once
// `tilesim simulate --timeline PATH.svg`: a picture of where every CTA ran.
// One panel per workload, all on the same time axis so schedules can be put
// side by side: one row per SM, a bar per CTA (coloured by its output tile; a
// Stream-K CTA shows each tile it worked on), fixup waits in red, idle SMs
// white.

#include <string>

#include "app/report/study_report.hpp"

namespace tilesim::report {

std::string timeline_svg(const StudyReport& report);

}  // namespace tilesim::report
