#pragma once
// Stream-K GEMM (Osama et al., PPoPP 2023): the MAC iterations of the Stream-K
// tiles are divided evenly over a persistent grid of SMs x occupancy units,
// crossing tile boundaries; data-parallel tiles (hybrid modes) follow, as
// CTAs of their own (a kernel whose CTAs claim them from a counter) or as each
// persistent CTA's fixed list b, b + grid, ... (the profile's
// stream_k_data_parallel_order). A unit that covers a tile's first iterations owns the tile:
// it waits on the tile's flag for the peers that covered the rest (each wrote
// an fp32 partial to the workspace and raised the flag), adds their partials
// and stores the output. Peers add in (reverse) k order behind a turnstile
// (deterministic) or atomically as they finish (atomic). `wave_fit` on tiles
// that fit in one wave lowers as the data-parallel schedule.

#include "workloads/gemm/gemm_schedule.hpp"

namespace tilesim::workloads {

class StreamKSchedule final : public GemmSchedule {
 public:
  gpu::KernelPlan lower(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                        const hw::HardwareSpec& spec) const override;
  // Whether `workload` lowers to the same plan with stream_k_mode `mode`: the
  // mode is read nowhere but in the partition, so equal partitions give equal
  // plans (the modes on fewer tiles than SMs). Approximate `auto` takes such a
  // twin's result without building its CTA programs (bench/README.md, round 12).
  bool lowers_alike_in_mode(const GemmWorkload& workload, StreamKMode mode,
                            const hw::KernelProfile& kernel, const hw::HardwareSpec& spec) const;
};

}  // namespace tilesim::workloads
