// FluidNetwork's limit observer: for how long each flow was held back by what
// (a full resource it shares, or its own cap with the resources only it
// uses), on cases solved by hand, and on busy networks where every flow's
// reported durations must add up to its lifetime in every update mode.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/engine/fluid_network.hpp"
#include "sim/engine/simulator.hpp"

namespace tilesim::sim {
namespace {

constexpr ResourceId kOwnCap = FluidNetwork::kOwnCap;

// (owner, limit) -> ps, summed over reports.
using LimitLog = std::map<std::pair<std::uint32_t, ResourceId>, std::int64_t>;

class FluidLimitTest : public ::testing::Test {
 protected:
  FluidLimitTest() {
    network_.set_limit_observer([this](std::uint32_t owner, ResourceId limit, SimTime duration) {
      log_[{owner, limit}] += duration.ps();
    });
  }
  std::int64_t limited(std::uint32_t owner, ResourceId limit) const {
    const auto found = log_.find({owner, limit});
    return found == log_.end() ? 0 : found->second;
  }

  Simulator simulator_;
  FluidNetwork network_{simulator_};
  LimitLog log_;
};

TEST_F(FluidLimitTest, AFlowAloneIsLimitedByItsSlowestResourceOrItsCap) {
  const ResourceId link = network_.add_resource(4.0);
  const ResourceId unit = network_.add_resource(1.0);
  // 1000 units of the link (250 ps) and 500 of the unit (500 ps): the unit.
  network_.start_flow(
      {{link, 1000.0}, {unit, 500.0}}, FluidNetwork::kUncapped, [] {}, 1);
  simulator_.run();
  EXPECT_EQ(limited(1, unit), 500);
  EXPECT_EQ(limited(1, link), 0);
  // The same with a cap of 1/800 per ps: the cap.
  network_.start_flow(
      {{link, 1000.0}, {unit, 500.0}}, 1.0 / 800, [] {}, 2);
  simulator_.run();
  EXPECT_EQ(limited(2, kOwnCap), 800);
  EXPECT_EQ(limited(2, unit), 0);
}

TEST_F(FluidLimitTest, ALimitChangesWhenASharerLeaves) {
  // Two flows share a 1 unit/ps link; a (1000 units) is capped at 0.8
  // units/ps, b (200 units) is not. Both get 0.5 until b ends at 400 ps;
  // then a's cap holds it: 800 units at 0.8 take 1000 ps.
  const ResourceId link = network_.add_resource(1.0);
  std::int64_t a_end = 0;
  network_.start_flow(
      {{link, 1000.0}}, 0.8 / 1000, [&] { a_end = simulator_.now().ps(); }, 1);
  network_.start_flow(
      {{link, 200.0}}, FluidNetwork::kUncapped, [] {}, 2);
  simulator_.run();
  EXPECT_EQ(a_end, 1400);
  EXPECT_EQ(limited(1, link), 400);
  EXPECT_EQ(limited(1, kOwnCap), 1000);
  EXPECT_EQ(limited(2, link), 400);
}

TEST_F(FluidLimitTest, APrivateResourceIsNamedNotTheCap) {
  // a shares the link with b but is held back by its own unit (used by it
  // alone): the unit, not its cap, is reported.
  const ResourceId link = network_.add_resource(1.0);
  const ResourceId unit = network_.add_resource(1.0);
  network_.start_flow(
      {{link, 100.0}, {unit, 400.0}}, FluidNetwork::kUncapped, [] {}, 1);
  network_.start_flow(
      {{link, 1000.0}}, FluidNetwork::kUncapped, [] {}, 2);
  simulator_.run();
  EXPECT_EQ(limited(1, unit), 400);  // 1/400 per ps leaves the link 0.75 for b
  EXPECT_EQ(limited(1, link), 0);
  EXPECT_EQ(limited(1, kOwnCap), 0);
}

TEST_F(FluidLimitTest, NoObserverNoReports) {
  Simulator simulator;
  FluidNetwork network(simulator);
  const ResourceId link = network.add_resource(1.0);
  network.start_flow(
      {{link, 10.0}}, FluidNetwork::kUncapped, [] {}, 7);
  simulator.run();  // nothing to observe: must simply run
  EXPECT_EQ(simulator.now().ps(), 10);
}

// Chains of flows on shared and private resources, half of them capped; each
// flow's reported durations must add up to its lifetime.
void check_durations_add_up(FluidNetwork::Updates updates, std::uint64_t seed) {
  Simulator simulator;
  FluidNetwork network(simulator, updates);
  const ResourceId link = network.add_resource(5.0);
  const ResourceId memory = network.add_resource(2.0);
  std::vector<ResourceId> ports;
  for (int i = 0; i < 20; ++i) ports.push_back(network.add_resource(0.1 + 0.01 * (i % 7)));
  std::map<std::uint32_t, std::int64_t> reported;
  network.set_limit_observer(
      [&](std::uint32_t owner, ResourceId, SimTime duration) { reported[owner] += duration.ps(); });
  std::map<std::uint32_t, std::pair<std::int64_t, std::int64_t>> lifetime;  // begin, end
  std::uint64_t state = seed;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  std::uint32_t next_owner = 0;
  std::function<void(int, int)> start = [&](int chain, int step) {
    if (step == 8) return;
    const std::uint32_t owner = next_owner++;
    const double bytes = static_cast<double>(200 + next() % 2000);
    FlowDemands demands = {{link, bytes}, {ports[static_cast<std::size_t>(chain % 20)], bytes}};
    if (next() % 2 == 0) demands.push_back({memory, bytes * 0.3});
    const double cap = next() % 2 == 0 ? 1.0 / (50.0 + static_cast<double>(next() % 400))
                                       : FluidNetwork::kUncapped;
    lifetime[owner].first = simulator.now().ps();
    network.start_flow(
        std::move(demands), cap,
        [&, owner, chain, step] {
          lifetime[owner].second = simulator.now().ps();
          start(chain, step + 1);
        },
        owner);
  };
  for (int chain = 0; chain < 26; ++chain) {  // 6 SMs run two chains
    simulator.schedule_at(SimTime::from_ps(static_cast<std::int64_t>(next() % 300)),
                          EventPriority::normal, [&, chain] { start(chain, 0); });
  }
  simulator.run();
  ASSERT_EQ(lifetime.size(), 26u * 8u);
  for (const auto& [owner, span] : lifetime) {
    EXPECT_EQ(reported[owner], span.second - span.first) << "flow " << owner;
  }
}

TEST(FluidLimitDurations, AddUpToEveryFlowsLifetimeIncrementally) {
  for (const std::uint64_t seed : {1u, 7u, 42u})
    check_durations_add_up(FluidNetwork::Updates::incremental, seed);
}

TEST(FluidLimitDurations, AddUpToEveryFlowsLifetimeWithFullRecomputation) {
  for (const std::uint64_t seed : {1u, 7u, 42u}) {
    check_durations_add_up(FluidNetwork::Updates::full_recompute, seed);
  }
}

}  // namespace
}  // namespace tilesim::sim
