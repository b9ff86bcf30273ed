#pragma once
// The launch of a GEMM main-loop kernel: footprint and efficiency from the
// resolved kernel profile; shared by every schedule.

#include <memory>
#include <string>

#include "hwmodels/kernel_fit.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

inline constexpr int kThreadsPerWarp = 32;

inline gpu::CtaFootprint gemm_footprint(const GemmProblem& problem,
                                        const hw::KernelProfile& kernel) {
  return {kernel.warps * kThreadsPerWarp, kernel.registers_per_thread,
          hw::pipeline_smem_bytes(kernel, hw::bytes_per_element(problem.input_type))};
}

// The problem's flops over those its padded tiles issue: the rest multiply
// the zeros loaded past the matrix edges.
inline double gemm_tensor_energy_fraction(const GemmProblem& problem,
                                          const hw::KernelProfile& kernel) {
  const auto padded = [](std::int64_t size, std::int64_t tile) {
    return static_cast<double>((size + tile - 1) / tile * tile);
  };
  return static_cast<double>(problem.m) / padded(problem.m, kernel.tile_m) *
         static_cast<double>(problem.n) / padded(problem.n, kernel.tile_n) *
         static_cast<double>(problem.k) / padded(problem.k, kernel.tile_k);
}

// `cluster_size` 0: the kernel profile's cluster.
inline gpu::KernelLaunch gemm_kernel_launch(std::string name, const GemmProblem& problem,
                                            const hw::KernelProfile& kernel, std::int64_t cta_count,
                                            std::shared_ptr<const gpu::CtaProgramSource> programs,
                                            int cluster_size = 0) {
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = cta_count;
  launch.cluster_size = cluster_size > 0 ? cluster_size : kernel.cluster.size();
  launch.footprint = gemm_footprint(problem, kernel);
  launch.tensor_efficiency = kernel.tensor_efficiency;
  launch.tensor_energy_fraction = gemm_tensor_energy_fraction(problem, kernel);
  launch.fixed_overhead_s = kernel.kernel_overhead_s;
  launch.ramp_and_drain_s = kernel.ramp_and_drain_s;
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
