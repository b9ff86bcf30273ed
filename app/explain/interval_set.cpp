#include "app/explain/interval_set.hpp"

#include <algorithm>

namespace tilesim::explain {

IntervalSet IntervalSet::union_of(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  IntervalSet set;
  for (const auto& [begin, end] : intervals) {
    if (end <= begin) continue;
    if (!set.intervals_.empty() && begin <= set.intervals_.back().second) {
      set.intervals_.back().second = std::max(set.intervals_.back().second, end);
    } else {
      set.intervals_.emplace_back(begin, end);
    }
  }
  return set;
}

std::int64_t IntervalSet::length_ps() const {
  std::int64_t length = 0;
  for (const auto& [begin, end] : intervals_) length += end - begin;
  return length;
}

IntervalSet IntervalSet::intersection(const IntervalSet& other) const {
  IntervalSet result;
  auto mine = intervals_.begin();
  auto theirs = other.intervals_.begin();
  while (mine != intervals_.end() && theirs != other.intervals_.end()) {
    const std::int64_t begin = std::max(mine->first, theirs->first);
    const std::int64_t end = std::min(mine->second, theirs->second);
    if (begin < end) result.intervals_.emplace_back(begin, end);
    if (mine->second < theirs->second) {
      ++mine;
    } else {
      ++theirs;
    }
  }
  return result;
}

IntervalSet IntervalSet::difference(const IntervalSet& other) const {
  IntervalSet result;
  auto theirs = other.intervals_.begin();
  for (auto [begin, end] : intervals_) {
    while (theirs != other.intervals_.end() && theirs->second <= begin) ++theirs;
    for (auto cut = theirs; cut != other.intervals_.end() && cut->first < end; ++cut) {
      if (cut->first > begin) result.intervals_.emplace_back(begin, cut->first);
      begin = std::max(begin, cut->second);
    }
    if (begin < end) result.intervals_.emplace_back(begin, end);
  }
  return result;
}

}  // namespace tilesim::explain
