// BlockScheduler: occupancy limits per dimension and breadth-first placement.

#include "sim/gpu/block_scheduler.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {
namespace {

// 4 SMs of 2048 threads, 64 Ki registers (granted per warp in units of 256),
// 228 KiB of shared memory with 1 KiB reserved per CTA, 32 CTA slots.
hw::SmSpec small_sm() {
  hw::SmSpec sm;
  sm.count = 4;
  sm.max_threads = 2048;
  sm.registers = 65536;
  sm.register_allocation_unit = 256;
  sm.max_registers_per_thread = 255;
  sm.max_ctas = 32;
  sm.max_threads_per_cta = 1024;
  sm.shared_memory.capacity_bytes = 228.0 * 1024;  // 233472
  sm.shared_memory.per_cta_max_bytes = 227.0 * 1024;
  sm.shared_memory.reserved_per_cta_bytes = 1024;
  return sm;
}

// has_room_for(demand, n) must hold for n up to the free places and fail above.
::testing::AssertionResult has_exactly_free_places(const BlockScheduler& scheduler,
                                                   const CtaDemand& demand, std::int64_t places) {
  if (!scheduler.has_room_for(demand, places)) {
    return ::testing::AssertionFailure() << "no room for " << places << " CTAs";
  }
  if (scheduler.has_room_for(demand, places + 1)) {
    return ::testing::AssertionFailure() << "room for more than " << places << " CTAs";
  }
  return ::testing::AssertionSuccess();
}

CtaFootprint footprint(int threads, int registers_per_thread, double shared_bytes) {
  CtaFootprint result;
  result.threads = threads;
  result.registers_per_thread = registers_per_thread;
  result.shared_memory_bytes = shared_bytes;
  return result;
}

TEST(BlockScheduler, DemandRoundsThreadsToWarpsRegistersToUnitsAndAddsTheReservation) {
  const BlockScheduler scheduler(small_sm());
  // 100 threads -> 4 warps = 128 threads; 33 regs x 32 = 1056 -> 1280 per warp,
  // x 4 warps = 5120; 1000 + 1024 reserved bytes; 1 slot.
  EXPECT_EQ(scheduler.demand_of(footprint(100, 33, 1000)), (CtaDemand{128, 5120, 2024, 1}));
  // Fractional bytes round up.
  EXPECT_EQ(scheduler.demand_of(footprint(32, 8, 0.5))[2], 1025);
}

TEST(BlockScheduler, ThreadsLimitOccupancy) {
  const BlockScheduler scheduler(small_sm());
  // 256 threads, 16 regs, no smem: threads 2048/256 = 8; regs 8 warps x 512 =
  // 4096 -> 16; smem 1024 -> 228; slots 32. -> 8.
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(256, 16, 0)), 8);
  // 100 threads count as 4 whole warps (128): 2048/128 = 16 (regs: 32).
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(100, 16, 0)), 16);
}

TEST(BlockScheduler, RegistersLimitOccupancyWithAllocationRounding) {
  const BlockScheduler scheduler(small_sm());
  // 128 threads (4 warps) x 33 regs: per warp 1056 -> 1280, per CTA 5120;
  // 65536 / 5120 = 12.8 -> 12 (without rounding 4224 would give 15).
  // Threads 16, smem 228, slots 32.
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(128, 33, 0)), 12);
  // 32 regs x 32 = 1024 is already a multiple of 256: 4096 per CTA -> 16,
  // tied with threads (16).
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(128, 32, 0)), 16);
  // 1024 threads x 64 regs = 65536: exactly one CTA.
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(1024, 64, 0)), 1);
}

TEST(BlockScheduler, SharedMemoryLimitsOccupancyIncludingTheReservation) {
  const BlockScheduler scheduler(small_sm());
  // 57 KiB + 1 KiB reserved = 59392 per CTA; 233472 / 59392 = 3.93 -> 3
  // (without the reservation 233472 / 58368 = 4). Threads 16, regs 32.
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(128, 16, 57.0 * 1024)), 3);
  // 56 KiB + 1 KiB = 58368: exactly 4.
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(128, 16, 56.0 * 1024)), 4);
}

TEST(BlockScheduler, CtaSlotsLimitOccupancy) {
  BlockScheduler scheduler(small_sm());
  // 32 threads, 16 regs, no smem: threads 64, regs 128, smem 228, slots 32.
  const CtaFootprint tiny = footprint(32, 16, 0);
  EXPECT_EQ(scheduler.ctas_per_sm(tiny), 32);
  // The placement side agrees: 4 SMs x 32 slots.
  const CtaDemand demand = scheduler.demand_of(tiny);
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 128));
  for (int i = 0; i < 128; ++i) ASSERT_TRUE(scheduler.place(demand).has_value());
  EXPECT_FALSE(scheduler.place(demand).has_value());
}

TEST(BlockScheduler, ACtaThatNeverFitsHasZeroOccupancy) {
  const BlockScheduler scheduler(small_sm());
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(128, 16, 228.0 * 1024)), 0);  // + 1 KiB reserved
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(4096, 16, 0)), 0);
  EXPECT_EQ(scheduler.ctas_per_sm(footprint(1024, 72, 0)), 0);  // 73728 registers
}

TEST(BlockScheduler, PlacementSpreadsBreadthFirstAndReusesSlots) {
  BlockScheduler scheduler(small_sm());
  // 1024 threads, 16 regs: 2 CTAs per SM (threads), so 8 places in all.
  const CtaDemand demand = scheduler.demand_of(footprint(1024, 16, 0));
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 8));

  auto place = [&] { return scheduler.place(demand); };
  auto expect_at = [](const std::optional<CtaPlacement>& placement, int sm, int slot) {
    ASSERT_TRUE(placement.has_value());
    EXPECT_EQ(placement->sm, sm);
    EXPECT_EQ(placement->slot, slot);
  };
  // The first four go to SMs 0, 1, 2, 3 (each empty SM has the most room).
  expect_at(place(), 0, 0);
  expect_at(place(), 1, 0);
  expect_at(place(), 2, 0);
  expect_at(place(), 3, 0);
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 4));
  // Then the second slot of each, in SM order.
  expect_at(place(), 0, 1);
  expect_at(place(), 1, 1);
  expect_at(place(), 2, 1);
  expect_at(place(), 3, 1);
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 0));
  EXPECT_FALSE(place().has_value());

  // A freed slot is reused: slot 0 of SM 2.
  scheduler.release(CtaPlacement{2, 0}, demand);
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 1));
  expect_at(place(), 2, 0);

  // The SM with the most room wins over a lower index: free one place on SM 1
  // and two on SM 3 -> SM 3 first (room 2 > 1), then SM 1 and SM 3 tie at
  // room 1 -> SM 1 (lower index), then SM 3.
  scheduler.release(CtaPlacement{1, 1}, demand);
  scheduler.release(CtaPlacement{3, 0}, demand);
  scheduler.release(CtaPlacement{3, 1}, demand);
  EXPECT_TRUE(has_exactly_free_places(scheduler, demand, 3));
  expect_at(place(), 3, 0);
  expect_at(place(), 1, 1);
  expect_at(place(), 3, 1);
  EXPECT_FALSE(place().has_value());
}

TEST(BlockScheduler, RoomIsCountedForEachFootprintAgainstWhatIsLeft) {
  BlockScheduler scheduler(small_sm());
  const CtaDemand big = scheduler.demand_of(footprint(1024, 16, 0));   // 2 per SM
  const CtaDemand small = scheduler.demand_of(footprint(256, 16, 0));  // 8 per SM
  EXPECT_TRUE(has_exactly_free_places(scheduler, small, 32));
  ASSERT_TRUE(scheduler.place(big).has_value());  // SM 0: 1024 threads left
  // SM 0 now fits 4 small CTAs, the others 8 each: 4 + 3 x 8 = 28.
  EXPECT_TRUE(has_exactly_free_places(scheduler, small, 28));
  EXPECT_TRUE(has_exactly_free_places(scheduler, big, 7));
  // A small CTA now goes to the SM with the most room for it: SM 1.
  const std::optional<CtaPlacement> placement = scheduler.place(small);
  ASSERT_TRUE(placement.has_value());
  EXPECT_EQ(placement->sm, 1);
}

// The SMs' pools are built at the first question about room, whichever it is:
// an occupancy question before it, or a placement as the first, finds every SM
// empty.
TEST(BlockScheduler, TheFirstRoomQuestionFindsEverySmEmpty) {
  BlockScheduler asked_room(small_sm());
  const CtaDemand big = asked_room.demand_of(footprint(1024, 16, 0));
  EXPECT_EQ(asked_room.ctas_per_sm(footprint(1024, 16, 0)), 2);
  EXPECT_TRUE(has_exactly_free_places(asked_room, big, 8));
  BlockScheduler placed(small_sm());
  const std::optional<CtaPlacement> first = placed.place(big);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->sm, 0);
  EXPECT_EQ(first->slot, 0);
  EXPECT_TRUE(has_exactly_free_places(placed, big, 7));
}

}  // namespace
}  // namespace tilesim::gpu
