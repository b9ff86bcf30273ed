#pragma once
// The discrete-event core: a clock and a queue of callbacks. Events run in order
// of (time, priority, insertion); equal keys never happen, so every run of the
// same model produces the same sequence. Knows nothing about GPUs.

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/sim_time.hpp"

namespace tilesim::sim {

// Among events at the same time, lower values run first.
enum class EventPriority : std::uint8_t {
  normal = 50,
  // Shared-rate recomputation runs after every state change at this instant,
  // so a batch of simultaneous starts and ends costs one recomputation.
  rate_update = 200,
};

class Simulator {
 public:
  using Action = std::function<void()>;

  SimTime now() const { return now_; }
  void schedule_at(SimTime when, EventPriority priority, Action action);
  void schedule_after(SimTime delay, EventPriority priority, Action action) {
    schedule_at(now_ + delay, priority, std::move(action));
  }
  // Runs until the queue is empty.
  void run();
  std::uint64_t events_processed() const { return events_processed_; }

 private:
  struct Event {
    SimTime when;
    EventPriority priority;
    std::uint64_t sequence;
    Action action;
  };
  struct RunsLater {
    bool operator()(const Event& a, const Event& b) const {
      if (a.when != b.when) return a.when > b.when;
      if (a.priority != b.priority) return a.priority > b.priority;
      return a.sequence > b.sequence;
    }
  };

  std::vector<Event> queue_;  // a binary heap ordered by RunsLater
  SimTime now_;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t events_processed_ = 0;
};

}  // namespace tilesim::sim
