#pragma once
// A resource with integer capacity in several dimensions (e.g. slots, threads,
// bytes), taken and given back whole. Holders are admitted only if every
// dimension fits; the caller decides who waits and in what order.

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <vector>

namespace tilesim::sim {

class CapacityPool {
 public:
  explicit CapacityPool(std::vector<std::int64_t> capacity);

  bool fits(const std::vector<std::int64_t>& demand) const;
  // Precondition: fits(demand).
  void acquire(const std::vector<std::int64_t>& demand);
  void release(const std::vector<std::int64_t>& demand);
  // How many holders of `demand` could be admitted right now.
  std::int64_t headroom(const std::vector<std::int64_t>& demand) const;
  std::vector<std::int64_t> in_use() const { return {in_use_.begin(), in_use_.end()}; }

 private:
  // A GPU builds one pool per SM for every simulation (and for every
  // occupancy question): a few dimensions, kept inline, so that costs no
  // allocation.
  using Amounts = boost::container::small_vector<std::int64_t, 4>;
  Amounts capacity_;
  Amounts in_use_;
};

}  // namespace tilesim::sim
