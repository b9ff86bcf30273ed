#pragma once
// Shared-rate resources in a fluid model. A flow needs a fixed amount of several
// resources (e.g. 2 MB of one, 1 GFLOP of another) and progresses from 0 to 1;
// at progress rate p it uses demand * p of each resource. Rates are a max-min
// fair allocation (progressive filling) under each resource's capacity and each
// flow's own cap, and are recomputed only when the set of flows changes, so a
// transfer costs a few events however large it is. Knows nothing about GPUs.

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "sim/engine/simulator.hpp"

namespace tilesim::sim {

using ResourceId = std::uint32_t;

struct FlowDemand {
  ResourceId resource;
  double amount;  // units of the resource the whole flow consumes
};

class FluidNetwork {
 public:
  static constexpr double kUncapped = std::numeric_limits<double>::infinity();

  explicit FluidNetwork(Simulator& simulator) : simulator_(simulator) {}
  FluidNetwork(const FluidNetwork&) = delete;
  FluidNetwork& operator=(const FluidNetwork&) = delete;

  ResourceId add_resource(double capacity_per_ps);

  // Starts a flow now. `max_progress_per_ps` caps the flow on its own (1 / its
  // shortest possible duration); a flow with no demands takes exactly that long.
  // `on_complete` runs at the instant the flow finishes.
  void start_flow(std::vector<FlowDemand> demands, double max_progress_per_ps,
                  Simulator::Action on_complete);

  double capacity_per_ps(ResourceId resource) const { return resources_[resource].capacity; }
  // Sum of demand * rate of the active flows, as of the last recomputation.
  double usage_per_ps(ResourceId resource) const { return resources_[resource].usage; }
  std::size_t active_flow_count() const { return active_.size(); }
  std::uint64_t reallocation_count() const { return reallocation_count_; }
  // Called after every recomputation of rates (e.g. to sample bandwidth in use).
  void set_reallocation_observer(std::function<void()> observer) {
    observer_ = std::move(observer);
  }

 private:
  struct Resource {
    double capacity = 0;
    double usage = 0;
    // Scratch state of the progressive filling.
    double remaining = 0;
    double weight = 0;
    bool touched = false;
    bool saturated = false;
  };
  struct Flow {
    std::vector<FlowDemand> demands;
    double cap = kUncapped;
    double progress_left = 1.0;
    double rate = 0;
    bool frozen = false;
    Simulator::Action on_complete;
  };

  void request_reallocation();
  void advance_to_now();
  void reallocate();
  void assign_fair_rates();
  void freeze(std::uint32_t flow_index, double rate);
  void schedule_next_completion();
  void complete_finished_flows(std::uint64_t generation);

  Simulator& simulator_;
  std::vector<Resource> resources_;
  std::vector<Flow> flows_;  // slots, reused through free_slots_
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> active_;  // in start order, for determinism
  std::vector<ResourceId> touched_;
  std::vector<std::uint32_t> unfrozen_;
  SimTime last_advance_;
  bool reallocation_pending_ = false;
  std::uint64_t completion_generation_ = 0;
  std::uint64_t reallocation_count_ = 0;
  std::function<void()> observer_;
};

}  // namespace tilesim::sim
