#pragma once
// Where simulated time went, as SM-time: every SM's time in a span is split
// into causes, and the causes are averaged over the SMs, so they add up to the
// span (docs/explain.md, "Attribution").
//
// An SM holding CTAs is busy; its time is shared among the causes its CTAs
// recorded (gpu::CtaTimeUse: what limited each step at each moment), in
// proportion to their CTA-time. An SM holding none is idle, for one of three
// reasons: no kernel runs at all (a launch gap), a running kernel still has
// CTAs to place (they wait for room elsewhere or for their cluster), or no CTA
// is left to place (the tail of the last wave, or a grid smaller than the GPU).

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/gpu/simulation_result.hpp"

namespace tilesim::explain {

// The first kCtaTimeUseCount causes are gpu::CtaTimeUse's, in its order.
enum class TimeCause : std::uint8_t {
  dispatch,
  overhead,
  pipeline_fill,
  flag_wait,
  memory_latency,
  hbm,
  l2,
  l2_port,
  tensor,
  fp32,
  sfu,
  other_kernels,  // the SM held only other kernels' CTAs (a kernel's own breakdown)
  waiting,        // idle while the kernel still had CTAs to place
  tail,           // idle with no CTA left to place
  launch_gap,     // no kernel running (a run's breakdown)
  kernel_fixed,   // the run's once-per-launch start and end cost, after its last CTA
};
inline constexpr std::size_t kTimeCauseCount = 16;

// A name for JSON keys ("pipeline_fill") and a phrase for people.
std::string_view time_cause_key(TimeCause cause);
std::string_view time_cause_label(TimeCause cause);

struct TimeBreakdown {
  std::array<double, kTimeCauseCount> us{};  // averaged over SMs

  double& operator[](TimeCause cause) { return us[static_cast<std::size_t>(cause)]; }
  double operator[](TimeCause cause) const { return us[static_cast<std::size_t>(cause)]; }
  double total_us() const;
};

// Kernel `kernel` from its first CTA's dispatch to its last CTA's end. The
// result must come from a simulation with SimulationOptions::attribute_time.
TimeBreakdown kernel_time_breakdown(const gpu::SimulationResult& result, std::size_t kernel);
// The whole run, from start() to end(): what time_us() reports.
TimeBreakdown run_time_breakdown(const gpu::SimulationResult& result);

}  // namespace tilesim::explain
