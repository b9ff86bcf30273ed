#pragma once
// What the graph's own kernels (elementwise, row reductions) share: a CTA of
// 256 threads with four 16-byte loads in flight each, as a vectorized
// PyTorch/vLLM-style kernel issues them, and stores that leave their output
// blocks in L2 for the next kernel.

#include <memory>
#include <string>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/graph/tensor_blocks.hpp"

namespace tilesim::workloads {

inline constexpr int kMemoryBoundThreads = 256;
inline constexpr int kMemoryBoundRegistersPerThread = 32;
inline constexpr double kMemoryBoundBytesInFlight = kMemoryBoundThreads * 4 * 16.0;

inline gpu::KernelLaunch memory_bound_launch(std::string name, std::int64_t cta_count,
                                             std::shared_ptr<const gpu::CtaProgramSource> programs,
                                             int threads = kMemoryBoundThreads) {
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = cta_count;
  launch.footprint = {threads, kMemoryBoundRegistersPerThread, 0};
  launch.programs = std::move(programs);
  return launch;
}

// One store step per output block the region touches.
inline void add_block_stores(gpu::CtaProgram& program, const TensorBlocks& tensor,
                             const TensorRegion& region) {
  for (const BlockStore& block : tensor.stores(region)) {
    gpu::CtaStep store;
    store.write_bytes = block.bytes;
    store.write_key = block.key;
    program.steps.push_back(store);
  }
}

// Work on one execution unit, if there is any.
inline void add_compute_step(gpu::CtaProgram& program, gpu::ExecutionUnit unit, double flops) {
  if (flops <= 0) return;
  gpu::CtaStep step;
  step.unit = unit;
  step.flops = flops;
  program.steps.push_back(step);
}

}  // namespace tilesim::workloads
