#pragma once
// Approximate mode's load for the power law (hwmodels/power_law.hpp): what a
// kernel draws at sm.clock, estimated from its plan instead of measured by a
// first simulation. The grid runs in rounds of as many CTAs as the GPU holds;
// the first kReplayedRounds (2) are replayed through the L2 reuse model without
// timing (the round's CTAs step by step in turn, as they run together), which
// gives their flops, L2 bytes and HBM bytes; later rounds take the replayed
// ones' per-CTA means (the first round left out: a cold L2; 4 rounds replayed
// moved 8192^3 Stream-K's clock by 0.15%, at twice the cost). A round lasts
// as long as the busiest of: an SM's execution units and L2 port (its share of
// the round's CTAs), one CTA alone (each step at the slower of its unit and its
// Little's-law cap, plus its pipeline fill), L2 and HBM at full bandwidth;
// plus one CTA dispatch. The load is flops and HBM bytes over the rounds' sum.

#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "hwmodels/power_law.hpp"
#include "sim/gpu/cta_program_store.hpp"
#include "sim/gpu/kernel_load_replays.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

struct KernelLoadEstimate {
  hw::KernelLoad load;
  // The programs of the replayed CTAs (CTA i at index i): the simulation
  // takes them over rather than building them again.
  std::vector<CtaProgram> programs;
};

// `store` (may be null): the programs are built into storage taken from it.
// `replays` (may be null): a replay of the same rounds kept there is taken
// instead of replaying them again, and a new one is kept there.
KernelLoadEstimate estimate_kernel_load(const KernelLaunch& launch, const hw::HardwareSpec& spec,
                                        CtaProgramStore* store = nullptr,
                                        KernelLoadReplays* replays = nullptr);

}  // namespace tilesim::gpu
