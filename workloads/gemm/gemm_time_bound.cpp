#include "workloads/gemm/gemm_time_bound.hpp"

#include <algorithm>

#include "workloads/gemm/gemm_cta_program.hpp"

namespace tilesim::workloads {
namespace {

// The whole GPU's flops per second at most: the main loop's units at sm.clock,
// on tensor cores at the kernel's efficiency and the fastest CTA's pace
// (cta_speed_spread): no CTA's MMAs run faster.
double peak_flops_per_s(const GemmProblem& problem, const hw::KernelProfile& kernel,
                        const hw::HardwareSpec& spec) {
  const bool on_tensor_cores = problem.input_type != hw::DataType::fp32;
  const double fastest_pace = 1 / (1 - kernel.cta_speed_spread / 2);
  return spec.sm.count * spec.sm_mma_flops_per_s(problem.input_type) *
         (on_tensor_cores ? kernel.tensor_efficiency * fastest_pace : 1.0);
}

}  // namespace

double gemm_time_lower_bound_s(const GemmProblem& problem, const hw::KernelProfile& kernel,
                               const hw::HardwareSpec& spec) {
  const GemmCtaProgramBuilder shape(problem, kernel);
  const auto m = static_cast<double>(problem.m);
  const auto n = static_cast<double>(problem.n);
  const auto k = static_cast<double>(problem.k);
  const double input_bytes = hw::bytes_per_element(problem.input_type);
  const double output_bytes = m * n * hw::bytes_per_element(problem.output_type);

  const double compute_s = problem.flops() / peak_flops_per_s(problem, kernel, spec);

  // Each tile column reads all of A, each tile row all of B.
  const double l2_bytes =
      m * k * input_bytes * static_cast<double>(shape.tile_cols()) / kernel.cluster.n +
      n * k * input_bytes * static_cast<double>(shape.tile_rows()) / kernel.cluster.m +
      output_bytes;
  const double l2_s = l2_bytes / spec.l2.bandwidth_bytes_per_s;

  const double hbm_bytes = (m + n) * k * input_bytes + output_bytes;
  const double hbm_s = hbm_bytes / spec.hbm.sustained_bytes_per_s();

  // Whatever the schedule, the workload ends with the launch's fixed costs.
  return std::max({compute_s, l2_s, hbm_s}) + kernel.ramp_and_drain_s + kernel.kernel_overhead_s;
}

void bound_remaining_work(gpu::SimulationOptions& options, const GemmProblem& problem,
                          const hw::KernelProfile& kernel, const hw::HardwareSpec& spec) {
  options.work_flops = problem.flops();
  options.peak_flops_per_s = peak_flops_per_s(problem, kernel, spec);
}

}  // namespace tilesim::workloads
