// Event-engine throughput without any GPU model: a chain of events, and
// many flows sharing one fluid resource.

#include <benchmark/benchmark.h>

#include "sim/engine/fluid_network.hpp"
#include "sim/engine/simulator.hpp"

namespace {

using tilesim::sim::EventPriority;
using tilesim::sim::SimTime;

void event_chain(benchmark::State& state) {
  const auto events = state.range(0);
  for (auto _ : state) {
    tilesim::sim::Simulator simulator;
    std::int64_t remaining = events;
    std::function<void()> step = [&] {
      if (--remaining > 0)
        simulator.schedule_after(SimTime::from_ps(7), EventPriority::normal, step);
    };
    simulator.schedule_at(SimTime{}, EventPriority::normal, step);
    simulator.run();
    benchmark::DoNotOptimize(simulator.events_processed());
  }
  state.SetItemsProcessed(state.iterations() * events);
}
BENCHMARK(event_chain)->Arg(100000);

// `flows` concurrent flows on a shared resource, each restarted when it ends:
// the cost of recomputing fair shares as the active set changes.
void shared_flows(benchmark::State& state) {
  const auto flows = state.range(0);
  constexpr int kRestarts = 20;
  for (auto _ : state) {
    tilesim::sim::Simulator simulator;
    tilesim::sim::FluidNetwork network(simulator);
    const auto shared = network.add_resource(1.0);
    std::vector<int> left(flows, kRestarts);
    std::function<void(std::int64_t)> start = [&](std::int64_t i) {
      const auto own = static_cast<double>(i % 7 + 1) * 1000;
      network.start_flow({{shared, own}}, tilesim::sim::FluidNetwork::kUncapped, [&, i] {
        if (--left[i] > 0) start(i);
      });
    };
    for (std::int64_t i = 0; i < flows; ++i) start(i);
    simulator.run();
    benchmark::DoNotOptimize(network.reallocation_count());
  }
  state.SetItemsProcessed(state.iterations() * flows * kRestarts);
}
BENCHMARK(shared_flows)->Arg(132)->Arg(264);

}  // namespace
