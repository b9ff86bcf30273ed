#include "workloads/gemm/gemm_kernel_config.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hwmodels/kernel_fit.hpp"
#include "sim/gpu/block_scheduler.hpp"
#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/row_alignment.hpp"

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

// The workload's kernel profile with its overrides, checked against the SM.
config::Loaded<hw::KernelProfile> resolve_named_gemm_kernel(const GemmWorkload& workload,
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

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Whether `kernel`'s (cluster) tiles of `problem` fit in one wave of its
// persistent grid (SMs x occupancy CTAs, in clusters), as the kernel
// launcher's tile_fit counts them (kernels/gemm/gemm_launch.cu).
bool fits_one_wave(const GemmProblem& problem, const hw::KernelProfile& kernel,
                   const hw::HardwareSpec& spec) {
  const std::int64_t cluster_ctas = std::int64_t{kernel.cluster.m} * kernel.cluster.n;
  const std::int64_t persistent_clusters =
      std::int64_t{spec.sm.count} *
      gpu::BlockScheduler(spec.sm).ctas_per_sm(gemm_footprint(problem, kernel)) / cluster_ctas;
  const std::int64_t cluster_tiles =
      ceil_div(problem.m, std::int64_t{kernel.tile_m} * kernel.cluster.m) *
      ceil_div(problem.n, std::int64_t{kernel.tile_n} * kernel.cluster.n);
  return cluster_tiles <= persistent_clusters;
}

}  // namespace

config::Loaded<hw::KernelProfile> resolve_gemm_kernel(const GemmWorkload& workload,
                                                      const hw::HardwareSpec& spec) {
  config::Loaded<hw::KernelProfile> loaded = resolve_named_gemm_kernel(workload, spec);
  // Stream-K's tile_fit: the one-wave profile (its own tile) where its tiles
  // fit one wave; on rows not 16-byte aligned the launcher keeps the tile it
  // falls back to.
  if (!loaded.ok() || workload.schedule != "stream_k" ||
      workload.stream_k_mode != StreamKMode::tile_fit || loaded.value->one_wave_kernel.empty() ||
      !rows_16_byte_aligned(workload.problem)) {
    return loaded;
  }
  GemmWorkload one_wave = workload;
  one_wave.kernel = loaded.value->one_wave_kernel;
  one_wave.tile = {};
  config::Loaded<hw::KernelProfile> small = resolve_named_gemm_kernel(one_wave, spec);
  if (!small.ok()) return small;
  if (fits_one_wave(workload.problem, *small.value, spec)) return small;
  return loaded;
}

}  // namespace tilesim::workloads
