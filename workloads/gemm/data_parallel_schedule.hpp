#pragma once
// Data-parallel GEMM: every tile computed whole (the whole K loop) by one CTA,
// tiles in rasterization order. By default one CTA per tile: the last wave
// may be partial (wave quantization), which falls out of the block scheduler,
// not a formula. `persistent`: SMs x occupancy CTAs, CTA b computing tiles
// b, b + grid, ... back to back (the kernels' Stream-K scheduler with no
// Stream-K tiles), each tile a work unit as in Stream-K.

#include "workloads/gemm/gemm_schedule.hpp"

namespace tilesim::workloads {

class DataParallelSchedule final : public GemmSchedule {
 public:
  gpu::KernelPlan lower(const GemmWorkload& workload, const hw::KernelProfile& config,
                        const hw::HardwareSpec& spec) const override;
};

}  // namespace tilesim::workloads
