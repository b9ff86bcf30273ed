// FlowCapHeap: the first entry is the one a sorted set would give first, under
// any mix of inserts and removals (FluidNetwork's bottleneck mode relies on it
// for results identical to the sorted array it replaced).

#include "sim/engine/flow_cap_heap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace tilesim::sim {
namespace {

using Entry = std::pair<double, std::uint32_t>;

// `SetOrder` sorts the reference set so that its first entry is the heap's.
template <CapOrder kOrder, typename SetOrder>
void expect_same_as_sorted_set(std::uint32_t seed) {
  std::mt19937 random(seed);
  FlowCapHeap<kOrder> heap;
  std::set<Entry, SetOrder> reference;
  std::uniform_int_distribution<std::uint32_t> flow_of(0, 300);
  // Few distinct caps, so ties are broken by the flow index.
  std::uniform_int_distribution<int> cap_of(0, 20);
  for (int step = 0; step < 20'000; ++step) {
    const std::uint32_t flow = flow_of(random);
    const auto member = std::find_if(reference.begin(), reference.end(),
                                     [flow](const Entry& entry) { return entry.second == flow; });
    if (member == reference.end()) {
      const double cap = cap_of(random) * 0.5;
      heap.insert(cap, flow);
      reference.insert({cap, flow});
    } else {
      heap.erase(member->first, flow);
      reference.erase(member);
    }
    ASSERT_EQ(heap.size(), reference.size());
    if (!reference.empty()) {
      ASSERT_EQ(heap.first(), *reference.begin());
    }
  }
  std::set<Entry, SetOrder> visited;
  heap.for_each([&](const Entry& entry) { visited.insert(entry); });
  EXPECT_EQ(visited, reference);
}

TEST(FlowCapHeap, HighestFirstMatchesASortedSet) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    expect_same_as_sorted_set<CapOrder::highest_first, std::greater<>>(seed);
  }
}

TEST(FlowCapHeap, LowestFirstMatchesASortedSet) {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    expect_same_as_sorted_set<CapOrder::lowest_first, std::less<>>(seed);
  }
}

TEST(FlowCapHeap, RemovingWhatIsNotInTheSetChangesNothing) {
  FlowCapHeap<CapOrder::lowest_first> heap;
  heap.insert(2.0, 7);
  heap.erase(3.0, 7);  // another cap
  heap.erase(2.0, 8);  // another flow
  EXPECT_EQ(heap.size(), 1U);
  EXPECT_EQ(heap.first(), (Entry{2.0, 7}));
}

TEST(FlowCapHeap, AFlowCanReturnAfterItWasRemoved) {
  FlowCapHeap<CapOrder::lowest_first> heap;
  heap.insert(1.0, 3);
  heap.erase(1.0, 3);
  heap.insert(5.0, 3);
  heap.insert(4.0, 9);
  EXPECT_EQ(heap.size(), 2U);
  EXPECT_EQ(heap.first(), (Entry{4.0, 9}));  // lowest first: its old entry (1.0, 3) is gone
  heap.clear();
  EXPECT_TRUE(heap.empty());
}

TEST(FlowCapHeap, AFlowUnderTwoCapsIsABug) {
  FlowCapHeap<CapOrder::lowest_first> heap;
  heap.insert(1.0, 3);
  heap.insert(1.0, 3);  // the same entry again: kept once, as in a set
  EXPECT_EQ(heap.size(), 1U);
  EXPECT_THROW(heap.insert(2.0, 3), std::logic_error);
}

}  // namespace
}  // namespace tilesim::sim
