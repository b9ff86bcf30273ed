#pragma once
// An attention variant turns a workload into the kernels that compute it:
// which CTAs attend which query rows to which keys, and how partial results
// are combined. Each variant is one file, registered by name in
// builtin_attention_variants(); all lower to the same CTA-program primitives.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

// What a variant runs with: the implementation's attention profile
// (configs/attention/) and, for the unfused GEMMs, the GEMM kernel profile the
// attention profile names.
struct AttentionKernel {
  hw::AttentionProfile profile;
  hw::KernelProfile gemm;
};

struct AttentionLowering {
  std::vector<gpu::KernelLaunch> kernels;  // in launch order, stream 0
  std::string description;                 // what was simulated, e.g. "flash_decoding:splits=15"
};

class AttentionVariant {
 public:
  virtual ~AttentionVariant() = default;
  // Why this variant cannot run the workload on this GPU; empty when it can.
  virtual std::string unsupported_reason(const AttentionWorkload& workload,
                                         const hw::HardwareSpec& spec) const = 0;
  virtual AttentionLowering lower(const AttentionWorkload& workload, const hw::HardwareSpec& spec,
                                  const AttentionKernel& kernel) const = 0;
};

class AttentionVariantRegistry {
 public:
  void add(std::string name, std::unique_ptr<const AttentionVariant> variant);
  // nullptr when no variant has that name.
  const AttentionVariant* find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, std::unique_ptr<const AttentionVariant>>> variants_;
};

AttentionVariantRegistry builtin_attention_variants();

}  // namespace tilesim::workloads
