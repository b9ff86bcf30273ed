#include "sim/engine/counter_board.hpp"

namespace tilesim::sim {

std::int64_t CounterBoard::value(std::uint64_t key) const {
  const auto counter = counters_.find(key);
  return counter == counters_.end() ? 0 : counter->second.value;
}

void CounterBoard::increment(std::uint64_t key) {
  Counter& counter = counters_[key];
  ++counter.value;
  std::erase_if(counter.waiters, [&](Waiter& waiter) {
    if (waiter.target > counter.value) return false;
    simulator_.schedule_at(simulator_.now(), EventPriority::normal, std::move(waiter.then));
    return true;
  });
}

bool CounterBoard::wait_until(std::uint64_t key, std::int64_t target, Simulator::Action then) {
  Counter& counter = counters_[key];
  if (counter.value >= target) {
    then();
    return false;
  }
  counter.waiters.push_back(Waiter{target, std::move(then)});
  return true;
}

std::size_t CounterBoard::blocked_count() const {
  std::size_t blocked = 0;
  for (const auto& [key, counter] : counters_) blocked += counter.waiters.size();
  return blocked;
}

}  // namespace tilesim::sim
