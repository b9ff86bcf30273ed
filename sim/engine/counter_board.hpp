#pragma once
// Counters that events can wait on, e.g. flags in global memory that one CTA
// raises and another polls. A waiter resumes at the instant its counter reaches
// the target; waiters released together resume in the order they started
// waiting. Knows nothing about GPUs.

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/engine/simulator.hpp"

namespace tilesim::sim {

class CounterBoard {
 public:
  explicit CounterBoard(Simulator& simulator) : simulator_(simulator) {}

  std::int64_t value(std::uint64_t key) const;
  // Adds one; waiters whose target is now reached resume at this instant.
  void increment(std::uint64_t key);
  // Runs `then` at once (in this event) if the counter already holds `target`,
  // otherwise when it gets there. Returns whether it had to wait.
  bool wait_until(std::uint64_t key, std::int64_t target, Simulator::Action then);
  // Waiters still blocked (a non-zero count at the end of a run is a deadlock).
  std::size_t blocked_count() const;

 private:
  struct Waiter {
    std::int64_t target;
    Simulator::Action then;
  };
  struct Counter {
    std::int64_t value = 0;
    std::vector<Waiter> waiters;  // in arrival order
  };

  Simulator& simulator_;
  std::unordered_map<std::uint64_t, Counter> counters_;
};

}  // namespace tilesim::sim
