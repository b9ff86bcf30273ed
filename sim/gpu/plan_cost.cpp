#include "sim/gpu/plan_cost.hpp"

#include <algorithm>

#include "sim/gpu/block_scheduler.hpp"

namespace tilesim::gpu {
namespace {

// CTAs sampled per kernel: the first, the last and evenly spaced ones between,
// so edge tiles, split ranges and varying sequence lengths are all seen.
constexpr std::int64_t kSampledCtas = 8;

// Events per unit of work, fitted on the shipped studies (docs/limits.md).
constexpr double kEventsPerCta = 1;
constexpr double kEventsPerStep = 1;
constexpr double kEventsPerBlockRead = 0.5;
constexpr double kEventsPerKernel = 4;
// Building the GPU (SMs, L2, HBM) and the result, whatever the plan.
constexpr double kEventsPerSimulation = 300;

}  // namespace

double PlanCost::events() const {
  return kEventsPerSimulation * simulations + kEventsPerKernel * kernels + kEventsPerCta * ctas +
         kEventsPerStep * steps + kEventsPerBlockRead * block_reads;
}

PlanCost& PlanCost::operator+=(const PlanCost& other) {
  simulations += other.simulations;
  kernels += other.kernels;
  ctas += other.ctas;
  steps += other.steps;
  block_reads += other.block_reads;
  resident_steps += other.resident_steps;
  return *this;
}

PlanCost PlanCost::scaled(double factor) const {
  return {simulations * factor, kernels * factor,     ctas * factor,
          steps * factor,       block_reads * factor, resident_steps * factor};
}

PlanCost estimate_plan_cost(const KernelPlan& plan, const hw::HardwareSpec& spec) {
  const BlockScheduler scheduler(spec.sm);
  PlanCost cost;
  cost.simulations = 1;
  for (const KernelLaunch& launch : plan.kernels) {
    cost.kernels += 1;
    if (launch.cta_count <= 0 || !launch.programs) continue;
    const std::int64_t samples = std::min(kSampledCtas, launch.cta_count);
    double steps = 0;
    double reads = 0;
    for (std::int64_t i = 0; i < samples; ++i) {
      const std::int64_t cta = samples == 1 ? 0 : i * (launch.cta_count - 1) / (samples - 1);
      const CtaProgram program = launch.programs->program(cta);
      steps += static_cast<double>(program.steps.size());
      for (const CtaStep& step : program.steps) reads += static_cast<double>(step.reads.size());
    }
    const double per_sample = static_cast<double>(launch.cta_count) / static_cast<double>(samples);
    cost.ctas += static_cast<double>(launch.cta_count);
    cost.steps += steps * per_sample;
    cost.block_reads += reads * per_sample;
    const double resident =
        std::min(static_cast<double>(launch.cta_count),
                 static_cast<double>(spec.sm.count) * scheduler.ctas_per_sm(launch.footprint));
    cost.resident_steps += steps * per_sample * resident;
  }
  return cost;
}

}  // namespace tilesim::gpu
