#pragma once
// A study's GEMM workload as something tilesim-measure can run: cuBLAS for
// `kernel: library`, the reference kernel with the workload's schedule for
// `kernel: tilesim_ref`, or the reason it cannot be measured.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "hwmodels/hardware_spec.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::measure {

enum class GemmImplementation { library, tilesim_ref };

struct GemmCase {
  std::string name;
  GemmImplementation implementation = GemmImplementation::library;
  std::string schedule;  // the workload's `schedule:` as written in the study
  // The problem and, for tilesim_ref, everything but the device pointers.
  kernels::GemmLaunchConfig config;
};

struct CaseError {
  std::string message;
};

// The case for `workload`, or why it has no kernel here.
// tilesim_ref runs the compiled tile variant equal to the hardware's
// `tilesim_ref` kernel profile with the workload's `tile:` overrides applied
// (as the simulator resolves it); `forced` runs this variant instead (tuning).
std::variant<GemmCase, CaseError> make_gemm_case(
    const workloads::GemmWorkload& workload, const hw::HardwareSpec& hardware,
    const kernels::GemmDeviceLimits& device,
    std::optional<kernels::GemmTileVariant> forced = std::nullopt);

// Split-K slices when the workload sets none, as the simulator picks them
// (workloads/gemm/split_k_schedule.cpp): max(2, resident CTAs / tiles).
int default_splits(const kernels::GemmLaunchConfig& config);

}  // namespace tilesim::measure
