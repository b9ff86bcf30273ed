#pragma once
// CTA programs kept for their storage between simulations. An `auto` search
// or a sweep simulates plan after plan, and each run's CTAs built their
// programs' steps and segments into fresh vectors and freed them at its end
// (2% of 1536^3 approximate `auto`'s instructions, callgrind, bench/README.md
// round 13). A run given a store (SimulationOptions::program_store) builds
// into the programs kept there and leaves its own there when it ends. The
// storage changes no program: every source builds into an emptied one
// (CtaProgramSource::build).

#include <vector>

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

class CtaProgramStore {
 public:
  // An empty program, with the storage of a kept one when there is one.
  CtaProgram take();
  // Keeps `program`'s storage, emptied, up to a bound (beyond it, it is freed).
  void keep(CtaProgram&& program);

 private:
  std::vector<CtaProgram> programs_;
};

}  // namespace tilesim::gpu
