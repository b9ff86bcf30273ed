#pragma once
// Split-K GEMM: every tile's K loop is cut into `splits` slices, one CTA each,
// so a few tiles can still fill the GPU. The grid is split-major (all tiles of
// slice 0, then slice 1, ...), as a CUDA grid with the split in z.
//   serial:   slice s waits for slice s-1's flag, reads the partial it left in
//             the workspace, adds its own and passes it on; the last slice
//             stores the output.
//   parallel: every slice writes its fp32 partial; a separate reduction kernel
//             adds them (two kernels, two launches).

#include "workloads/gemm/gemm_schedule.hpp"

namespace tilesim::workloads {

class SplitKSchedule final : public GemmSchedule {
 public:
  gpu::KernelPlan lower(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                        const hw::HardwareSpec& spec) const override;
  // The split count simulated: the workload's, or enough slices to give every
  // SM a CTA (at least 2); never more than there are k-blocks.
  static int splits_for(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                        const hw::HardwareSpec& spec);
};

}  // namespace tilesim::workloads
