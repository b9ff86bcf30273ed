#pragma once
// Runs CTA programs on SMs: each step becomes one fluid flow that pulls its
// reads through L2 (misses also through HBM) and keeps its execution unit busy
// at the same time, preceded by one exposed memory latency when the step
// starts a pipeline.

#include <cstdint>
#include <functional>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/simulator.hpp"
#include "sim/gpu/gpu_resources.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/l2_reuse_model.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

class CtaExecutor {
 public:
  // Receives the CTA's memory traffic and issued flops.
  using DoneCallback = std::function<void(const MemoryTraffic&, double flops)>;

  CtaExecutor(sim::Simulator& simulator, GpuResources& resources, const hw::HardwareSpec& spec);

  void run(int sm, double tensor_efficiency, CtaProgram program, DoneCallback on_done);

 private:
  struct RunningCta {
    int sm = 0;
    double tensor_efficiency = 1;
    CtaProgram program;
    std::size_t next_step = 0;
    MemoryTraffic traffic;
    double flops = 0;
    DoneCallback on_done;
  };

  void start_next_step(std::uint32_t running_index);
  double busy_ps(const CtaStep& step, double tensor_efficiency) const;

  sim::Simulator& simulator_;
  GpuResources& resources_;
  const hw::HardwareSpec& spec_;
  L2ReuseModel l2_;
  std::vector<RunningCta> running_;  // slots, reused through free_
  std::vector<std::uint32_t> free_;
};

}  // namespace tilesim::gpu
