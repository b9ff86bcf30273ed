#pragma once
// The GEMM kernel actually simulated: the hardware's kernel profile with the
// workload's tile overrides applied, checked against what the SM can hold.

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

// Profiles give tile.k for 16-bit inputs; other widths keep the same bytes per
// k-block (fp8: twice the k, fp32/tf32: half) unless the workload sets tile.k.
// Stream-K's tile_fit resolves to the profile's one_wave_kernel (with its own
// tile) where that kernel's tiles fit in one wave of its persistent grid.
config::Loaded<hw::KernelProfile> resolve_gemm_kernel(const GemmWorkload& workload,
                                                      const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
