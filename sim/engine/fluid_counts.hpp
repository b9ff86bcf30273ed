#pragma once
// What a FluidNetwork did, by kind: the flows it ran and the events it spent on
// them. For the speed benchmarks (bench/README.md): a prediction's cost is
// about its events, and these say which kind dominates. Never reported.

#include <cstdint>

namespace tilesim::sim {

struct FluidCounts {
  std::uint64_t flows = 0;                // started
  std::uint64_t completion_events = 0;    // wakeups that ended flows (one per instant)
  std::uint64_t update_events = 0;        // updates of rates run as events of their own
  std::uint64_t full_recomputations = 0;  // general max-min recomputations of every rate
};

}  // namespace tilesim::sim
