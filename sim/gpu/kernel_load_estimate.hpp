#pragma once
// Approximate mode's load for the power law (hwmodels/power_law.hpp): what a
// kernel draws at sm.clock, estimated from its plan instead of measured by a
// first simulation. The grid runs in rounds of as many CTAs as the GPU holds;
// the first kReplayedRounds are replayed through the L2 reuse model without
// timing (the round's CTAs step by step in turn, as they run together), which
// gives their flops, L2 bytes and HBM bytes; later rounds take the replayed
// ones' per-CTA means (the first round's misses left out: a cold L2). A
// round lasts as long as the busiest of its SM's execution units, L2 or HBM
// at full bandwidth, plus one CTA dispatch and one memory latency (the
// pipeline fill); the load is flops and HBM bytes over the rounds' sum.

#include "hwmodels/hardware_spec.hpp"
#include "hwmodels/power_law.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

hw::KernelLoad estimate_kernel_load(const KernelLaunch& launch, const hw::HardwareSpec& spec);

}  // namespace tilesim::gpu
