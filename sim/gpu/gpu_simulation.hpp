#pragma once
// Runs a KernelPlan on a GPU built from a HardwareSpec: the launch path (host
// issue, launch latency, stream order), the block scheduler dispatching CTAs in
// launch order to SMs with room, and the CTA programs on the shared resources.

#include <limits>
#include <stdexcept>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

struct SimulationOptions {
  bool record_bandwidth = false;  // HBM/L2 bandwidth samples, for traces
  bool attribute_time = false;    // what CTAs' time went to (KernelRecord::time_use_per_sm)
  // The run stops with SimulationOverBudget once the engine's effort, in
  // events (sim::Simulator::effort), exceeds this.
  double max_effort_events = std::numeric_limits<double>::infinity();
  // Approximate mode (docs/model.md, "Approximate mode"): repeating waves are
  // fast-forwarded (WaveFastForward) and the power law's clock comes from an
  // estimated load (estimate_kernel_load), not a first simulation. Off, every
  // result is the exact event-by-event one.
  bool approximate = false;
};

// A run stopped at SimulationOptions::max_effort_events.
class SimulationOverBudget : public std::runtime_error {
 public:
  explicit SimulationOverBudget(double effort_events);
  double effort_events() const { return effort_events_; }

 private:
  double effort_events_;
};

SimulationResult simulate(const KernelPlan& plan, const hw::HardwareSpec& spec,
                          const SimulationOptions& options = {});

}  // namespace tilesim::gpu
