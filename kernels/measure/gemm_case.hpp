#pragma once
// A study's GEMM workload as something tilesim-measure can run: cuBLAS for
// `kernel: library`, our kernel with the workload's schedule for `kernel:
// tilesim_ref` (cp.async + mma.sync) or `kernel: tilesim_ref_wgmma` (TMA +
// wgmma), or the reason it cannot be measured.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "hwmodels/hardware_spec.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::measure {

enum class GemmImplementation { library, own_kernel };

struct GemmCase {
  std::string name;
  std::string kernel;  // the kernel profile the study asked for
  GemmImplementation implementation = GemmImplementation::library;
  std::string schedule;  // the workload's `schedule:` as written in the study
  // The problem and, for own kernels, everything but the device pointers.
  kernels::GemmLaunchConfig config;
};

struct CaseError {
  std::string message;
};

// The case for `workload`, or why it has no kernel here.
// An own kernel runs the compiled tile variant equal to the workload's kernel
// profile with its `tile:` overrides applied (as the simulator resolves it),
// among the variants that profile describes (workloads/measurement/
// measured_kernel_profile.hpp); `forced` runs this variant instead (tuning).
std::variant<GemmCase, CaseError> make_gemm_case(
    const workloads::GemmWorkload& workload, const hw::HardwareSpec& hardware,
    const kernels::GemmDeviceLimits& device,
    std::optional<kernels::GemmTileVariant> forced = std::nullopt);

// Split-K slices when the workload sets none, as the simulator picks them
// (workloads/gemm/split_k_schedule.cpp): max(2, resident CTAs / tiles).
int default_splits(const kernels::GemmLaunchConfig& config);

}  // namespace tilesim::measure
