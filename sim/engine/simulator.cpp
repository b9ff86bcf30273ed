#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilesim::sim {

void Simulator::schedule_at(SimTime when, EventPriority priority, Action action) {
  if (when < now_) {
    throw std::logic_error("Simulator::schedule_at: event in the past");
  }
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(actions_.size());
    actions_.push_back(std::move(action));
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    actions_[slot].swap(action);  // cheaper than a move; the slot held a spent action
  }
  const std::uint64_t order =
      (std::uint64_t{static_cast<std::uint8_t>(priority)} << 56) | next_sequence_++;
  queue_.push_back(Key{when, order, slot});
  std::push_heap(queue_.begin(), queue_.end(), RunsLater{});
}

bool Simulator::run() {
  while (!queue_.empty()) {
    if (effort() > effort_limit_ || queue_.front().when > time_limit_) return false;
    std::pop_heap(queue_.begin(), queue_.end(), RunsLater{});
    const Key key = queue_.back();
    queue_.pop_back();
    now_ = key.when;
    ++events_processed_;
    Action action = std::move(actions_[key.slot]);
    free_slots_.push_back(key.slot);
    action();
  }
  return true;
}

}  // namespace tilesim::sim
