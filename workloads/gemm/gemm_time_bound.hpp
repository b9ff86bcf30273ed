#pragma once
// A lower bound on the simulated time of a GEMM with a given tile, whatever its
// schedule: every schedule issues at least the problem's MACs on the SMs'
// tensor cores, pulls every tile's A and B panels through L2 once (TMA
// multicast shared by a cluster) and moves A, B and C through HBM once.
// `schedule: auto` uses it to skip candidates that cannot place first or
// second; a test checks it never exceeds a simulated time.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

double gemm_time_lower_bound_s(const GemmProblem& problem, const hw::KernelProfile& kernel,
                               const hw::HardwareSpec& spec);

// The compute term of that bound for a run under way: sets `options`'
// work_flops and peak_flops_per_s (SimulationOptions) to the problem's flops,
// unpadded, and the rate that term runs them at, so that a candidate `auto`
// stops at the best time stops as soon as what it has left cannot end in time
// (bench/README.md, round 12).
void bound_remaining_work(gpu::SimulationOptions& options, const GemmProblem& problem,
                          const hw::KernelProfile& kernel, const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
