// CapacityPool: admission over several integer dimensions.

#include "sim/engine/capacity_pool.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace tilesim::sim {
namespace {

using Amounts = std::vector<std::int64_t>;

// Dimensions as in an SM: slots, threads, bytes.
const Amounts kCapacity = {4, 2048, 100'000};

TEST(CapacityPool, StartsEmpty) {
  const CapacityPool pool(kCapacity);
  EXPECT_EQ(pool.in_use(), (Amounts{0, 0, 0}));
}

TEST(CapacityPool, HeadroomIsSetByTheTightestDimension) {
  const CapacityPool pool(kCapacity);
  // slots 4/1 = 4, threads 2048/256 = 8, bytes 100000/30000 = 3 -> 3.
  EXPECT_EQ(pool.headroom({1, 256, 30'000}), 3);
  // slots 4/1 = 4, threads 2048/1024 = 2, bytes 100000/1000 = 100 -> 2.
  EXPECT_EQ(pool.headroom({1, 1024, 1'000}), 2);
  // slots 4/1 = 4 binds when the others are small.
  EXPECT_EQ(pool.headroom({1, 32, 10}), 4);
  // A zero demand in a dimension does not limit it.
  EXPECT_EQ(pool.headroom({0, 512, 0}), 4);
  // Larger than the whole pool in one dimension: never fits.
  EXPECT_EQ(pool.headroom({1, 4096, 0}), 0);
  EXPECT_FALSE(pool.fits({1, 4096, 0}));
}

TEST(CapacityPool, AllZeroDemandHasUnboundedHeadroom) {
  const CapacityPool pool(kCapacity);
  EXPECT_EQ(pool.headroom({0, 0, 0}), std::numeric_limits<std::int64_t>::max());
  EXPECT_TRUE(pool.fits({0, 0, 0}));
}

TEST(CapacityPool, AcquireAndReleaseTrackUseInEveryDimension) {
  CapacityPool pool(kCapacity);
  const Amounts demand = {1, 256, 30'000};
  pool.acquire(demand);
  pool.acquire(demand);
  EXPECT_EQ(pool.in_use(), (Amounts{2, 512, 60'000}));
  // Bytes left 40000 / 30000 = 1 more; threads left 1536 / 256 = 6; slots 2.
  EXPECT_EQ(pool.headroom(demand), 1);
  EXPECT_TRUE(pool.fits(demand));
  pool.acquire(demand);
  EXPECT_EQ(pool.headroom(demand), 0);
  EXPECT_FALSE(pool.fits(demand));
  // A different shape still fits where the bytes are not needed: slots 1 left.
  EXPECT_EQ(pool.headroom({1, 256, 0}), 1);

  pool.release(demand);
  EXPECT_EQ(pool.in_use(), (Amounts{2, 512, 60'000}));
  EXPECT_EQ(pool.headroom(demand), 1);
  pool.release(demand);
  pool.release(demand);
  EXPECT_EQ(pool.in_use(), (Amounts{0, 0, 0}));
  EXPECT_EQ(pool.headroom(demand), 3);
}

TEST(CapacityPool, AcquireThatDoesNotFitThrowsAndChangesNothing) {
  CapacityPool pool(kCapacity);
  pool.acquire({3, 2000, 0});
  EXPECT_THROW(pool.acquire({1, 100, 0}), std::logic_error);  // threads: 48 left
  EXPECT_EQ(pool.in_use(), (Amounts{3, 2000, 0}));
  EXPECT_NO_THROW(pool.acquire({1, 48, 0}));  // exactly full is allowed
  EXPECT_EQ(pool.in_use(), (Amounts{4, 2048, 0}));
}

TEST(CapacityPool, WrongNumberOfDimensionsThrows) {
  CapacityPool pool(kCapacity);
  EXPECT_THROW(static_cast<void>(pool.headroom({1, 1})), std::logic_error);
  EXPECT_THROW(static_cast<void>(pool.fits({1, 1, 1, 1})), std::logic_error);
  EXPECT_THROW(pool.acquire({1}), std::logic_error);
}

TEST(CapacityPool, OverReleaseThrows) {
  CapacityPool pool(kCapacity);
  EXPECT_THROW(pool.release({1, 0, 0}), std::logic_error);
  pool.acquire({1, 256, 1'000});
  EXPECT_THROW(pool.release({1, 256, 1'001}), std::logic_error);
}

TEST(CapacityPool, FailedReleaseLeavesTheUseUnchanged) {
  // Only the last dimension is over-released; the earlier ones must not have
  // been given back already when the error is reported (strong guarantee),
  // or a caller that catches the error is left with a corrupted pool.
  CapacityPool pool(kCapacity);
  pool.acquire({2, 512, 1'000});
  EXPECT_THROW(pool.release({1, 256, 5'000}), std::logic_error);
  EXPECT_EQ(pool.in_use(), (Amounts{2, 512, 1'000}));
}

TEST(CapacityPool, ReleaseWithTheWrongNumberOfDimensionsThrows) {
  // acquire() and headroom() reject a demand of the wrong size, release() does
  // not: a shorter demand silently gives back only part of a claim (and a
  // longer one writes past the end of in_use_, which is not exercised here).
  CapacityPool pool({4, 2048});
  pool.acquire({1, 256});
  EXPECT_THROW(pool.release({1}), std::logic_error);
  EXPECT_EQ(pool.in_use(), (Amounts{1, 256}));
}

}  // namespace
}  // namespace tilesim::sim
