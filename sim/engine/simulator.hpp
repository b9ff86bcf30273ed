#pragma once
// The discrete-event core: a clock and a queue of callbacks. Events run in order
// of (time, priority, insertion); equal keys never happen, so every run of the
// same model produces the same sequence. Knows nothing about GPUs.

#include <cstdint>
#include <functional>
#include <limits>
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
  // Runs until the queue is empty (true), or until effort() exceeds the
  // limit or the next event lies past the time limit (false: the remaining
  // events are left in the queue; past_time_limit() says which).
  bool run();
  std::uint64_t events_processed() const { return events_processed_; }

  // Work a model does beyond the event that triggers it, in elementary
  // operations (e.g. flows visited while recomputing shared rates), so that a
  // run's cost can be bounded however the model spends it.
  void charge(std::uint64_t operations) { operations_ += operations; }
  // The run's cost so far, in events: every event counts one, and every
  // kOperationsPerEvent charged operations one more (about the same time).
  static constexpr double kOperationsPerEvent = 256;
  double effort() const {
    return static_cast<double>(events_processed_) +
           static_cast<double>(operations_) / kOperationsPerEvent;
  }
  void set_effort_limit(double limit) { effort_limit_ = limit; }
  // Events after `limit` are not run.
  void set_time_limit(SimTime limit) { time_limit_ = limit; }
  bool past_time_limit() const { return !queue_.empty() && queue_.front().when > time_limit_; }

 private:
  // The heap orders small keys; actions wait in slots, so sifting moves 24
  // bytes instead of a std::function.
  struct Key {
    SimTime when;
    std::uint64_t order;  // priority in the top byte, then insertion sequence
    std::uint32_t slot;
  };
  struct RunsLater {
    bool operator()(const Key& a, const Key& b) const {
      return a.when != b.when ? a.when > b.when : a.order > b.order;
    }
  };

  std::vector<Key> queue_;  // a binary heap ordered by RunsLater
  std::vector<Action> actions_;
  std::vector<std::uint32_t> free_slots_;
  SimTime now_;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t events_processed_ = 0;
  std::uint64_t operations_ = 0;
  double effort_limit_ = std::numeric_limits<double>::infinity();
  SimTime time_limit_ = SimTime::infinite();
};

}  // namespace tilesim::sim
