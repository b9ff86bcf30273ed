#pragma once
// The reduction kernel of parallel split-K (kernels/gemm/split_k_reduce.cu):
// each CTA reads `splits` fp32 partials of 1,024 elements of C from the
// workspace, adds them on CUDA cores and stores the output. A separate launch,
// so it pays its own launch gap.

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"

namespace tilesim::workloads {

gpu::KernelLaunch partial_reduction_kernel(std::string name, const GemmWorkload& workload,
                                           const hw::KernelProfile& kernel, int splits);

}  // namespace tilesim::workloads
