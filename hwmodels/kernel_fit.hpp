#pragma once
// Whether a GEMM kernel tile can run on an SM: threads, registers and the
// shared-memory pipeline against the SM's per-CTA limits. Used to validate the
// kernel profiles of a hardware file, and by whoever applies a study's `tile:`
// override to a profile.

#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"

namespace tilesim::hw {

struct KernelFitProblem {
  std::string key;      // the profile field to change: "tile.warps", "registers_per_thread", ...
  std::string message;  // what does not fit, with both numbers
};

// Shared memory of the A and B pipeline: stages x (m x k + n x k) x element_bytes.
// Operands are 16-bit unless the caller knows better.
double pipeline_smem_bytes(const KernelProfile& profile, double element_bytes = 2);

// What keeps one CTA of this size off an SM (threads, registers, shared
// memory), with both numbers; empty when it fits.
std::string cta_fit_problem(int threads, int registers_per_thread, double shared_memory_bytes,
                            const SmSpec& sm);

// Every limit the profile exceeds; empty when it fits.
std::vector<KernelFitProblem> kernel_fit_problems(const KernelProfile& profile, const SmSpec& sm,
                                                  double element_bytes = 2);

}  // namespace tilesim::hw
