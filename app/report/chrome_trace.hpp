#pragma once
// `--trace`: a Chrome trace ({"traceEvents": [...]}, ts/dur in microseconds)
// that opens in ui.perfetto.dev. Per workload: a host process (launch calls and
// one track per stream with its kernels), an SM process with one track per SM
// CTA slot and one slice per CTA (args: tile, k-range, bytes), and counter
// tracks for HBM and L2 bandwidth in use.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/report/study_report.hpp"

namespace tilesim::report {

// Trace events one trace may hold (CTA slices, segments, fixup waits,
// bandwidth samples). Each takes about a kilobyte while the JSON is built, so a
// trace stays under half a GiB to build and tens of MB on disk, which Perfetto
// opens in seconds; a larger study is traced at a smaller shape.
inline constexpr std::size_t kMaxTraceEvents = 200000;

// Nothing when the trace would hold more than `max_events` events: building
// stops there.
std::optional<nlohmann::ordered_json> chrome_trace(const StudyReport& report,
                                                   std::size_t max_events = kMaxTraceEvents);

}  // namespace tilesim::report
