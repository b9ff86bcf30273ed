#include "workloads/attention/attention_lowering.hpp"

#include <fmt/format.h>

#include "hwmodels/kernel_fit.hpp"
#include "workloads/attention/attention_implementations.hpp"
#include "workloads/attention/decode_packing.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"

namespace tilesim::workloads {
namespace {

// The GEMM profile `gemm_kernel` as a GEMM of the workload's type would
// resolve it (tile.k scaled to the type, checked against the SM and the
// tensor-core rates).
config::Loaded<hw::KernelProfile> resolve_gemm(const AttentionWorkload& workload,
                                               const std::string& gemm_kernel,
                                               const hw::HardwareSpec& spec) {
  GemmWorkload gemm;
  gemm.name = workload.name;
  gemm.problem = {workload.shape.q_len, workload.shape.kv_lens.front(), workload.shape.head_dim,
                  workload.shape.dtype, workload.shape.dtype};
  gemm.kernel = gemm_kernel;
  gemm.where = workload.where;
  gemm.kernel_where = workload.where;
  return resolve_gemm_kernel(gemm, spec);
}

// The variant that runs: a library whose profile splits the KV cache at decode
// runs a decode step written as `flash` as split-KV (FlashAttention-2's
// mha_fwd packs the GQA group and picks num_splits; cuDNN splits too).
std::string variant_that_runs(const AttentionWorkload& workload,
                              const hw::AttentionProfile& profile) {
  const bool decode =
      workload.shape.q_len <= kMaxDecodeQueries &&
      packed_rows_problem(
          workload.shape,
          decode_flash_tile(static_cast<int>(workload.shape.head_dim), workload.shape.dtype))
          .empty();
  if (workload.variant == "flash" && profile.decode == hw::AttentionDecode::split_kv && decode) {
    return "flash_decoding";
  }
  return workload.variant;
}

}  // namespace

config::Loaded<AttentionLowering> lower_attention_variant(const AttentionWorkload& workload,
                                                          const hw::HardwareSpec& spec) {
  config::Loaded<AttentionLowering> loaded;
  const std::optional<AttentionImplementation> implementation =
      find_attention_implementation(workload.kernel);
  if (!implementation) {
    loaded.diagnostics.add(
        workload.where, workload.name + ".kernel",
        fmt::format("unknown attention implementation '{}'; allowed: {}", workload.kernel,
                    fmt::join(attention_implementation_names(), ", ")));
    return loaded;
  }
  const AttentionVariantRegistry variants = builtin_attention_variants();
  if (variants.find(workload.variant) == nullptr) {
    loaded.diagnostics.add(workload.variant_where, workload.name + ".variant",
                           fmt::format("unknown attention variant '{}'; allowed: {}",
                                       workload.variant, fmt::join(variants.names(), ", ")));
    return loaded;
  }
  config::Loaded<hw::AttentionProfile> profile = attention_profile_for(
      *implementation, workload.variant, spec, workload.where, workload.name + ".kernel");
  if (!profile.ok()) {
    loaded.diagnostics = std::move(profile.diagnostics);
    return loaded;
  }
  AttentionWorkload runs = workload;
  runs.variant = variant_that_runs(workload, *profile.value);
  const AttentionVariant* variant = variants.find(runs.variant);
  if (const std::string reason = variant->unsupported_reason(runs, spec); !reason.empty()) {
    loaded.diagnostics.add(workload.variant_where, workload.name + ".variant",
                           fmt::format("{} cannot run this workload: {}", runs.variant, reason));
    return loaded;
  }
  config::Loaded<hw::KernelProfile> gemm = resolve_gemm(workload, profile.value->gemm_kernel, spec);
  if (!gemm.ok()) {
    loaded.diagnostics = std::move(gemm.diagnostics);
    return loaded;
  }
  loaded.value = variant->lower(runs, spec, {*profile.value, *gemm.value});
  // A head size the variant's tile cannot hold (e.g. flash at head_dim 256) is
  // refused here rather than by the engine.
  for (const gpu::KernelLaunch& kernel : loaded.value->kernels) {
    const gpu::CtaFootprint& cta = kernel.footprint;
    if (const std::string problem = hw::cta_fit_problem(cta.threads, cta.registers_per_thread,
                                                        cta.shared_memory_bytes, spec.sm);
        !problem.empty()) {
      loaded.diagnostics.add(workload.variant_where, workload.name + ".variant",
                             fmt::format("{} cannot run this workload on {}: kernel {}: {}",
                                         runs.variant, spec.name, kernel.name, problem));
      loaded.value.reset();
      return loaded;
    }
  }
  return loaded;
}

config::Loaded<std::vector<gpu::KernelLaunch>> lower_attention(const AttentionWorkload& workload,
                                                               const hw::HardwareSpec& spec) {
  config::Loaded<AttentionLowering> lowering = lower_attention_variant(workload, spec);
  if (!lowering.ok()) return {std::nullopt, std::move(lowering.diagnostics)};
  return {std::move(lowering.value->kernels), {}};
}

}  // namespace tilesim::workloads
