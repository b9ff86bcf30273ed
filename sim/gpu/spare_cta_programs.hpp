#pragma once
// CTA programs kept for their storage between the simulations of one thread.
// An `auto` search, a `compare` or a sweep simulates plan after plan, and each
// run's CTAs built their programs' steps and segments into fresh vectors and
// freed them at its end (4-5% of 1536^3 approximate `auto`'s instructions,
// callgrind, bench/README.md round 13). A program's storage changes no
// program: every source builds into an emptied one (CtaProgramSource::build).

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

// An empty program, with the storage of one kept on this thread when there is one.
CtaProgram take_spare_program();
// Keeps `program`'s storage for this thread's next take_spare_program, up to
// a bound (programs beyond it are freed).
void keep_spare_program(CtaProgram&& program);

}  // namespace tilesim::gpu
