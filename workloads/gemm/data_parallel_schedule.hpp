#pragma once
// Data-parallel GEMM: one CTA per output tile, each running the whole K loop,
// launched in rasterization order. The last wave may be partial (wave
// quantization); that falls out of the block scheduler, not a formula.

#include "workloads/gemm/gemm_schedule.hpp"

namespace tilesim::workloads {

class DataParallelSchedule final : public GemmSchedule {
 public:
  gpu::KernelPlan lower(const GemmWorkload& workload, const hw::KernelProfile& config,
                        const hw::HardwareSpec& spec) const override;
};

}  // namespace tilesim::workloads
