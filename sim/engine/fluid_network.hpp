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
// Cost: rates are kept in one of three modes.
// - solo: nothing is oversubscribed, every flow runs at its solo maximum; a
//   start or end touches only that flow (O(log flows)).
// - bottleneck: one shared resource is full and every flow it limits shares
//   its fair level; those flows advance on a common virtual clock (as in
//   processor sharing), so a change of the level touches no flow, and a start
//   or end costs O(log flows) plus the flows that cross the level.
// - general: anything else; the whole allocation is recomputed on every change
//   (O(flows x demands) per round of progressive filling).
// Work beyond O(log flows) is charged to the Simulator (Simulator::charge), so
// that a run's cost can be bounded.
// The modes give the same allocation (to rounding); `Updates::full_recompute`
// always takes the general path, as a reference for tests.
//
// What limits a flow: at any time a flow's rate is set either by one full
// resource it uses (its bottleneck in the max-min sense) or by its own cap
// (counting resources only it uses, which act as a cap). A limit observer, when
// set, is told for how long each flow was limited by what, so a model above can
// say where time went.

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/flow_cap_heap.hpp"
#include "sim/engine/fluid_counts.hpp"
#include "sim/engine/simulator.hpp"

namespace tilesim::sim {

using ResourceId = std::uint32_t;

struct FlowDemand {
  ResourceId resource;
  double amount;  // units of the resource the whole flow consumes
};
// A flow needs a handful of resources; kept inline, a start allocates nothing.
using FlowDemands = boost::container::small_vector<FlowDemand, 5>;

class FluidNetwork {
 public:
  static constexpr double kUncapped = std::numeric_limits<double>::infinity();
  // The limit of a flow held back by `max_progress_per_ps`, not by a resource.
  static constexpr ResourceId kOwnCap = std::numeric_limits<ResourceId>::max();
  // A flow of `owner` (the value given to start_flow) was limited by `limit` (a
  // resource or kOwnCap) for `duration`; reported when the limit changes and
  // when the flow ends, so the durations of one flow add up to its lifetime.
  using LimitObserver =
      std::function<void(std::uint32_t owner, ResourceId limit, SimTime duration)>;

  enum class Updates { incremental, full_recompute };

  explicit FluidNetwork(Simulator& simulator, Updates updates = Updates::incremental)
      : simulator_(simulator), updates_(updates) {}
  FluidNetwork(const FluidNetwork&) = delete;
  FluidNetwork& operator=(const FluidNetwork&) = delete;

  ResourceId add_resource(double capacity_per_ps);
  // Room for this many resources, or flows at once: a run that knows its
  // sizes up front (the GPU's 500-odd resources, a flow per resident CTA)
  // does not grow the arrays step by step. Changes no result.
  void reserve_resources(std::size_t resources) { resources_.reserve(resources); }
  void reserve_flows(std::size_t flows) { flows_.reserve(flows); }

  // Starts a flow now. `max_progress_per_ps` (> 0) caps the flow on its own
  // (1 / its shortest possible duration); a flow with no demands takes exactly
  // that long. `on_complete` runs at the instant the flow finishes. `owner`
  // is only passed back to the limit observer.
  // `demands` are taken over (an rvalue: a flow's inline demands are copied
  // once, into its slot).
  void start_flow(FlowDemands&& demands, double max_progress_per_ps, Simulator::Action on_complete,
                  std::uint32_t owner = 0);

  double capacity_per_ps(ResourceId resource) const { return resources_[resource].capacity; }
  // Sum of demand * rate of the active flows, as of the last update of rates.
  double usage_per_ps(ResourceId resource) const {
    const Resource& r = resources_[resource];
    return r.usage + level_ * r.bound_weight;
  }
  std::size_t active_flow_count() const { return active_count_; }
  // Batched updates of rates: one per instant at which flows started or ended.
  std::uint64_t reallocation_count() const { return reallocation_count_; }
  const FluidCounts& counts() const { return counts_; }
  // Called after every update of rates (e.g. to sample bandwidth in use).
  void set_reallocation_observer(std::function<void()> observer) {
    observer_ = std::move(observer);
  }
  void set_limit_observer(LimitObserver observer) { limit_observer_ = std::move(observer); }

 private:
  enum class Mode { solo, bottleneck, general };
  struct Resource {
    double capacity = 0;
    double usage = 0;         // of flows not bound to the bottleneck: demand x rate
    double bound_weight = 0;  // of flows bound to the bottleneck: demand / fair size
    std::uint32_t active_flows = 0;
    bool watched = false;  // shared when the bottleneck mode began: its capacity is checked
    // Scratch state of a full recomputation.
    double remaining = 0;
    double weight = 0;
    std::uint32_t flow_count = 0;
    bool saturated = false;
  };
  struct Flow {
    FlowDemands demands;
    double cap = kUncapped;
    double solo_rate = 0;             // its rate if it were alone: cap and every capacity
    double fair_size = 1;             // its first demand's amount: the unit its fair share is in
    double level_cap = 0;             // scratch: cap tightened by private resources, x fair_size
    double progress_left = 1.0;       // as of `updated_at`
    ResourceId solo_limit = kOwnCap;  // what sets solo_rate
    ResourceId cap_limit = kOwnCap;   // what sets level_cap
    ResourceId limit = kOwnCap;       // what sets its rate now, since limit_since
    SimTime limit_since;
    std::uint32_t owner = 0;
    SimTime updated_at;
    double rate = 0;
    std::uint64_t generation = 0;  // of its pending completion; 0 before it has one
    bool active = false;
    bool frozen = false;
    bool frozen_by_resource = false;  // scratch: at a full resource's level, not its cap
    bool bound = false;               // advances on the bottleneck's virtual clock
    double virtual_finish = 0;        // the virtual time at which a bound flow completes
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
  struct VirtualCompletion {
    double virtual_finish;
    std::uint32_t flow;
    std::uint64_t generation;
    bool operator>(const VirtualCompletion& other) const {
      return virtual_finish != other.virtual_finish ? virtual_finish > other.virtual_finish
                                                    : flow > other.flow;
    }
  };

  void request_update();
  void update_rates();
  bool admit_at_solo_rates();
  // Bottleneck mode (fluid_bottleneck.cpp); false: the change needs the general path.
  bool update_bottleneck();
  bool admit_to_bottleneck(std::uint32_t flow_index);
  bool settle_level();
  bool watched_resources_fit() const;
  void bind(std::uint32_t flow_index);
  void unbind(std::uint32_t flow_index);
  void set_capped_rate(std::uint32_t flow_index, double rate);
  void set_limit(std::uint32_t flow_index, ResourceId limit);
  void advance_virtual_clock();
  void enter_bottleneck_mode(ResourceId bottleneck, double level);
  void leave_bottleneck_mode();
  bool touches(const Flow& flow, ResourceId resource) const;
  void recompute_all_rates();
  void collect_demands();
  void fold_private_resources_into_caps();
  void pop_cap();
  void keep_filling_caps(std::size_t rounds);
  double lowest_filling_cap();
  std::size_t freeze_flows_at_caps(double level);
  std::size_t freeze_flows_on_saturated_resources(double level);
  std::size_t freeze_filling_flows_on_saturated_resources(double level);
  void list_filling_flows_by_resource();
  void freeze(std::uint32_t flow_index, double rate, ResourceId limit);
  void set_rate(std::uint32_t flow_index, double rate, ResourceId limit);
  template <typename Entry>
  bool is_live(const Entry& entry) const;
  void pop_completion();
  // Heaps the live completions filed after the first `heaped` entries.
  void heap_new_completions(std::size_t heaped);
  // Rebuilds the heap of completions from its live entries.
  void drop_stale_completions();
  void pop_virtual_completion();
  SimTime next_completion();
  void schedule_wakeup();
  void complete_due_flows(std::uint64_t wakeup);
  void finish_flow(std::uint32_t flow_index);

  Simulator& simulator_;
  Updates updates_;
  Mode mode_ = Mode::solo;
  std::vector<Resource> resources_;
  std::vector<Flow> flows_;  // slots, reused through free_slots_
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> started_;  // since the last update, in start order
  std::size_t active_count_ = 0;
  // A min-heap by time but for the entries filed by the update of rates in
  // progress; stale entries are skipped.
  std::vector<Completion> completions_;
  // Scratch of complete_due_flows: (slot, callback) of the flows due now.
  std::vector<std::pair<std::uint32_t, Simulator::Action>> finished_;
  // Bottleneck mode: every bound flow progresses at level_ / fair_size.
  ResourceId bottleneck_ = 0;
  double level_ = 0;        // fair units per ps
  double virtual_now_ = 0;  // fair units given to each bound flow, as of virtual_at_
  SimTime virtual_at_;
  std::vector<VirtualCompletion> virtual_completions_;         // a min-heap; stale entries skipped
  FlowCapHeap<CapOrder::lowest_first> bound_by_cap_;           // bound flows
  FlowCapHeap<CapOrder::highest_first> capped_on_bottleneck_;  // unbound flows that use it
  std::vector<ResourceId> watched_;
  // Scratch of a full recomputation.
  std::vector<std::uint32_t> unfrozen_;
  std::size_t unfrozen_demands_ = 0;    // demands of the flows in unfrozen_, for Simulator::charge
  std::vector<std::uint32_t> filling_;  // the flows not yet frozen, in slot order
  std::vector<std::pair<double, std::uint32_t>> reached_caps_;  // (level cap, flow) of one round
  std::vector<std::pair<double, std::uint32_t>> caps_;          // min-heap of (level cap, flow)
  bool caps_in_heap_ = false;  // the filling flows' caps are in caps_, not scanned in filling_
  std::vector<std::vector<std::uint32_t>> resource_flows_;  // by shared resource: its filling flows
  bool flows_listed_by_resource_ = false;    // resource_flows_ is of this recomputation
  std::size_t filled_rounds_ = 0;            // of this recomputation
  std::vector<ResourceId> open_resources_;   // shared, neither full nor left without flows
  std::vector<ResourceId> newly_full_;       // the shared resources one round filled
  std::vector<std::uint32_t> reached_full_;  // their unfrozen flows
  std::vector<ResourceId> touched_;
  std::vector<ResourceId> shared_;
  bool update_pending_ = false;
  SimTime wakeup_at_ = SimTime::infinite();
  std::uint64_t wakeup_token_ = 0;
  std::uint64_t last_generation_ = 0;
  std::uint64_t reallocation_count_ = 0;
  FluidCounts counts_;
  std::function<void()> observer_;
  LimitObserver limit_observer_;
};

}  // namespace tilesim::sim
