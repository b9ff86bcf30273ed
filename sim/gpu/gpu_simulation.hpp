#pragma once
// Runs a KernelPlan on a GPU built from a HardwareSpec: the launch path (host
// issue, launch latency, stream order), the block scheduler dispatching CTAs in
// launch order to SMs with room, and the CTA programs on the shared resources.

#include <limits>
#include <stdexcept>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/cta_program_store.hpp"
#include "sim/gpu/kernel_load_replays.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

struct SimulationOptions {
  bool record_bandwidth = false;  // HBM/L2 bandwidth samples, for traces
  bool attribute_time = false;    // what CTAs' time went to (KernelRecord::time_use_per_sm)
  // The run stops with SimulationOverBudget once the engine's effort, in
  // events (sim::Simulator::effort), exceeds this.
  double max_effort_events = std::numeric_limits<double>::infinity();
  // Approximate mode (docs/model.md, "Approximate mode") is both of these;
  // with both off, every result is the exact event-by-event one.
  bool fast_forward_waves = false;   // skip waves that repeat (WaveFastForward)
  bool fast_forward_units = false;   // skip steady units of persistent CTAs (UnitFastForward)
  bool estimate_power_load = false;  // the power law's load from estimate_kernel_load, not a run
  // A run whose time (from its first CTA's dispatch) passes this, in seconds,
  // has SimulationResult::stopped set, and stops as soon as the engine's clock
  // passes it: a schedule search needs no more of a candidate that has lost.
  double stop_after_s = std::numeric_limits<double>::infinity();
  // With stop_after_s: a lower bound on the tensor flops the plan issues, and
  // an upper bound on the rate the whole GPU can issue them at sm.clock, of
  // which no SM's tensor cores issue more than an equal share. The run also
  // stops once the flops not begun yet, at that rate scaled by the kernels'
  // clock, or the tensor flops not begun yet of one SM's CTAs at its share,
  // would end it past stop_after_s, its fixed costs after its last CTA
  // counted (and, where the load estimate built the next CTA's program, the
  // wait of a CTA still to dispatch: GpuRun::cannot_dispatch_in_time): it
  // would have been stopped anyway, later (0: no bound).
  double work_flops = 0;
  double peak_flops_per_s = 0;
  // Where the run takes its CTA programs' storage from and leaves it when it
  // ends (not owned; one run at a time; null: fresh storage): a caller that
  // simulates plan after plan keeps one. No result depends on it.
  CtaProgramStore* program_store = nullptr;
  // Where approximate mode's load estimate keeps its replays and takes the
  // replays of rounds equal to ones it replayed before (not owned; runs on
  // several threads may share it; null: every estimate replays). No result
  // depends on it.
  KernelLoadReplays* load_replays = nullptr;
  void set_approximate(bool on) {
    fast_forward_waves = fast_forward_units = estimate_power_load = on;
  }
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
