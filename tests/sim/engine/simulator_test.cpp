// The event core: order by (time, priority, insertion), the clock, errors on
// scheduling into the past, and the SimTime conversions it is driven by.

#include "sim/engine/simulator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/sim_time.hpp"

namespace tilesim::sim {
namespace {

SimTime ps(std::int64_t value) {
  return SimTime::from_ps(value);
}

// (event name, time it ran in ps): a log shows both order and clock.
using Entry = std::pair<std::string, std::int64_t>;
using Log = std::vector<Entry>;

class SimulatorTest : public ::testing::Test {
 protected:
  Simulator::Action logger(std::string name) {
    return [this, name = std::move(name)] { log_.emplace_back(name, simulator_.now().ps()); };
  }

  Simulator simulator_;
  Log log_;
};

TEST_F(SimulatorTest, RunsEventsInTimeOrderRegardlessOfInsertionOrder) {
  simulator_.schedule_at(ps(30), EventPriority::normal, logger("c"));
  simulator_.schedule_at(ps(10), EventPriority::normal, logger("a"));
  simulator_.schedule_at(ps(20), EventPriority::normal, logger("b"));
  simulator_.run();
  EXPECT_EQ(log_, (Log{{"a", 10}, {"b", 20}, {"c", 30}}));
  EXPECT_EQ(simulator_.now(), ps(30));  // the clock stays at the last event
}

TEST_F(SimulatorTest, RateUpdateRunsAfterNormalAtTheSameInstant) {
  // Inserted first, but its priority (200) is later than normal (50).
  simulator_.schedule_at(ps(5), EventPriority::rate_update, logger("rate"));
  simulator_.schedule_at(ps(5), EventPriority::normal, logger("normal"));
  // An earlier time beats any priority.
  simulator_.schedule_at(ps(4), EventPriority::rate_update, logger("early_rate"));
  simulator_.run();
  EXPECT_EQ(log_, (Log{{"early_rate", 4}, {"normal", 5}, {"rate", 5}}));
}

TEST_F(SimulatorTest, EqualTimeAndPriorityRunInInsertionOrder) {
  // Enough events that a binary heap without the sequence tie-break would
  // reorder some of them.
  Log expected;
  for (int i = 0; i < 40; ++i) {
    simulator_.schedule_at(ps(7), EventPriority::normal, logger(std::to_string(i)));
    expected.emplace_back(std::to_string(i), 7);
  }
  simulator_.run();
  EXPECT_EQ(log_, expected);
}

TEST_F(SimulatorTest, EventsScheduledFromInsideAnEventAtTheSameInstantKeepTheOrder) {
  // Before the run: A (normal, seq 0), D (normal, seq 1), E (rate_update, seq 2),
  // Z at a later time. A then adds B (normal, seq 4), C (rate_update, seq 5)
  // and F (normal via schedule_after(0), seq 6), all at t = 10.
  // Order at t = 10: normals by sequence A, D, B, F; then rate updates E, C.
  simulator_.schedule_at(ps(10), EventPriority::normal, [this] {
    logger("A")();
    simulator_.schedule_at(ps(10), EventPriority::normal, logger("B"));
    simulator_.schedule_at(ps(10), EventPriority::rate_update, logger("C"));
    simulator_.schedule_after(ps(0), EventPriority::normal, logger("F"));
  });
  simulator_.schedule_at(ps(10), EventPriority::normal, logger("D"));
  simulator_.schedule_at(ps(10), EventPriority::rate_update, logger("E"));
  simulator_.schedule_at(ps(11), EventPriority::normal, logger("Z"));
  simulator_.run();
  EXPECT_EQ(log_,
            (Log{{"A", 10}, {"D", 10}, {"B", 10}, {"F", 10}, {"E", 10}, {"C", 10}, {"Z", 11}}));
}

TEST_F(SimulatorTest, ARateUpdateMayScheduleANormalEventAtTheSameInstant) {
  // Once the rate updates of t = 3 run, a normal event added for t = 3 still
  // runs at t = 3 (not in the past), before anything later.
  simulator_.schedule_at(ps(3), EventPriority::rate_update, [this] {
    logger("rate")();
    simulator_.schedule_at(ps(3), EventPriority::normal, logger("late_normal"));
  });
  simulator_.schedule_at(ps(4), EventPriority::normal, logger("next"));
  simulator_.run();
  EXPECT_EQ(log_, (Log{{"rate", 3}, {"late_normal", 3}, {"next", 4}}));
}

TEST_F(SimulatorTest, ScheduleAfterIsRelativeToTheCurrentEvent) {
  simulator_.schedule_at(ps(100), EventPriority::normal, [this] {
    simulator_.schedule_after(ps(25), EventPriority::normal, logger("later"));
  });
  simulator_.run();
  EXPECT_EQ(log_, (Log{{"later", 125}}));
}

// A schedule search stops a candidate once it has lost: events at the limit
// still run, later ones stay queued.
TEST_F(SimulatorTest, TimeLimitStopsBeforeTheFirstEventPastIt) {
  simulator_.set_time_limit(ps(20));
  simulator_.schedule_at(ps(10), EventPriority::normal, logger("a"));
  simulator_.schedule_at(ps(20), EventPriority::normal, logger("b"));
  simulator_.schedule_at(ps(21), EventPriority::normal, logger("c"));
  EXPECT_FALSE(simulator_.run());
  EXPECT_TRUE(simulator_.past_time_limit());
  EXPECT_EQ(log_, (Log{{"a", 10}, {"b", 20}}));
  simulator_.set_time_limit(SimTime::infinite());
  EXPECT_TRUE(simulator_.run());
  EXPECT_FALSE(simulator_.past_time_limit());
  EXPECT_EQ(log_.back(), (Entry{"c", 21}));
}

TEST_F(SimulatorTest, SchedulingInThePastThrowsLogicError) {
  bool checked = false;
  simulator_.schedule_at(ps(100), EventPriority::normal, [this, &checked] {
    EXPECT_THROW(simulator_.schedule_at(ps(99), EventPriority::rate_update, [] {}),
                 std::logic_error);
    EXPECT_THROW(simulator_.schedule_after(ps(-1), EventPriority::normal, [] {}), std::logic_error);
    // The current instant itself is allowed.
    EXPECT_NO_THROW(simulator_.schedule_at(ps(100), EventPriority::normal, logger("now")));
    checked = true;
  });
  simulator_.run();
  EXPECT_TRUE(checked);
  EXPECT_EQ(log_, (Log{{"now", 100}}));
  EXPECT_THROW(simulator_.schedule_at(ps(0), EventPriority::normal, [] {}), std::logic_error);
}

TEST_F(SimulatorTest, EventsProcessedCountsEveryEventIncludingNestedOnes) {
  EXPECT_EQ(simulator_.events_processed(), 0u);
  // 3 top-level events; the second adds 2 more, one of which adds 1 more: 6.
  simulator_.schedule_at(ps(1), EventPriority::normal, [] {});
  simulator_.schedule_at(ps(2), EventPriority::normal, [this] {
    simulator_.schedule_after(ps(1), EventPriority::normal, [] {});
    simulator_.schedule_after(ps(0), EventPriority::rate_update, [this] {
      simulator_.schedule_after(ps(5), EventPriority::normal, [] {});
    });
  });
  simulator_.schedule_at(ps(2), EventPriority::normal, [] {});
  simulator_.run();
  EXPECT_EQ(simulator_.events_processed(), 6u);
  EXPECT_EQ(simulator_.now(), ps(7));
  // An empty queue: run returns at once and counts nothing more.
  simulator_.run();
  EXPECT_EQ(simulator_.events_processed(), 6u);
}

// A small model with many ties: a deterministic pseudo-random generator
// schedules events at colliding times and priorities, some from inside events.
std::vector<std::pair<int, std::int64_t>> run_tangled_model() {
  Simulator simulator;
  std::vector<std::pair<int, std::int64_t>> log;
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  std::function<void(int, int)> spawn = [&](int id, int depth) {
    log.emplace_back(id, simulator.now().ps());
    if (depth == 0) return;
    for (int child = 0; child < 2; ++child) {
      const auto delay = static_cast<std::int64_t>(next() % 3);  // many ties at 0, 1, 2
      const EventPriority priority =
          next() % 2 == 0 ? EventPriority::normal : EventPriority::rate_update;
      const int child_id = id * 2 + child;
      simulator.schedule_after(SimTime::from_ps(delay), priority,
                               [&spawn, child_id, depth] { spawn(child_id, depth - 1); });
    }
  };
  for (int root = 1; root <= 4; ++root) {
    simulator.schedule_at(SimTime::from_ps(static_cast<std::int64_t>(next() % 2)),
                          EventPriority::normal, [&spawn, root] { spawn(root, 6); });
  }
  simulator.run();
  return log;
}

TEST(SimulatorDeterminism, TwoIdenticalRunsProduceIdenticalLogs) {
  const auto first = run_tangled_model();
  const auto second = run_tangled_model();
  // 4 roots, each a binary tree of depth 6: 4 * (2^7 - 1) = 508 events.
  ASSERT_EQ(first.size(), 508u);
  EXPECT_EQ(first, second);
}

TEST(SimTime, ConvertsBetweenUnits) {
  const SimTime t = SimTime::from_ps(2'500'000);
  EXPECT_EQ(t.ps(), 2'500'000);
  EXPECT_DOUBLE_EQ(t.us(), 2.5);
  EXPECT_DOUBLE_EQ(t.seconds(), 2.5e-6);
  EXPECT_EQ((t + SimTime::from_ps(1)).ps(), 2'500'001);
  EXPECT_EQ((t - SimTime::from_ps(1)).ps(), 2'499'999);
  EXPECT_EQ((SimTime::from_ps(3) * 4).ps(), 12);
  EXPECT_LT(SimTime::from_ps(1), SimTime::from_ps(2));
  EXPECT_GT(SimTime::infinite(), SimTime::from_ps(std::int64_t{1} << 62));
}

TEST(SimTime, FromSecondsRoundsAGenuineFractionUp) {
  // 1.5 ps and 0.2 ps are not whole picoseconds: rounded up, never to zero.
  EXPECT_EQ(SimTime::from_seconds(1.5e-12).ps(), 2);
  EXPECT_EQ(SimTime::from_seconds(0.2e-12).ps(), 1);
  EXPECT_EQ(SimTime::from_seconds(0).ps(), 0);
  EXPECT_EQ(SimTime::from_seconds(0.5e-6).ps(), 500'000);
  EXPECT_EQ(SimTime::from_seconds(4.5e-6).ps(), 4'500'000);
}

TEST(SimTime, FromSecondsKeepsWholePicosecondsExact) {
  // Durations that are whole picoseconds must not gain one from floating-point
  // noise: 1e-9 * 1e12 evaluates to 1000.0000000000001, which a bare ceil turns
  // into 1001 ps. About 40% of whole-nanosecond values (1, 2, 3, 4, 6, 7, ... ns)
  // and many whole-picosecond values (117 ps, 500 ps, ...) are affected.
  EXPECT_EQ(SimTime::from_seconds(1e-9).ps(), 1'000);
  EXPECT_EQ(SimTime::from_seconds(2e-9).ps(), 2'000);
  EXPECT_EQ(SimTime::from_seconds(7e-9).ps(), 7'000);
  EXPECT_EQ(SimTime::from_seconds(500e-12).ps(), 500);
  EXPECT_EQ(SimTime::from_seconds(4.9e-6).ps(), 4'900'000);
  // Long durations too: 34e-3 * 1e12 = 34000000000.000004, whose noise is
  // larger than a fixed 1e-6 ps allowance (the allowance must be relative).
  EXPECT_EQ(SimTime::from_seconds(34e-3).ps(), 34'000'000'000);
  EXPECT_EQ(SimTime::from_seconds(1.0).ps(), 1'000'000'000'000);
}

TEST_F(SimulatorTest, StopsOnceItsEffortExceedsTheLimitAndKeepsTheRest) {
  // Each event charges 512 operations: two events' worth of effort besides its own.
  for (int i = 0; i < 10; ++i) {
    simulator_.schedule_at(ps(i), EventPriority::normal, [this] {
      simulator_.charge(512);
      log_.emplace_back("e", simulator_.now().ps());
    });
  }
  simulator_.set_effort_limit(7);
  EXPECT_FALSE(simulator_.run());
  // 3 effort per event: the third event takes it to 9 > 7, and no event runs after.
  EXPECT_EQ(log_.size(), 3u);
  EXPECT_DOUBLE_EQ(simulator_.effort(), 9);
  simulator_.set_effort_limit(1e9);
  EXPECT_TRUE(simulator_.run());  // the rest were left in the queue
  EXPECT_EQ(log_.size(), 10u);
}

TEST_F(SimulatorTest, EffortCountsEventsWhenNothingIsCharged) {
  for (int i = 0; i < 4; ++i) simulator_.schedule_at(ps(i), EventPriority::normal, [] {});
  EXPECT_TRUE(simulator_.run());
  EXPECT_DOUBLE_EQ(simulator_.effort(), 4);
}

}  // namespace
}  // namespace tilesim::sim
