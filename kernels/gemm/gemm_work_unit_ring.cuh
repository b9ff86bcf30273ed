#pragma once
// Hands a CTA's work units from the one thread that asks the tile scheduler
// (the wgmma kernel's producer) to the consumer warpgroups, through two
// shared-memory slots with a `full` and an `empty` mbarrier each. The
// scheduler then runs in one place per CTA, so it may claim work dynamically
// (StreamKScheduler's data-parallel tiles) and everyone still agrees on it.
// A unit with tile < 0 says there is no more work. sm_90a only.

#include <cstdint>

#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/ptx_hopper_primitives.cuh"

namespace tilesim::kernels::gemm {

#if defined(TILESIM_SM90A)

class WorkUnitRing {
 public:
  static constexpr int kSlots = 2;
  static constexpr int kBytes = kSlots * (2 * 8 + 32);  // two mbarriers and one unit per slot
  static_assert(sizeof(WorkUnit) <= 32);

  // `at`: 8-byte aligned shared memory of kBytes, `units` its generic address.
  __device__ WorkUnitRing(std::uint32_t at, unsigned char* units)
      : barriers_(at), units_(reinterpret_cast<WorkUnit*>(units + kSlots * 16)) {}

  // By one thread, before the CTA's first barrier. Every consumer thread
  // arrives on `empty` after its own read, so the read is ordered before the
  // producer's next write by the arrive (release) and the producer's wait
  // (acquire) alone: compute-sanitizer's racecheck follows that, not a warp's
  // reads through one lane's arrival after __syncwarp.
  __device__ void init_barriers(int consumer_threads) const {
    for (int s = 0; s < kSlots; ++s) {
      sm90::mbarrier_init(full(s), 1);
      sm90::mbarrier_init(empty(s), consumer_threads);
    }
  }

  // Producer: waits for a free slot, then publishes `unit` (mbarrier.arrive
  // releases the slot's contents to whoever acquires the phase).
  __device__ void publish(const WorkUnit& unit) {
    sm90::mbarrier_wait(empty(slot_), parity_ ^ 1u);
    units_[slot_] = unit;
    sm90::mbarrier_arrive(full(slot_));
    advance();
  }

  __device__ void publish_end() {
    WorkUnit end;
    end.tile = -1;
    publish(end);
  }

  // Consumer threads: the next unit; the slot is free once every consumer thread has read it.
  __device__ WorkUnit receive() {
    sm90::mbarrier_wait(full(slot_), parity_);
    const WorkUnit unit = units_[slot_];
    sm90::mbarrier_arrive(empty(slot_));
    advance();
    return unit;
  }

 private:
  __device__ std::uint32_t full(int slot) const { return barriers_ + 8 * slot; }
  __device__ std::uint32_t empty(int slot) const { return barriers_ + 8 * (kSlots + slot); }
  __device__ void advance() {
    if (++slot_ == kSlots) {
      slot_ = 0;
      parity_ ^= 1u;
    }
  }

  std::uint32_t barriers_;
  WorkUnit* units_;
  int slot_ = 0;
  std::uint32_t parity_ = 0;
};

#endif  // TILESIM_SM90A

}  // namespace tilesim::kernels::gemm
