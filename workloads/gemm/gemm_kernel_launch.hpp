#pragma once
// The launch of a GEMM main-loop kernel: footprint and efficiency from the
// resolved kernel config; shared by every schedule.

#include <memory>
#include <string>

#include "hwmodels/kernel_fit.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

inline constexpr int kThreadsPerWarp = 32;

inline gpu::KernelLaunch gemm_kernel_launch(std::string name, const GemmProblem& problem,
                                            const hw::KernelProfile& config, std::int64_t cta_count,
                                            std::shared_ptr<const gpu::CtaProgramSource> programs) {
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = cta_count;
  launch.cluster_size = config.cluster.size();
  launch.footprint = {config.warps * kThreadsPerWarp, config.registers_per_thread,
                      hw::pipeline_smem_bytes(config, hw::bytes_per_element(problem.input_type))};
  launch.tensor_efficiency = config.tensor_efficiency;
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
