#pragma once
// A tiny GPU whose every timing can be worked out on paper, and helpers that
// build kernels of hand-made CTA programs for it, for end-to-end tests of
// gpu::simulate.
//
// 2 SMs with 1 CTA slot each; tensor cores 1e12 flop/s per SM (bf16), CUDA
// cores 1e11, SFU 1e10; HBM 2e11 B/s at 50% efficiency = 0.1 B/ps sustained
// (500 ns latency); L2 8 MiB, 1e12 B/s = 1 B/ps (200 ns); L2 port 4e11 B/s =
// 0.4 B/ps per SM; launch: host issue 5 us, latency 2 us, graph node 1 us,
// CTA dispatch 0.5 us. Every one of these is a whole number of picoseconds.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::testing {

inline hw::HardwareSpec tiny_gpu() {
  hw::HardwareSpec spec;
  spec.name = "tiny";
  spec.description = "2 SMs x 1 CTA slot, round numbers, for hand-checked tests";
  spec.source_path = "(built in tests/support/tiny_gpu.hpp)";
  spec.sm.count = 2;
  spec.sm.clock_hz = 1e9;
  spec.sm.tensor.fp16_flops_per_s = 1e12;
  spec.sm.tensor.bf16_flops_per_s = 1e12;
  spec.sm.tensor.tf32_flops_per_s = 5e11;
  spec.sm.tensor.fp8_flops_per_s = 2e12;
  spec.sm.fp32_flops_per_s = 1e11;
  spec.sm.sfu_ops_per_s = 1e10;
  spec.sm.shared_memory.capacity_bytes = 65536;
  spec.sm.shared_memory.per_cta_max_bytes = 64512;
  spec.sm.shared_memory.reserved_per_cta_bytes = 1024;
  spec.sm.shared_memory.bandwidth_bytes_per_s = 1e11;
  spec.sm.registers = 65536;
  spec.sm.register_allocation_unit = 256;
  spec.sm.max_registers_per_thread = 255;
  spec.sm.max_threads = 1024;
  spec.sm.max_ctas = 1;
  spec.sm.max_threads_per_cta = 1024;
  spec.sm.l2_port_bytes_per_s = 4e11;
  spec.l2.capacity_bytes = 8.0 * 1024 * 1024;
  spec.l2.bandwidth_bytes_per_s = 1e12;
  spec.l2.latency_s = 200e-9;
  spec.hbm.capacity_bytes = 1e9;
  spec.hbm.bandwidth_bytes_per_s = 2e11;
  spec.hbm.efficiency = 0.5;
  spec.hbm.latency_s = 500e-9;
  spec.launch.host_issue_s = 5e-6;
  spec.launch.latency_s = 2e-6;
  spec.launch.graph_node_s = 1e-6;
  spec.launch.cta_dispatch_s = 0.5e-6;
  hw::KernelProfile profile;
  profile.name = "library";
  profile.instruction = hw::MmaInstruction::wgmma;
  profile.tile_m = 128;
  profile.tile_n = 128;
  profile.tile_k = 64;
  profile.stages = 4;
  profile.warps = 4;
  profile.registers_per_thread = 128;
  profile.swizzle = 8;
  profile.tensor_efficiency = 0.8;
  spec.kernel_profiles.emplace(profile.name, profile);
  return spec;
}

// CTA programs from a function of the CTA index.
class ProgramsFrom : public gpu::CtaProgramSource {
 public:
  explicit ProgramsFrom(std::function<std::vector<gpu::CtaStep>(std::int64_t)> steps)
      : steps_(std::move(steps)) {}
  gpu::CtaProgram program(std::int64_t cta_index) const override {
    gpu::CtaProgram program;
    program.segments = {{cta_index, 0, 0, 1}};
    program.steps = steps_(cta_index);
    return program;
  }

 private:
  std::function<std::vector<gpu::CtaStep>(std::int64_t)> steps_;
};

inline gpu::CtaStep compute(double flops, gpu::ExecutionUnit unit = gpu::ExecutionUnit::tensor) {
  gpu::CtaStep step;
  step.unit = unit;
  step.mma_type = hw::DataType::bf16;
  step.flops = flops;
  return step;
}

inline gpu::CtaStep read(gpu::BlockKey key, double bytes, bool waits_for_first_data = false) {
  gpu::CtaStep step;
  step.reads = {gpu::BlockRead{key, bytes, 1}};
  step.first_data_waits = waits_for_first_data ? 1 : 0;
  return step;
}

inline gpu::CtaStep write(double bytes) {
  gpu::CtaStep step;
  step.write_bytes = bytes;
  return step;
}

// 128 threads x 32 registers, no shared memory: fits once per SM (the slot).
inline gpu::KernelLaunch kernel(std::string name, std::int64_t ctas,
                                std::function<std::vector<gpu::CtaStep>(std::int64_t)> steps,
                                int stream = 0) {
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.stream = stream;
  launch.cta_count = ctas;
  launch.footprint = gpu::CtaFootprint{128, 32, 0};
  launch.tensor_efficiency = 1.0;
  launch.programs = std::make_shared<ProgramsFrom>(std::move(steps));
  return launch;
}

// Each CTA computes 1e6 bf16 flops: 1e6 / 1e12 flop/s = 1 us.
inline std::vector<gpu::CtaStep> one_us_of_compute(std::int64_t /*cta*/) {
  return {compute(1e6)};
}

}  // namespace tilesim::testing
