#include "hwmodels/kernel_fit.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hwmodels/quantity.hpp"

namespace tilesim::hw {

namespace {
constexpr int kThreadsPerWarp = 32;

// Registers are granted per warp, rounded up to the allocation unit.
long cta_registers(int warps, int registers_per_thread, const SmSpec& sm) {
  const int unit = std::max(sm.register_allocation_unit, 1);
  const int per_warp = (registers_per_thread * kThreadsPerWarp + unit - 1) / unit * unit;
  return long(per_warp) * warps;
}
}  // namespace

std::string cta_fit_problem(int threads, int registers_per_thread, double shared_memory_bytes,
                            const SmSpec& sm) {
  using config::QuantityKind;
  if (threads > sm.max_threads_per_cta) {
    return fmt::format("one CTA has {} threads, more than sm.max_threads_per_cta ({})", threads,
                       sm.max_threads_per_cta);
  }
  const int warps = (threads + kThreadsPerWarp - 1) / kThreadsPerWarp;
  if (const long registers = cta_registers(warps, registers_per_thread, sm);
      registers > sm.registers) {
    return fmt::format("one CTA needs {} registers, more than sm.registers ({})", registers,
                       sm.registers);
  }
  if (shared_memory_bytes > sm.shared_memory.per_cta_max_bytes) {
    return fmt::format(
        "one CTA needs {} of shared memory, more than sm.shared_memory.per_cta_max "
        "({})",
        config::format_quantity(shared_memory_bytes, QuantityKind::size),
        config::format_quantity(sm.shared_memory.per_cta_max_bytes, QuantityKind::size));
  }
  return {};
}

double pipeline_smem_bytes(const KernelProfile& profile, double element_bytes) {
  const double elements_per_stage =
      double(profile.tile_m) * profile.tile_k + double(profile.tile_n) * profile.tile_k;
  return profile.stages * elements_per_stage * element_bytes;
}

std::vector<KernelFitProblem> kernel_fit_problems(const KernelProfile& profile, const SmSpec& sm,
                                                  double element_bytes) {
  std::vector<KernelFitProblem> problems;
  const int threads = profile.warps * kThreadsPerWarp;
  if (threads > sm.max_threads_per_cta) {
    problems.push_back({"tile.warps", fmt::format("{} warps = {} threads per CTA, more than "
                                                  "sm.max_threads_per_cta ({})",
                                                  profile.warps, threads, sm.max_threads_per_cta)});
  }
  if (profile.registers_per_thread > sm.max_registers_per_thread) {
    problems.push_back({"registers_per_thread",
                        fmt::format("{} registers per thread, more than "
                                    "sm.max_registers_per_thread ({})",
                                    profile.registers_per_thread, sm.max_registers_per_thread)});
  } else if (sm.register_allocation_unit > 0) {
    const long per_cta = cta_registers(profile.warps, profile.registers_per_thread, sm);
    if (per_cta > sm.registers) {
      problems.push_back(
          {"registers_per_thread",
           fmt::format("a CTA needs {} warps x {} = {} registers, more than sm.registers ({})",
                       profile.warps, per_cta / profile.warps, per_cta, sm.registers)});
    }
  }
  const double smem_bytes = pipeline_smem_bytes(profile, element_bytes);
  if (smem_bytes > sm.shared_memory.per_cta_max_bytes) {
    using config::QuantityKind;
    problems.push_back(
        {"tile.stages",
         fmt::format(
             "the pipeline needs {} stages x ({}x{} + {}x{}) x {} B = {} of shared memory "
             "per CTA, more than sm.shared_memory.per_cta_max ({}); use fewer stages or "
             "a smaller tile",
             profile.stages, profile.tile_m, profile.tile_k, profile.tile_n, profile.tile_k,
             element_bytes, config::format_quantity(smem_bytes, QuantityKind::size),
             config::format_quantity(sm.shared_memory.per_cta_max_bytes, QuantityKind::size))});
  }
  return problems;
}

}  // namespace tilesim::hw
