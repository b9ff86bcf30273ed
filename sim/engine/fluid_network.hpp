#pragma once
// Shared-rate resources in a fluid model. A flow needs a fixed amount of several
// resources (e.g. 2 MB of one, 1 GFLOP of another) and progresses from 0 to 1;
// at progress rate p it uses demand * p of each resource. Rates are a max-min
// fair allocation (progressive filling) under each resource's capacity and each
// flow's own cap, and change only when the set of flows changes, so a transfer
// costs a few events however large it is. Knows nothing about GPUs.
//
// Fairness is measured in the unit of each flow's first demand (e.g. the bytes
// of a transfer): max-min fairness equalizes amount(first) x p, so transfers
// sharing a link split its bytes/s equally and a small one ends first.
//
// Cost: while no resource is oversubscribed, every flow simply runs at its solo
// maximum and a start or end touches only that flow (O(log flows)); otherwise
// the whole allocation is recomputed (O(flows x demands) per round).

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

  // Starts a flow now. `max_progress_per_ps` (> 0) caps the flow on its own
  // (1 / its shortest possible duration); a flow with no demands takes exactly
  // that long. `on_complete` runs at the instant the flow finishes.
  void start_flow(std::vector<FlowDemand> demands, double max_progress_per_ps,
                  Simulator::Action on_complete);

  double capacity_per_ps(ResourceId resource) const { return resources_[resource].capacity; }
  // Sum of demand * rate of the active flows, as of the last update of rates.
  double usage_per_ps(ResourceId resource) const { return resources_[resource].usage; }
  std::size_t active_flow_count() const { return active_count_; }
  // Batched updates of rates: one per instant at which flows started or ended.
  std::uint64_t reallocation_count() const { return reallocation_count_; }
  // Called after every update of rates (e.g. to sample bandwidth in use).
  void set_reallocation_observer(std::function<void()> observer) {
    observer_ = std::move(observer);
  }

 private:
  struct Resource {
    double capacity = 0;
    double usage = 0;
    // Scratch state of a full recomputation.
    double remaining = 0;
    double weight = 0;
    std::uint32_t flow_count = 0;
    bool saturated = false;
  };
  struct Flow {
    std::vector<FlowDemand> demands;
    double cap = kUncapped;
    double solo_rate = 0;        // its rate if it were alone: cap and every capacity
    double fair_size = 1;        // its first demand's amount: the unit its fair share is in
    double level_cap = 0;        // scratch: cap tightened by private resources, x fair_size
    double progress_left = 1.0;  // as of `updated_at`
    SimTime updated_at;
    double rate = 0;
    std::uint64_t generation = 0;  // of its pending completion; 0 before it has one
    bool active = false;
    bool frozen = false;
    Simulator::Action on_complete;
  };
  struct Completion {
    SimTime when;
    std::uint32_t flow;
    std::uint64_t generation;
    bool operator>(const Completion& other) const {
      return when != other.when ? when > other.when : flow > other.flow;
    }
  };

  void request_update();
  void update_rates();
  bool admit_at_solo_rates();
  void recompute_all_rates();
  void collect_demands();
  void fold_private_resources_into_caps();
  std::size_t freeze_flows_on_saturated_resources(double level);
  void freeze(std::uint32_t flow_index, double rate);
  void set_rate(std::uint32_t flow_index, double rate);
  bool is_live(const Completion& entry) const;
  void pop_completion();
  void schedule_wakeup();
  void complete_due_flows(std::uint64_t wakeup);

  Simulator& simulator_;
  std::vector<Resource> resources_;
  std::vector<Flow> flows_;  // slots, reused through free_slots_
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> started_;  // since the last update, in start order
  std::size_t active_count_ = 0;
  // True when every active flow runs at its solo rate with no resource
  // oversubscribed; then a flow's end cannot speed up any other.
  bool all_at_solo_rate_ = true;
  std::vector<Completion> completions_;  // a min-heap by time; stale entries are skipped
  // Scratch of a full recomputation.
  std::vector<std::uint32_t> unfrozen_;
  std::vector<std::pair<double, std::uint32_t>> caps_;  // min-heap of (level cap, flow)
  std::vector<ResourceId> touched_;
  std::vector<ResourceId> shared_;
  bool update_pending_ = false;
  SimTime wakeup_at_ = SimTime::infinite();
  std::uint64_t wakeup_token_ = 0;
  std::uint64_t last_generation_ = 0;
  std::uint64_t reallocation_count_ = 0;
  std::function<void()> observer_;
};

}  // namespace tilesim::sim
