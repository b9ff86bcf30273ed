#pragma once
// `--trace`: a Chrome trace ({"traceEvents": [...]}, ts/dur in microseconds)
// that opens in ui.perfetto.dev. Per workload: a host process (launch calls and
// one track per stream with its kernels), an SM process with one track per SM
// CTA slot and one slice per CTA (args: tile, k-range, bytes), and counter
// tracks for HBM and L2 bandwidth in use.

#include <nlohmann/json.hpp>

#include "app/report/study_report.hpp"

namespace tilesim::report {

nlohmann::ordered_json chrome_trace(const StudyReport& report);

}  // namespace tilesim::report
