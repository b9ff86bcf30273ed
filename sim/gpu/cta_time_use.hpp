#pragma once
// What a CTA's time on its SM went to, from its dispatch to the end of its last
// step: one duration per cause, adding up to the CTA's residency. A step's flow
// is split by what limited its rate at each moment (the fluid network says:
// a full shared resource, a busy unit of its SM, or its own Little's-law cap).

#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/engine/sim_time.hpp"

namespace tilesim::gpu {

enum class CtaTimeUse : std::uint8_t {
  dispatch,        // block scheduler: slot taken to the first instruction
  overhead,        // a work unit's fixed prologue and epilogue (the kernel profile's)
  pipeline_fill,   // one memory latency before a pipeline's first data arrives
  flag_wait,       // waiting on a fixup flag another CTA raises
  memory_latency,  // reads held to bytes in flight / latency (Little's law)
  hbm,             // HBM bandwidth full
  l2,              // L2 bandwidth full
  l2_port,         // the SM's L2 port full
  // The SM's unit busy, or the CTA's own chain of work on it (a step's
  // min_duration_s: a flash CTA alone runs its softmax between its GEMMs).
  tensor,  // the SM's tensor cores busy
  fp32,    // the SM's CUDA cores busy
  sfu,     // the SM's special-function units busy
};
inline constexpr std::size_t kCtaTimeUseCount = 11;

// Indexed by CtaTimeUse.
struct CtaTimeUses {
  std::array<sim::SimTime, kCtaTimeUseCount> time{};

  sim::SimTime& operator[](CtaTimeUse use) { return time[static_cast<std::size_t>(use)]; }
  sim::SimTime operator[](CtaTimeUse use) const { return time[static_cast<std::size_t>(use)]; }
  CtaTimeUses& operator+=(const CtaTimeUses& other) {
    for (std::size_t i = 0; i < kCtaTimeUseCount; ++i) time[i] += other.time[i];
    return *this;
  }
  sim::SimTime total() const {
    sim::SimTime sum;
    for (const sim::SimTime part : time) sum += part;
    return sum;
  }
};

}  // namespace tilesim::gpu
