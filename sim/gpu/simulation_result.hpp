#pragma once
// Everything one run of a KernelPlan produced: per kernel, per CTA and per
// memory level. Reports (app/report) format it; nothing here formats.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/fluid_counts.hpp"
#include "sim/engine/sim_time.hpp"
#include "sim/gpu/cta_time_use.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct MemoryTraffic {
  double l2_read_bytes = 0;   // requested by SMs (a multicast read counts once)
  double hbm_read_bytes = 0;  // L2 misses
  double write_bytes = 0;     // stored by SMs, written back to HBM
  // Inline: every CTA step adds one (the executor's begin_step).
  MemoryTraffic& operator+=(const MemoryTraffic& other) {
    l2_read_bytes += other.l2_read_bytes;
    hbm_read_bytes += other.hbm_read_bytes;
    write_bytes += other.write_bytes;
    return *this;
  }
  double hbm_bytes() const { return hbm_read_bytes + write_bytes; }
};

struct TimeSpan {
  sim::SimTime begin;
  sim::SimTime end;
};

// When a CTA worked on one of its segments (a tile and k-range).
struct SegmentSpan {
  CtaWorkLabel label;
  TimeSpan span;
};

// What a CTA did, as the executor saw it.
struct CtaOutcome {
  MemoryTraffic traffic;
  double flops = 0;  // as issued, padding included
  std::vector<SegmentSpan> segments;
  std::vector<TimeSpan> waits;  // on fixup flags
};

struct CtaRecord {
  std::int32_t kernel = 0;
  std::int64_t cta = 0;
  std::int32_t sm = 0;
  std::int32_t slot = 0;    // which of the SM's CTA slots it held (a trace track)
  sim::SimTime dispatched;  // slot taken
  sim::SimTime finished;    // slot given back
  CtaOutcome outcome;
};

struct KernelRecord {
  std::string name;
  int stream = 0;
  sim::SimTime host_issue_begin;  // launch call on the host
  sim::SimTime host_issue_end;
  // Its launch had reached the GPU and its dependencies were done (plus the
  // front end's gap): from here it waits only for room on the SMs.
  sim::SimTime ready;
  sim::SimTime start;  // first CTA dispatched
  sim::SimTime end;    // last CTA finished, plus fixed_overhead
  // After its last CTA: its own ramp and drain (KernelLaunch::ramp_and_drain_s)
  // and, for the plan's last kernel only, what the run pays once
  // (KernelLaunch::fixed_overhead_s).
  sim::SimTime fixed_overhead;
  std::int64_t cta_count = 0;
  int ctas_per_sm = 0;  // occupancy: resident CTAs one SM can hold
  double flops = 0;     // as issued by its CTAs, padding included
  MemoryTraffic traffic;
  // Full waves the grid needs: cta_count / (SMs x ctas_per_sm), for reading the
  // result; the time itself comes from the simulation.
  double waves = 0;
  // Per SM, what the time of this kernel's CTAs on it went to (summed over
  // CTAs, so several resident at once count several times); empty unless
  // SimulationOptions::attribute_time is set.
  std::vector<CtaTimeUses> time_use_per_sm;
};

struct BandwidthSample {
  sim::SimTime time;
  double hbm_bytes_per_s = 0;
  double l2_bytes_per_s = 0;
};

struct SimulationResult {
  int sm_count = 0;
  int max_ctas_per_sm = 0;
  std::vector<KernelRecord> kernels;
  std::vector<CtaRecord> ctas;
  std::vector<BandwidthSample> bandwidth;  // only when asked for (traces)
  std::uint64_t events = 0;
  // Which kinds of work the events were (the speed benchmarks); not reported.
  sim::FluidCounts fluid_counts;
  // The run passed SimulationOptions::stop_after_s and stopped there: its
  // time is longer than that, and nothing else in it is final.
  bool stopped = false;

  sim::SimTime start() const;  // first kernel start
  sim::SimTime end() const;    // last kernel end
  double time_us() const { return (end() - start()).us(); }
  MemoryTraffic traffic() const;
  double flops() const;
  // Share of SM-time between start() and end() with at least one CTA resident.
  double sm_utilization() const;
};

}  // namespace tilesim::gpu
