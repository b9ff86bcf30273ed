#include "kernels/measure/gemm_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/measurement/measured_kernel_profile.hpp"

namespace tilesim::measure {
namespace {

std::optional<kernels::ElementType> element_type(hw::DataType type) {
  switch (type) {
    case hw::DataType::bf16:
      return kernels::ElementType::bf16;
    case hw::DataType::fp16:
      return kernels::ElementType::fp16;
    case hw::DataType::fp32:
      return kernels::ElementType::fp32;
    case hw::DataType::tf32:
    case hw::DataType::fp8:
      return std::nullopt;
  }
  return std::nullopt;
}

// The kernel profile that describes a compiled variant.
std::string profile_of(const kernels::GemmTileShape& shape) {
  return workloads::profile_of_compiled_variant(shape.name).value_or("");
}

// The compiled tile variant that implements `profile` (the workload's kernel
// profile with its `tile:` overrides), among the variants of that profile, or
// why there is none.
std::variant<kernels::GemmTileVariant, std::string> tile_variant(const hw::KernelProfile& profile,
                                                                 kernels::ElementType input,
                                                                 kernels::ElementType output) {
  std::string compiled;
  for (int v = 0; v < kernels::kGemmTileVariantCount; ++v) {
    const auto variant = static_cast<kernels::GemmTileVariant>(v);
    const kernels::GemmTileShape shape = kernels::gemm_tile_shape(variant);
    const bool bf16 = input == kernels::ElementType::bf16 && output == kernels::ElementType::bf16;
    if (!kernels::gemm_tile_variant_has_all_types(variant) && !bf16) continue;
    if (profile_of(shape) != profile.name) continue;
    compiled += fmt::format(
        "{}{{m: {}, n: {}, k: {}, stages: {}, warps: {}, cluster m: {}, cluster n: {}}}",
        compiled.empty() ? "" : ", ", shape.m, shape.n, shape.k, shape.stages, shape.warps,
        shape.cluster_m, shape.cluster_n);
    if (profile.tile_m == shape.m && profile.tile_n == shape.n && profile.tile_k == shape.k &&
        profile.stages == shape.stages && profile.warps == shape.warps &&
        profile.cluster.m == shape.cluster_m && profile.cluster.n == shape.cluster_n) {
      return variant;
    }
  }
  return fmt::format(
      "no compiled {} kernel has tile {{m: {}, n: {}, k: {}, stages: {}, "
      "warps: {}, cluster m: {}, cluster n: {}}} for {} -> {}; compiled: {}",
      profile.name, profile.tile_m, profile.tile_n, profile.tile_k, profile.stages, profile.warps,
      profile.cluster.m, profile.cluster.n, kernels::to_string(input), kernels::to_string(output),
      compiled.empty() ? "none" : compiled);
}

// Stream-K tile_fit's smaller tile: the compiled variant of the profile's
// one_wave_kernel (none when the profile names none), or why there is none.
std::variant<std::optional<kernels::GemmTileVariant>, std::string> one_wave_tile(
    const hw::KernelProfile& profile, const hw::HardwareSpec& hardware,
    const kernels::GemmLaunchConfig& config) {
  if (profile.one_wave_kernel.empty()) return std::nullopt;
  const auto found = hardware.kernel_profiles.find(profile.one_wave_kernel);
  if (found == hardware.kernel_profiles.end()) {
    return fmt::format("{}'s one_wave_kernel {} is not offered by {}", profile.name,
                       profile.one_wave_kernel, hardware.name);
  }
  auto variant = tile_variant(found->second, config.input_type, config.output_type);
  if (const auto* error = std::get_if<std::string>(&variant)) return *error;
  return std::optional(std::get<kernels::GemmTileVariant>(variant));
}

kernels::StreamKMode stream_k_mode(workloads::StreamKMode mode) {
  switch (mode) {
    case workloads::StreamKMode::pure:
      return kernels::StreamKMode::pure;
    case workloads::StreamKMode::dp_one_tile:
      return kernels::StreamKMode::dp_one_tile;
    case workloads::StreamKMode::two_tile:
      return kernels::StreamKMode::two_tile;
    case workloads::StreamKMode::wave_fit:
      return kernels::StreamKMode::wave_fit;
    case workloads::StreamKMode::tile_fit:
      return kernels::StreamKMode::tile_fit;
  }
  return kernels::StreamKMode::two_tile;
}

}  // namespace

int default_splits(const kernels::GemmLaunchConfig& config) {
  const kernels::GemmLaunchPlan plan = kernels::plan_gemm(config);
  const kernels::GemmTileVariant tile = kernels::resolved_gemm_tile(config);
  // Units of the schedule: resident CTAs, or clusters for a clustered variant.
  const std::int64_t resident =
      config.device.resident_ctas(tile) / kernels::gemm_tile_shape(tile).cluster_ctas();
  const std::int64_t splits = std::max<std::int64_t>(2, resident / plan.tiles);
  return static_cast<int>(std::clamp<std::int64_t>(splits, 1, plan.iters_per_tile));
}

std::variant<GemmCase, CaseError> make_gemm_case(const workloads::GemmWorkload& workload,
                                                 const hw::HardwareSpec& hardware,
                                                 const kernels::GemmDeviceLimits& device,
                                                 std::optional<kernels::GemmTileVariant> forced) {
  GemmCase gemm;
  gemm.name = workload.name;
  gemm.kernel = workload.kernel;
  gemm.schedule = workload.schedule;
  std::vector<std::string> own_profiles;
  for (const workloads::CompiledTileProfile& tile : workloads::compiled_tile_profiles()) {
    if (std::find(own_profiles.begin(), own_profiles.end(), tile.profile) == own_profiles.end()) {
      own_profiles.push_back(tile.profile);
    }
  }
  if (workload.kernel == "library") {
    gemm.implementation = GemmImplementation::library;
  } else if (std::find(own_profiles.begin(), own_profiles.end(), workload.kernel) !=
             own_profiles.end()) {
    gemm.implementation = GemmImplementation::own_kernel;
  } else {
    return CaseError{
        fmt::format("kernel `{}` has no implementation in tilesim-measure; "
                    "measurable kernels: library (cuBLAS), {}",
                    workload.kernel, fmt::join(own_profiles, ", "))};
  }
  const auto input = element_type(workload.problem.input_type);
  const auto output = element_type(workload.problem.output_type);
  if (!input || *input == kernels::ElementType::fp32 || !output) {
    return CaseError{
        fmt::format("no {} kernel for dtype {} -> {}; measurable: bf16 or fp16 "
                    "in, bf16, fp16 or fp32 out",
                    workload.kernel, hw::to_string(workload.problem.input_type),
                    hw::to_string(workload.problem.output_type))};
  }
  kernels::GemmLaunchConfig& config = gemm.config;
  config.m = workload.problem.m;
  config.n = workload.problem.n;
  config.k = workload.problem.k;
  config.input_type = *input;
  config.output_type = *output;
  config.device = device;
  if (gemm.implementation == GemmImplementation::library) {
    if (workload.persistent) {
      return CaseError{
          "persistent: cuBLAS picks its own grid; use kernel tilesim_ref or "
          "tilesim_ref_wgmma"};
    }
    return gemm;
  }

  const config::Loaded<hw::KernelProfile> profile =
      workloads::resolve_gemm_kernel(workload, hardware);
  if (!profile.ok()) return CaseError{profile.diagnostics.format()};
  config.swizzle = profile.value->swizzle;
  if (forced) {
    config.tile = *forced;
  } else {
    const auto variant = tile_variant(*profile.value, config.input_type, config.output_type);
    if (const auto* error = std::get_if<std::string>(&variant)) return CaseError{*error};
    config.tile = std::get<kernels::GemmTileVariant>(variant);
  }
  if (workload.schedule == "data_parallel") {
    config.schedule = kernels::GemmSchedule::data_parallel;
    config.persistent = workload.persistent;
  } else if (workload.schedule == "split_k") {
    config.schedule = workload.reduction == workloads::SplitKReduction::parallel
                          ? kernels::GemmSchedule::split_k_parallel
                          : kernels::GemmSchedule::split_k_serial;
    config.splits = workload.splits.value_or(default_splits(config));
  } else if (workload.schedule == "stream_k") {
    config.schedule = kernels::GemmSchedule::stream_k;
    config.stream_k_mode = stream_k_mode(workload.stream_k_mode);
    if (config.stream_k_mode == kernels::StreamKMode::tile_fit) {
      const auto one_wave = one_wave_tile(*profile.value, hardware, config);
      if (const auto* error = std::get_if<std::string>(&one_wave)) return CaseError{*error};
      config.one_wave_tile = std::get<std::optional<kernels::GemmTileVariant>>(one_wave);
    }
    config.fixup = workload.fixup == workloads::FixupOrder::atomic
                       ? kernels::FixupMode::atomic
                       : kernels::FixupMode::deterministic;
  } else {
    return CaseError{
        fmt::format("schedule `{}` has no {} kernel; measurable: "
                    "data_parallel, split_k, stream_k",
                    workload.schedule, workload.kernel)};
  }
  // Buffers are allocated only when the case is measured; validate the launch
  // now with stand-in pointers, which are never dereferenced.
  kernels::GemmLaunchConfig probe = config;
  int stand_in = 0;
  float stand_in_partials = 0;
  probe.a = probe.b = &stand_in;
  probe.c = &stand_in;
  const kernels::GemmLaunchPlan plan = kernels::plan_gemm(probe);
  probe.workspace = {&stand_in, plan.flag_bytes, &stand_in_partials, plan.partial_bytes};
  if (const auto error = kernels::gemm_config_error(probe)) {
    return CaseError{workload.kernel + " cannot run it: " + *error};
  }
  return gemm;
}

}  // namespace tilesim::measure
