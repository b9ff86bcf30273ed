#include "sim/gpu/plan_estimate.hpp"

#include <algorithm>

#include "hwmodels/power_law.hpp"
#include "sim/gpu/kernel_load_estimate.hpp"
#include "sim/gpu/launch_timing.hpp"

namespace tilesim::gpu {

PlanEstimate estimate_plan(const KernelPlan& plan, const hw::HardwareSpec& spec) {
  PlanEstimate estimate;
  estimate.clock_fractions.reserve(plan.kernels.size());
  estimate.programs.reserve(plan.kernels.size());
  double fixed_s = 0;
  for (const KernelLaunch& launch : plan.kernels) {
    KernelLoadEstimate kernel = estimate_kernel_load(launch, spec);
    const double fraction =
        hw::power_limited_clock_hz(spec.power, spec.sm.clock_hz, kernel.load) / spec.sm.clock_hz;
    estimate.clock_fractions.push_back(fraction);
    estimate.programs.push_back(std::move(kernel.programs));
    estimate.time_s += kernel.time_s(fraction);
    fixed_s = std::max(fixed_s, launch.fixed_overhead_s);
  }
  if (!plan.kernels.empty()) {
    estimate.time_s +=
        static_cast<double>(plan.kernels.size() - 1) * dependency_gap(spec.launch).seconds() +
        fixed_s;
  }
  return estimate;
}

}  // namespace tilesim::gpu
