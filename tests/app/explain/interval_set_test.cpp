// IntervalSet: unions, intersections and differences of [begin, end) spans.

#include "app/explain/interval_set.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace tilesim::explain {
namespace {

using Intervals = std::vector<IntervalSet::Interval>;

TEST(IntervalSet, UnionMergesOverlappingAndTouchingAndDropsEmpty) {
  const IntervalSet set = IntervalSet::union_of({{5, 8}, {0, 2}, {1, 3}, {3, 4}, {6, 7}, {9, 9}});
  EXPECT_EQ(set.intervals(), (Intervals{{0, 4}, {5, 8}}));
  EXPECT_EQ(set.length_ps(), 7);
}

TEST(IntervalSet, IntersectionKeepsWhatBothCover) {
  const IntervalSet a = IntervalSet::union_of({{0, 10}, {20, 30}});
  const IntervalSet b = IntervalSet::union_of({{5, 25}, {28, 40}});
  EXPECT_EQ(a.intersection(b).intervals(), (Intervals{{5, 10}, {20, 25}, {28, 30}}));
  EXPECT_EQ(b.intersection(a).length_ps(), 12);
  EXPECT_EQ(a.intersection(IntervalSet{}).length_ps(), 0);
}

TEST(IntervalSet, DifferenceCutsHolesAndEnds) {
  const IntervalSet a = IntervalSet::union_of({{0, 10}, {20, 30}});
  const IntervalSet cut = IntervalSet::union_of({{-5, 2}, {4, 6}, {9, 21}, {25, 26}});
  EXPECT_EQ(a.difference(cut).intervals(), (Intervals{{2, 4}, {6, 9}, {21, 25}, {26, 30}}));
  // A set and its difference from anything partition it.
  EXPECT_EQ(a.difference(cut).length_ps() + a.intersection(cut).length_ps(), a.length_ps());
  EXPECT_EQ(a.difference(a).length_ps(), 0);
  EXPECT_EQ(a.difference(IntervalSet{}).intervals(), a.intervals());
}

}  // namespace
}  // namespace tilesim::explain
