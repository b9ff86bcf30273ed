#include "sim/engine/capacity_pool.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tilesim::sim {

CapacityPool::CapacityPool(std::vector<std::int64_t> capacity)
    : capacity_(capacity.begin(), capacity.end()), in_use_(capacity_.size(), 0) {}

// headroom(demand) >= 1, without its divisions.
bool CapacityPool::fits(const std::vector<std::int64_t>& demand) const {
  if (demand.size() != capacity_.size()) {
    throw std::logic_error("CapacityPool: demand has the wrong number of dimensions");
  }
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] > 0 && capacity_[i] - in_use_[i] < demand[i]) return false;
  }
  return true;
}

void CapacityPool::acquire(const std::vector<std::int64_t>& demand) {
  if (!fits(demand)) {
    throw std::logic_error("CapacityPool::acquire: demand does not fit");
  }
  for (std::size_t i = 0; i < demand.size(); ++i) in_use_[i] += demand[i];
}

void CapacityPool::release(const std::vector<std::int64_t>& demand) {
  if (demand.size() != capacity_.size()) {
    throw std::logic_error("CapacityPool: demand has the wrong number of dimensions");
  }
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (in_use_[i] < demand[i]) throw std::logic_error("CapacityPool::release: more than acquired");
  }
  for (std::size_t i = 0; i < demand.size(); ++i) in_use_[i] -= demand[i];
}

std::int64_t CapacityPool::headroom(const std::vector<std::int64_t>& demand) const {
  if (demand.size() != capacity_.size()) {
    throw std::logic_error("CapacityPool: demand has the wrong number of dimensions");
  }
  std::int64_t count = std::numeric_limits<std::int64_t>::max();
  for (std::size_t i = 0; i < demand.size(); ++i) {
    if (demand[i] > 0) count = std::min(count, (capacity_[i] - in_use_[i]) / demand[i]);
  }
  return count;
}

}  // namespace tilesim::sim
