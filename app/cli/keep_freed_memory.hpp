#pragma once
// The command line's allocator policy: freed memory stays in the process.

namespace tilesim::cli {

// A sweep simulates point after point, and each point frees what it built (CTA
// programs and records, the event queue, a few MB) when it ends. With glibc's
// defaults that memory goes back to the kernel (the heap top trimmed through
// brk, thread arenas through madvise, large blocks unmapped) and the next point
// faults the same pages in again: a 1,000-point sweep took 80,000 page faults
// and 0.15-0.20 s of kernel time beside 0.65 s of its own (bench/README.md,
// round 7). Keeping it costs nothing the peak does not hold already. Changes no
// result; a no-op where the C library is not glibc.
void keep_freed_memory();

}  // namespace tilesim::cli
