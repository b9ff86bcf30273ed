#include "sim/engine/simulator.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilesim::sim {

void Simulator::schedule_at(SimTime when, EventPriority priority, Action action) {
  if (when < now_) {
    throw std::logic_error("Simulator::schedule_at: event in the past");
  }
  queue_.push_back(Event{when, priority, next_sequence_++, std::move(action)});
  std::push_heap(queue_.begin(), queue_.end(), RunsLater{});
}

void Simulator::run() {
  while (!queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), RunsLater{});
    Event event = std::move(queue_.back());
    queue_.pop_back();
    now_ = event.when;
    ++events_processed_;
    event.action();
  }
}

}  // namespace tilesim::sim
