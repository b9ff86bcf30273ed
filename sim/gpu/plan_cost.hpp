#pragma once
// What simulating a KernelPlan will cost, estimated before running it, so that
// an input too large to simulate in seconds can be refused up front.
//
// The engine's work grows with CTAs x steps: a CTA costs a dispatch, each step
// of its program a fluid flow (an event when it ends, one more when it waits
// out a memory latency), each block read a lookup in the L2 model. The step
// and read counts of a grid come from a few sampled CTA programs, scaled to the
// grid, so estimating never builds more than a handful of programs per kernel.
// Constants are fitted on GEMM and attention plans; docs/limits.md gives the
// fit and what an event costs in time and memory.

#include <cstdint>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct PlanCost {
  double simulations = 0;  // plans: each builds a GPU and a result
  double kernels = 0;
  double ctas = 0;
  double steps = 0;        // summed over every CTA's program
  double block_reads = 0;  // L2-tracked reads of those steps
  // Steps weighted by the CTAs resident beside them: when several shared
  // resources are full at once, every flow start or end recomputes the rates
  // of all active flows (sim/engine/fluid_network.hpp).
  double resident_steps = 0;

  // Events the engine is expected to process, setting up the GPU included.
  double events() const;
  PlanCost& operator+=(const PlanCost& other);
  PlanCost scaled(double factor) const;
};

PlanCost estimate_plan_cost(const KernelPlan& plan, const hw::HardwareSpec& spec);

}  // namespace tilesim::gpu
