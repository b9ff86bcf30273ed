#pragma once
// Where a run left the GPU idle. A launch gap is time between the first
// kernel's start and the last one's end with no kernel running (the host or
// the front end was late); SM idle time is SM-time with no CTA resident.

#include <vector>

#include "sim/engine/sim_time.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

struct KernelIdleTime {
  // No kernel was running between the end of the kernels before it and its start.
  sim::SimTime gap_before;
  // Averaged over SMs: time within its own start..end with none of its CTAs resident.
  double sm_idle_us = 0;
};

// One entry per kernel of the result, in its order.
std::vector<KernelIdleTime> kernel_idle_times(const SimulationResult& result);
// The sum of every kernel's gap_before: the time no kernel ran.
sim::SimTime launch_gaps(const SimulationResult& result);
// Averaged over SMs: time between start() and end() with no CTA resident.
double sm_idle_us(const SimulationResult& result);
// The same from the result's sm_utilization(), where the caller has it already.
double sm_idle_us(const SimulationResult& result, double sm_utilization);

}  // namespace tilesim::gpu
