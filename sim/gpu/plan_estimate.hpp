#pragma once
// Approximate mode's estimate of a whole plan (kernel_load_estimate.hpp per
// kernel): each kernel's clock from its estimated load, the CTA programs the
// estimate built (the simulation takes them over), and the plan's estimated
// time, which ranks `auto`'s candidates before any of them is simulated.

#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct PlanEstimate {
  std::vector<double> clock_fractions;            // per kernel, of sm.clock
  std::vector<std::vector<CtaProgram>> programs;  // per kernel, its first CTAs'
  // The kernels one after another at their clocks, each after the front end's
  // dependency gap, plus the plan's fixed cost (its largest kernel's). A
  // ranking, not a prediction: streams that overlap are not modelled.
  double time_s = 0;
};

PlanEstimate estimate_plan(const KernelPlan& plan, const hw::HardwareSpec& spec);

}  // namespace tilesim::gpu
