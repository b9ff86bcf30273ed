#pragma once
// The declared keys of a hardware file (configs/hw/*.yaml) and of a GEMM kernel
// profile file (configs/kernels/*.yaml), each with unit, plausible range and
// doc: the one source for validation (hardware_loader.cpp,
// kernel_profile_loader.cpp) and for the reference in docs/config.md.

#include "hwmodels/hardware_spec.hpp"
#include "hwmodels/yaml_schema.hpp"

namespace tilesim::hw {

// The top-level map of a hardware file. `kernels` names profile files, each
// read with kernel_profile_schema().
config::Schema<HardwareSpec> hardware_schema();

// A kernel profile file.
config::Schema<KernelProfile> kernel_profile_schema();

// Tile fields shared by kernel profiles and the `tile:` override of a study
// workload, so that both accept the same ranges. Keys are the bare field names
// ("m", "stages", "registers_per_thread", "cluster_m"); callers re-key them with
// Param::keyed.
struct TileParams {
  config::Param m, n, k, stages, warps, registers_per_thread, swizzle, cluster_m, cluster_n;
};
TileParams tile_params();

std::string_view to_string(MmaInstruction instruction);

}  // namespace tilesim::hw
