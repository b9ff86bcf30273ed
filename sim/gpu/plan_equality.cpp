#include "sim/gpu/plan_equality.hpp"

namespace tilesim::gpu {
namespace {

// Every field but the program source, which same_work compares CTA by CTA.
bool same_launch(const KernelLaunch& a, const KernelLaunch& b) {
  return a.name == b.name && a.stream == b.stream && a.cta_count == b.cta_count &&
         a.cluster_size == b.cluster_size && a.footprint == b.footprint &&
         a.tensor_efficiency == b.tensor_efficiency &&
         a.tensor_energy_fraction == b.tensor_energy_fraction &&
         a.fixed_overhead_s == b.fixed_overhead_s && a.ramp_and_drain_s == b.ramp_and_drain_s &&
         a.depends_on == b.depends_on && a.host_dispatch_s == b.host_dispatch_s &&
         (a.programs == nullptr) == (b.programs == nullptr);
}

bool same_programs(const KernelLaunch& a, const KernelLaunch& b) {
  if (a.programs == nullptr || a.programs == b.programs) return true;
  CtaProgram program_a;
  CtaProgram program_b;
  for (std::int64_t cta = 0; cta < a.cta_count; ++cta) {
    a.programs->build(cta, program_a);
    b.programs->build(cta, program_b);
    if (!(program_a == program_b)) return false;
  }
  return true;
}

}  // namespace

bool same_work(const KernelPlan& a, const KernelPlan& b) {
  if (a.mode != b.mode || a.kernels.size() != b.kernels.size()) return false;
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    if (!same_launch(a.kernels[i], b.kernels[i])) return false;
  }
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    if (!same_programs(a.kernels[i], b.kernels[i])) return false;
  }
  return true;
}

}  // namespace tilesim::gpu
