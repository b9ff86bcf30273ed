#include "app/report/chrome_trace.hpp"

#include <fmt/format.h>

#include <optional>
#include <set>

namespace tilesim::report {
namespace {

using Json = nlohmann::ordered_json;

// Each workload gets three processes: host, SMs, memory counters.
constexpr int kProcessesPerWorkload = 3;
constexpr int kHostTrack = 0;  // launch calls; streams follow from tid 1
constexpr int kStreamTrackBase = 1;

struct Pids {
  int host;
  int sms;
  int memory;
};

Json metadata(const char* what, int pid, int tid, const std::string& value, bool sort_index) {
  Json args = sort_index ? Json{{"sort_index", tid}} : Json{{"name", value}};
  return Json{{"ph", "M"}, {"name", what}, {"pid", pid}, {"tid", tid}, {"args", args}};
}

Json slice(const std::string& name, int pid, int tid, sim::SimTime begin, sim::SimTime end,
           Json args) {
  return Json{{"ph", "X"},
              {"name", name},
              {"pid", pid},
              {"tid", tid},
              {"ts", begin.us()},
              {"dur", (end - begin).us()},
              {"args", std::move(args)}};
}

void add_host_and_streams(Json& events, const workloads::WorkloadRun& run, Pids pids) {
  events.push_back(metadata("process_name", pids.host, 0, run.name + ": host and streams", false));
  events.push_back(metadata("thread_name", pids.host, kHostTrack, "host launch calls", false));
  std::set<int> streams;
  // A CUDA graph's kernels share one launch call: one slice for all of them.
  std::optional<gpu::TimeSpan> last_launch;
  for (const gpu::KernelRecord& kernel : run.result.kernels) {
    const bool same_call = last_launch && last_launch->begin == kernel.host_issue_begin &&
                           last_launch->end == kernel.host_issue_end;
    if (!same_call) {
      events.push_back(slice("launch " + kernel.name, pids.host, kHostTrack,
                             kernel.host_issue_begin, kernel.host_issue_end, Json::object()));
      last_launch = gpu::TimeSpan{kernel.host_issue_begin, kernel.host_issue_end};
    }
    const int tid = kStreamTrackBase + kernel.stream;
    if (streams.insert(kernel.stream).second) {
      events.push_back(
          metadata("thread_name", pids.host, tid, fmt::format("stream {}", kernel.stream), false));
    }
    events.push_back(slice(kernel.name, pids.host, tid, kernel.start, kernel.end,
                           Json{{"ctas", kernel.cta_count},
                                {"ctas_per_sm", kernel.ctas_per_sm},
                                {"waves", kernel.waves}}));
  }
}

std::string tile_name(const gpu::CtaWorkLabel& label) {
  return fmt::format("tile ({}, {})", label.tile_row, label.tile_col);
}

std::string k_range(const gpu::CtaWorkLabel& label) {
  return fmt::format("[{}, {})", label.k_begin, label.k_end);
}

// One slice for the CTA's residency; inside it, one per segment when it worked
// on several tiles (Stream-K), and one per wait on a fixup flag.
void add_cta_slices(Json& events, const gpu::SimulationResult& result, const gpu::CtaRecord& cta,
                    int pid, int tid) {
  const std::vector<gpu::SegmentSpan>& segments = cta.outcome.segments;
  const gpu::MemoryTraffic& traffic = cta.outcome.traffic;
  Json args{{"kernel", result.kernels[cta.kernel].name},
            {"cta", cta.cta},
            {"l2_read_bytes", traffic.l2_read_bytes},
            {"hbm_read_bytes", traffic.hbm_read_bytes},
            {"write_bytes", traffic.write_bytes}};
  std::string name = fmt::format("CTA {} (idle)", cta.cta);
  if (segments.size() == 1) {
    name = tile_name(segments[0].label);
    args["tile"] = fmt::format("({}, {})", segments[0].label.tile_row, segments[0].label.tile_col);
    args["k_blocks"] = k_range(segments[0].label);
  } else if (segments.size() > 1) {
    name = fmt::format("CTA {}: {} tiles", cta.cta, segments.size());
    std::string list;
    for (const gpu::SegmentSpan& segment : segments) {
      list += fmt::format("{}{} k{}", list.empty() ? "" : "; ", tile_name(segment.label),
                          k_range(segment.label));
    }
    args["segments"] = list;
  }
  if (!cta.outcome.waits.empty()) args["fixup_waits"] = cta.outcome.waits.size();
  events.push_back(slice(name, pid, tid, cta.dispatched, cta.finished, std::move(args)));
  if (segments.size() > 1) {
    for (const gpu::SegmentSpan& segment : segments) {
      events.push_back(slice(tile_name(segment.label), pid, tid, segment.span.begin,
                             segment.span.end, Json{{"k_blocks", k_range(segment.label)}}));
    }
  }
  for (const gpu::TimeSpan& wait : cta.outcome.waits) {
    events.push_back(slice("fixup wait", pid, tid, wait.begin, wait.end, Json::object()));
  }
}

// False, and stopped, once `events` holds more than `max_events`.
bool add_sm_slots(Json& events, const workloads::WorkloadRun& run, Pids pids,
                  std::size_t max_events) {
  const gpu::SimulationResult& result = run.result;
  events.push_back(metadata("process_name", pids.sms, 0, run.name + ": SMs", false));
  std::set<int> named_tracks;
  for (const gpu::CtaRecord& cta : result.ctas) {
    const int tid = cta.sm * result.max_ctas_per_sm + cta.slot;
    if (named_tracks.insert(tid).second) {
      events.push_back(metadata("thread_name", pids.sms, tid,
                                fmt::format("SM {:03} slot {}", cta.sm, cta.slot), false));
      events.push_back(metadata("thread_sort_index", pids.sms, tid, "", true));
    }
    add_cta_slices(events, result, cta, pids.sms, tid);
    if (events.size() > max_events) return false;
  }
  return true;
}

void add_bandwidth_counters(Json& events, const workloads::WorkloadRun& run, Pids pids) {
  events.push_back(metadata("process_name", pids.memory, 0, run.name + ": memory", false));
  for (const gpu::BandwidthSample& sample : run.result.bandwidth) {
    events.push_back(Json{{"ph", "C"},
                          {"name", "HBM bandwidth in use"},
                          {"pid", pids.memory},
                          {"ts", sample.time.us()},
                          {"args", {{"GB/s", sample.hbm_bytes_per_s / 1e9}}}});
    events.push_back(Json{{"ph", "C"},
                          {"name", "L2 bandwidth in use"},
                          {"pid", pids.memory},
                          {"ts", sample.time.us()},
                          {"args", {{"GB/s", sample.l2_bytes_per_s / 1e9}}}});
  }
}

}  // namespace

std::optional<nlohmann::ordered_json> chrome_trace(const StudyReport& report,
                                                   std::size_t max_events) {
  Json events = Json::array();
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    const int base = static_cast<int>(i) * kProcessesPerWorkload;
    const Pids pids{base, base + 1, base + 2};
    add_host_and_streams(events, report.runs[i], pids);
    if (!add_sm_slots(events, report.runs[i], pids, max_events)) return std::nullopt;
    add_bandwidth_counters(events, report.runs[i], pids);
    if (events.size() > max_events) return std::nullopt;
  }
  return Json{{"traceEvents", events},
              {"displayTimeUnit", "ns"},
              {"otherData", {{"study", report.study_path}, {"hardware", report.hardware->name}}}};
}

}  // namespace tilesim::report
