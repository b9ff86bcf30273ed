#include "workloads/gemm/gemm_kernel_config.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hwmodels/kernel_fit.hpp"

namespace tilesim::workloads {
namespace {

std::string profile_names(const hw::HardwareSpec& spec) {
  std::string names;
  for (const auto& [name, profile] : spec.kernel_profiles) {
    names += names.empty() ? name : ", " + name;
  }
  return names;
}

int default_tile_k(int profile_tile_k, hw::DataType input) {
  const double scale = 2.0 / hw::bytes_per_element(input);
  return std::max(8, static_cast<int>(profile_tile_k * scale));
}

hw::KernelProfile apply_overrides(hw::KernelProfile kernel, const GemmWorkload& workload) {
  const TileOverride& tile = workload.tile;
  kernel.tile_m = tile.m.value_or(kernel.tile_m);
  kernel.tile_n = tile.n.value_or(kernel.tile_n);
  kernel.tile_k = tile.k.value_or(default_tile_k(kernel.tile_k, workload.problem.input_type));
  kernel.stages = tile.stages.value_or(kernel.stages);
  kernel.warps = tile.warps.value_or(kernel.warps);
  kernel.registers_per_thread = tile.registers_per_thread.value_or(kernel.registers_per_thread);
  kernel.swizzle = tile.swizzle.value_or(kernel.swizzle);
  kernel.cluster = tile.cluster.value_or(kernel.cluster);
  return kernel;
}

}  // namespace

config::Loaded<hw::KernelProfile> resolve_gemm_kernel(const GemmWorkload& workload,
                                                      const hw::HardwareSpec& spec) {
  config::Loaded<hw::KernelProfile> loaded;
  const auto profile = spec.kernel_profiles.find(workload.kernel);
  if (profile == spec.kernel_profiles.end()) {
    loaded.diagnostics.add(workload.kernel_where, workload.name + ".kernel",
                           fmt::format("unknown kernel profile '{}' for {}; allowed: {}",
                                       workload.kernel, spec.name, profile_names(spec)));
    return loaded;
  }
  const hw::DataType input = workload.problem.input_type;
  const hw::KernelProfile kernel = apply_overrides(profile->second, workload);
  for (const hw::KernelFitProblem& problem :
       hw::kernel_fit_problems(kernel, spec.sm, hw::bytes_per_element(input))) {
    loaded.diagnostics.add(
        workload.where, fmt::format("{}.{}", workload.name, problem.key),
        fmt::format("{} (kernel '{}' with this workload's tile)", problem.message, kernel.name));
  }
  if (spec.sm_mma_flops_per_s(input) <= 0) {
    loaded.diagnostics.add(
        workload.where, workload.name + ".gemm.dtype",
        fmt::format("{} has no tensor-core rate for {} (sm.tensor.{} is not set)", spec.name,
                    hw::to_string(input), hw::to_string(input)));
  }
  if (loaded.diagnostics.empty()) loaded.value = kernel;
  return loaded;
}

}  // namespace tilesim::workloads
