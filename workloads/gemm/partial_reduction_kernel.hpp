#pragma once
// The reduction kernel of parallel split-K: one CTA per output tile reads the
// tile's `splits` fp32 partials from the workspace, adds them on CUDA cores and
// stores the output. A separate launch, so it pays its own launch gap.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"

namespace tilesim::workloads {

gpu::KernelLaunch partial_reduction_kernel(std::string name, const GemmProblem& problem,
                                           const hw::KernelProfile& kernel, int splits);

}  // namespace tilesim::workloads
