#pragma once
// A set of disjoint, sorted time intervals in picoseconds: the union of CTA
// residencies on an SM, the spans in which kernels run. Just enough set
// algebra to split an SM's time into busy, idle and why.

#include <cstdint>
#include <utility>
#include <vector>

namespace tilesim::explain {

class IntervalSet {
 public:
  using Interval = std::pair<std::int64_t, std::int64_t>;  // [begin, end) in ps

  IntervalSet() = default;
  // The union of `intervals`, in any order, overlapping or not; empty ones dropped.
  static IntervalSet union_of(std::vector<Interval> intervals);

  const std::vector<Interval>& intervals() const { return intervals_; }
  std::int64_t length_ps() const;
  IntervalSet intersection(const IntervalSet& other) const;
  // This set without `other`.
  IntervalSet difference(const IntervalSet& other) const;

 private:
  std::vector<Interval> intervals_;
};

}  // namespace tilesim::explain
