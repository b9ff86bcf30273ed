#include "workloads/attention/attention_lowering.hpp"

#include <fmt/format.h>

#include "workloads/gemm/gemm_kernel_config.hpp"

namespace tilesim::workloads {
namespace {

// The kernel profile as a GEMM of the workload's type would resolve it (tile.k
// scaled to the type, checked against the SM and the tensor-core rates).
config::Loaded<hw::KernelProfile> resolve_kernel(const AttentionWorkload& workload,
                                                 const hw::HardwareSpec& spec) {
  GemmWorkload gemm;
  gemm.name = workload.name;
  gemm.problem = {workload.shape.q_len, workload.shape.kv_lens.front(), workload.shape.head_dim,
                  workload.shape.dtype, workload.shape.dtype};
  gemm.kernel = workload.kernel;
  gemm.where = workload.where;
  gemm.kernel_where = workload.where;
  return resolve_gemm_kernel(gemm, spec);
}

}  // namespace

config::Loaded<AttentionLowering> lower_attention_variant(const AttentionWorkload& workload,
                                                          const hw::HardwareSpec& spec) {
  config::Loaded<AttentionLowering> loaded;
  const AttentionVariantRegistry variants = builtin_attention_variants();
  const AttentionVariant* variant = variants.find(workload.variant);
  if (variant == nullptr) {
    loaded.diagnostics.add(workload.variant_where, workload.name + ".variant",
                           fmt::format("unknown attention variant '{}'; allowed: {}",
                                       workload.variant, fmt::join(variants.names(), ", ")));
    return loaded;
  }
  if (const std::string reason = variant->unsupported_reason(workload, spec); !reason.empty()) {
    loaded.diagnostics.add(
        workload.variant_where, workload.name + ".variant",
        fmt::format("{} cannot run this workload: {}", workload.variant, reason));
    return loaded;
  }
  config::Loaded<hw::KernelProfile> kernel = resolve_kernel(workload, spec);
  if (!kernel.ok()) {
    loaded.diagnostics = std::move(kernel.diagnostics);
    return loaded;
  }
  loaded.value = variant->lower(workload, spec, *kernel.value);
  return loaded;
}

config::Loaded<std::vector<gpu::KernelLaunch>> lower_attention(const AttentionWorkload& workload,
                                                               const hw::HardwareSpec& spec) {
  config::Loaded<AttentionLowering> lowering = lower_attention_variant(workload, spec);
  if (!lowering.ok()) return {std::nullopt, std::move(lowering.diagnostics)};
  return {std::move(lowering.value->kernels), {}};
}

}  // namespace tilesim::workloads
