// L2ReuseModel: a block stays resident until `capacity` bytes of other blocks
// have been used (hits and fills) after its last use: its LRU stack distance.

#include "sim/gpu/l2_reuse_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {
namespace {

constexpr BlockKey kA{0, 0, 0};
constexpr BlockKey kB{0, 0, 1};
constexpr BlockKey kC{0, 1, 0};
constexpr BlockKey kD{1, 0, 0};

TEST(L2ReuseModel, FirstReadMissesAndAReReadHits) {
  L2ReuseModel l2(1000);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 100);
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 100);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 0);
  // A hit fills nothing.
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 100);
}

TEST(L2ReuseModel, KeysDifferingInAnyFieldAreDifferentBlocks) {
  L2ReuseModel l2(1e9);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 10), 10);
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 10), 10);  // other chunk
  EXPECT_DOUBLE_EQ(l2.read(kC, 0, 1, 10), 10);  // other panel
  EXPECT_DOUBLE_EQ(l2.read(kD, 0, 1, 10), 10);  // other tensor
  EXPECT_DOUBLE_EQ(l2.read(BlockKey{0, 1, 1}, 0, 1, 10), 10);
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 50);
  for (const BlockKey& key : {kA, kB, kC, kD}) EXPECT_DOUBLE_EQ(l2.read(key, 0, 1, 10), 0);
}

TEST(L2ReuseModel, ABlockMissesAgainAfterMoreThanCapacityOfOtherFills) {
  L2ReuseModel l2(1000);
  l2.read(kA, 0, 1, 100);                           // filled 100, A last used at 100
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 500), 500);    // filled 600
  EXPECT_DOUBLE_EQ(l2.read(kC, 0, 1, 399), 399);    // filled 999: 899 since A
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 0);      // still resident; A now at 999
  EXPECT_DOUBLE_EQ(l2.read(kD, 0, 1, 1001), 1001);  // filled 2000: 1001 since A
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 100);    // evicted: a miss, filled again
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 2100);
  // B (last used at 600) and C (at 999) are long gone too.
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 500), 500);
}

TEST(L2ReuseModel, ExactlyCapacityOfOtherFillsEvicts) {
  // A plus `capacity` bytes of others no longer fit.
  L2ReuseModel l2(1000);
  l2.read(kA, 0, 1, 100);                           // A at 100
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 1000), 1000);  // filled 1100: 1000 since A
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 100);
}

TEST(L2ReuseModel, AHitRefreshesTheBlock) {
  // Without the refresh at 700, A (filled at 100) would be 1000 behind at 1100.
  L2ReuseModel l2(1000);
  l2.read(kA, 0, 1, 100);                       // filled 100
  l2.read(kB, 0, 1, 600);                       // filled 700
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 0);  // A at 700
  l2.read(kC, 0, 1, 400);                       // filled 1100: 400 since A
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 0);
}

// A hit moves its block above the others: in pure Stream-K every CTA re-reads
// its own panel while the others re-read theirs, and counting only fills would
// let every re-read hit.
TEST(L2ReuseModel, HitsPushOtherBlocksDownTheStack) {
  L2ReuseModel l2(550);
  l2.read(kA, 0, 1, 600);
  l2.read(kB, 0, 1, 100);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 600), 0);    // 100 used since
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 100), 100);  // A's 600 used since B (a hit): evicted
  L2ReuseModel wide(1000);
  wide.read(kA, 0, 1, 600);
  wide.read(kB, 0, 1, 100);
  EXPECT_DOUBLE_EQ(wide.read(kA, 0, 1, 600), 0);
  EXPECT_DOUBLE_EQ(wide.read(kB, 0, 1, 100), 0);  // 600 < 1000: still resident
  EXPECT_DOUBLE_EQ(wide.filled_bytes(), 700);
}

// Thousands of uses (the stack grows and is rebuilt) keep exact distances.
TEST(L2ReuseModel, DistancesStayExactOverManyUses) {
  L2ReuseModel l2(2000);
  l2.read(kA, 0, 1, 10);
  for (std::uint32_t i = 0; i < 1500; ++i) l2.read(BlockKey{7, i, 0}, 0, 1, 1);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 10), 0);  // 1500 bytes used since
  for (std::uint32_t i = 0; i < 1000; ++i) l2.read(BlockKey{7, i, 0}, 0, 1, 1);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 10), 0);  // re-reads of old blocks: 1000 since
  for (std::uint32_t i = 2000; i < 4000; ++i) l2.read(BlockKey{7, i, 0}, 0, 1, 1);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 10), 10);  // 2000 since: evicted
}

TEST(L2ReuseModel, WritesDisplaceResidentBlocks) {
  L2ReuseModel l2(1000);
  l2.read(kA, 0, 1, 100);  // A at 100
  l2.write(899);           // filled 999: 899 since A
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 999);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 0);  // A at 999
  l2.write(1000);                               // 1000 since A
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100), 100);
}

}  // namespace
}  // namespace tilesim::gpu

namespace tilesim::gpu {
namespace {

// Split-K slices and Stream-K units read disjoint k-ranges of one panel chunk:
// each range comes from HBM once, an overlap is only partly a hit.
// Steps that write nothing (main-loop steps) move no block down the stack:
// the block at the edge of capacity stays resident however many there are.
TEST(L2ReuseModel, WritesOfNoBytesMoveNothing) {
  L2ReuseModel l2(1000);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 400), 400);
  for (int step = 0; step < 100; ++step) l2.write(0);
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 599), 599);
  for (int step = 0; step < 100; ++step) l2.write(0);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 400), 0);  // 599 bytes above it
  EXPECT_DOUBLE_EQ(l2.filled_bytes(), 999);
  l2.write(601);
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 599), 599);  // 1,001 bytes above it
}

TEST(L2ReuseModel, DisjointPartsOfABlockMissSeparately) {
  L2ReuseModel l2(1e9);
  const BlockKey chunk{1, 3, 0};
  EXPECT_DOUBLE_EQ(l2.read(chunk, 0, 8, 800), 800);
  EXPECT_DOUBLE_EQ(l2.read(chunk, 8, 16, 800), 800);   // the other half: all new
  EXPECT_DOUBLE_EQ(l2.read(chunk, 0, 16, 1600), 0);    // both halves resident
  EXPECT_DOUBLE_EQ(l2.read(chunk, 12, 20, 800), 400);  // 16..20 is new
}

// A read drops a block's evicted parts and merges those it touches; the parts
// it neither evicts nor touches stay resident, wherever they sat in the block.
TEST(L2ReuseModel, AReadKeepsTheBlocksPartsItDoesNotTouch) {
  L2ReuseModel l2(1000);
  const BlockKey chunk{1, 3, 0};
  EXPECT_DOUBLE_EQ(l2.read(chunk, 0, 4, 400), 400);
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 1, 700), 700);
  EXPECT_DOUBLE_EQ(l2.read(chunk, 8, 12, 400), 400);  // 0..4 now lies 1,100 bytes down: evicted
  EXPECT_DOUBLE_EQ(l2.read(chunk, 16, 20, 400), 400);
  EXPECT_DOUBLE_EQ(l2.read(chunk, 8, 12, 400), 0);   // drops 0..4, keeps 16..20
  EXPECT_DOUBLE_EQ(l2.read(chunk, 16, 20, 400), 0);  // 400 bytes down
  EXPECT_DOUBLE_EQ(l2.read(chunk, 0, 4, 400), 400);
}

}  // namespace
}  // namespace tilesim::gpu

namespace tilesim::gpu {
namespace {

// With the L2's bandwidth: CTAs that start reading a block at the same time
// meet on its lines, however many bytes the steps started between them name.
TEST(L2ReuseModel, ConcurrentReadersShareWhateverStartedBetweenThem) {
  L2ReuseModel counted(1000);
  counted.read(kA, 0, 1, 100);
  counted.read(kB, 0, 1, 5000);                        // a big step, started at once
  EXPECT_DOUBLE_EQ(counted.read(kA, 0, 1, 100), 100);  // without the bound: evicted
  L2ReuseModel timed(1000, 1e9);                       // 1000 bytes a microsecond
  timed.advance_to(1e-6);
  EXPECT_DOUBLE_EQ(timed.read(kA, 0, 1, 100), 100);
  EXPECT_DOUBLE_EQ(timed.read(kB, 0, 1, 5000), 5000);
  EXPECT_DOUBLE_EQ(timed.read(kA, 0, 1, 100), 0);  // same time: nothing streamed
  timed.advance_to(1.5e-6);                        // at most 500 bytes since
  EXPECT_DOUBLE_EQ(timed.read(kA, 0, 1, 100), 0);
  timed.advance_to(2.4e-6);                         // A at 1.5 us, B at 1 us
  EXPECT_DOUBLE_EQ(timed.read(kB, 0, 1, 5000), 0);  // 100 used since B
  EXPECT_DOUBLE_EQ(timed.read(kA, 0, 1, 100), 0);   // 5000 used but 900 streamed
  timed.advance_to(10e-6);
  timed.read(kC, 0, 1, 2000);
  EXPECT_DOUBLE_EQ(timed.read(kA, 0, 1, 100), 100);  // both bounds past capacity
}

// Drift: capacity 1000 B at 1 GB/s is a 1 us residency window. Two CTAs
// started at 0 and read at 500 us have drifted apart by 0.002 x sqrt(2) x
// 500 us = 1.41 us (one standard deviation): the second hits only for
// P(|offset| < 1 us) = erf(1 / (1.41 x sqrt(2))) = 0.52 of its bytes.
TEST(L2ReuseModel, ReadersThatDriftApartShareOnlyInsideTheWindow) {
  L2ReuseModel l2(1000, 1e9, 0.002);
  l2.advance_to(500e-6);
  const L2Reader leader{1, 0};
  const L2Reader follower{2, 0};
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100, leader), 100);
  const double hit_share = std::erf(1.0 / (0.002 * std::sqrt(2.0) * 500 * std::sqrt(2.0)));
  EXPECT_NEAR(l2.read(kA, 0, 1, 100, follower), 100 * (1 - hit_share), 1e-9);
  // A CTA's own re-read, and readers in step (id 0), do not drift.
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100, follower), 0);
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100, L2Reader{}), 0);
  // A part of the leader's next to the follower's read (adjacent, no
  // overlap) lends it no hits: all its bytes miss. The parts still merge into
  // one, the follower's, whose re-read of both hits.
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 4, 400, leader), 400);
  EXPECT_DOUBLE_EQ(l2.read(kB, 4, 8, 400, follower), 400);
  EXPECT_DOUBLE_EQ(l2.read(kB, 0, 8, 800, follower), 0);
}

TEST(L2ReuseModel, YoungReadersShareAlmostAll) {
  L2ReuseModel l2(1000, 1e9, 0.002);
  l2.advance_to(10e-6);  // 10 us old: 0.03 us apart, far inside the 1 us window
  EXPECT_DOUBLE_EQ(l2.read(kA, 0, 1, 100, L2Reader{1, 0}), 100);
  EXPECT_LT(l2.read(kA, 0, 1, 100, L2Reader{2, 0}), 1e-6);
}

}  // namespace
}  // namespace tilesim::gpu
