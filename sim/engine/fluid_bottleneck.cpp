// FluidNetwork's bottleneck mode: one shared resource is full, and the flows it
// limits ("bound" flows) all progress at its fair level. Each bound flow gets
// level_ fair units per ps, so instead of updating every bound flow when the
// level changes, they share a virtual clock (fair units given so far) and each
// keeps the virtual time at which it completes. A start or end moves the level
// (water-filling against the flows' own caps) and touches only the flows that
// cross it. Anything this cannot express (a second full resource, a resource
// newly shared) falls back to the general recomputation.

#include <algorithm>
#include <cmath>

#include "sim/engine/fluid_network.hpp"

namespace tilesim::sim {
namespace {
constexpr double kRelativeSlack = 1e-9;
}  // namespace

void FluidNetwork::advance_virtual_clock() {
  const SimTime now = simulator_.now();
  virtual_now_ += level_ * static_cast<double>((now - virtual_at_).ps());
  virtual_at_ = now;
}

void FluidNetwork::enter_bottleneck_mode(ResourceId bottleneck, double level) {
  mode_ = Mode::bottleneck;
  bottleneck_ = bottleneck;
  level_ = level;
  virtual_now_ = 0;
  virtual_at_ = simulator_.now();
  watched_ = shared_;
  for (ResourceId id : watched_) resources_[id].watched = true;
  simulator_.charge(watched_.size() + unfrozen_.size());
  for (std::uint32_t index : unfrozen_) {
    const Flow& flow = flows_[index];
    if (flow.frozen_by_resource) {
      bind(index);
    } else if (touches(flow, bottleneck_)) {
      capped_on_bottleneck_.insert(flow.level_cap, index);
    }
  }
}

void FluidNetwork::leave_bottleneck_mode() {
  advance_virtual_clock();
  simulator_.charge(bound_by_cap_.size() + watched_.size() + capped_on_bottleneck_.size());
  // Each flow is set on its own: the order of the visit does not matter.
  bound_by_cap_.for_each([this](const auto& entry) {
    Flow& flow = flows_[entry.second];
    flow.progress_left = std::max(flow.virtual_finish - virtual_now_, 0.0) / flow.fair_size;
    flow.updated_at = simulator_.now();
    flow.rate = level_ / flow.fair_size;
    flow.bound = false;
    flow.generation = 0;  // its virtual entry goes; the recomputation files a real one
    for (const FlowDemand& demand : flow.demands) resources_[demand.resource].bound_weight = 0;
  });
  for (ResourceId id : watched_) {
    resources_[id].watched = false;
    resources_[id].bound_weight = 0;
  }
  bound_by_cap_.clear();
  capped_on_bottleneck_.clear();
  virtual_completions_.clear();
  watched_.clear();
  level_ = 0;
  mode_ = Mode::general;
}

// Moves a flow from its own cap to the bottleneck's level.
void FluidNetwork::bind(std::uint32_t flow_index) {
  Flow& flow = flows_[flow_index];
  const SimTime now = simulator_.now();
  flow.progress_left -= flow.rate * static_cast<double>((now - flow.updated_at).ps());
  flow.updated_at = now;
  set_limit(flow_index, bottleneck_);
  for (const FlowDemand& demand : flow.demands) {
    Resource& resource = resources_[demand.resource];
    resource.usage = std::max(0.0, resource.usage - demand.amount * flow.rate);
    resource.bound_weight += demand.amount / flow.fair_size;
  }
  // Charged as when the sets were sorted arrays (each insert or erase moved the
  // entries after it), so that a run's effort, and the budget it is held to,
  // stay as documented (docs/limits.md).
  simulator_.charge(capped_on_bottleneck_.size() + bound_by_cap_.size());
  capped_on_bottleneck_.erase(flow.level_cap, flow_index);
  bound_by_cap_.insert(flow.level_cap, flow_index);
  flow.bound = true;
  flow.rate = 0;
  flow.generation = ++last_generation_;  // retires its entry in completions_
  flow.virtual_finish = virtual_now_ + std::max(flow.progress_left, 0.0) * flow.fair_size;
  virtual_completions_.push_back({flow.virtual_finish, flow_index, flow.generation});
  std::push_heap(virtual_completions_.begin(), virtual_completions_.end(), std::greater<>{});
}

// Moves a bound flow back to its own cap.
void FluidNetwork::unbind(std::uint32_t flow_index) {
  Flow& flow = flows_[flow_index];
  flow.progress_left = std::max(flow.virtual_finish - virtual_now_, 0.0) / flow.fair_size;
  flow.updated_at = simulator_.now();
  flow.bound = false;
  flow.generation = 0;  // retires its virtual entry; set_rate files a new one
  for (const FlowDemand& demand : flow.demands) {
    Resource& resource = resources_[demand.resource];
    resource.bound_weight = std::max(0.0, resource.bound_weight - demand.amount / flow.fair_size);
  }
  simulator_.charge(capped_on_bottleneck_.size() + bound_by_cap_.size());
  bound_by_cap_.erase(flow.level_cap, flow_index);
  capped_on_bottleneck_.insert(flow.level_cap, flow_index);
  set_capped_rate(flow_index, flow.level_cap / flow.fair_size);
}

void FluidNetwork::set_capped_rate(std::uint32_t flow_index, double rate) {
  const Flow& flow = flows_[flow_index];
  for (const FlowDemand& demand : flow.demands) {
    Resource& resource = resources_[demand.resource];
    resource.usage = std::max(0.0, resource.usage + demand.amount * (rate - flow.rate));
  }
  set_rate(flow_index, rate, flow.cap_limit);
}

// A new flow starts at its own cap: its private resources (used by it alone)
// folded in, watched resources left to the capacity checks.
bool FluidNetwork::admit_to_bottleneck(std::uint32_t flow_index) {
  Flow& flow = flows_[flow_index];
  double progress_cap = flow.cap;
  flow.cap_limit = kOwnCap;
  bool on_bottleneck = false;  // the bottleneck is one of the watched resources
  for (const FlowDemand& demand : flow.demands) {
    const Resource& resource = resources_[demand.resource];
    if (resource.watched) {
      on_bottleneck = on_bottleneck || demand.resource == bottleneck_;
      continue;
    }
    if (resource.active_flows > 1) return false;  // newly shared
    if (resource.capacity / demand.amount < progress_cap) {
      progress_cap = resource.capacity / demand.amount;
      flow.cap_limit = demand.resource;
    }
  }
  if (!std::isfinite(progress_cap) && !on_bottleneck) return false;  // another resource limits it
  flow.level_cap = progress_cap * flow.fair_size;
  flow.rate = 0;
  if (on_bottleneck) {
    simulator_.charge(capped_on_bottleneck_.size());
    capped_on_bottleneck_.insert(flow.level_cap, flow_index);
  }
  if (std::isfinite(progress_cap)) {
    set_capped_rate(flow_index, progress_cap);
  } else {
    bind(flow_index);
  }
  return true;
}

// Water-filling on the bottleneck: the level at which bound flows use exactly
// the capacity the others leave. A flow whose cap lies above the level is
// bound, one whose cap lies below is not; the slack band between them keeps a
// flow from flipping back and forth.
bool FluidNetwork::settle_level() {
  const Resource& bottleneck = resources_[bottleneck_];
  const std::size_t limit = 4 * active_count_ + 8;
  for (std::size_t round = 0; round < limit; ++round) {
    const double spare = bottleneck.capacity - bottleneck.usage;
    double level = kUncapped;
    if (bottleneck.bound_weight > 0) {
      level = spare / bottleneck.bound_weight;
    } else if (spare < -kRelativeSlack * bottleneck.capacity) {
      level = -kUncapped;
    }
    if (!capped_on_bottleneck_.empty() &&
        capped_on_bottleneck_.first().first > level * (1 + kRelativeSlack)) {
      bind(capped_on_bottleneck_.first().second);
      continue;
    }
    if (!bound_by_cap_.empty() && bound_by_cap_.first().first < level) {
      unbind(bound_by_cap_.first().second);
      continue;
    }
    if (bound_by_cap_.empty()) {
      level_ = 0;
      return spare >= -kRelativeSlack * bottleneck.capacity;
    }
    level_ = level;
    return level_ > 0;
  }
  return false;
}

bool FluidNetwork::watched_resources_fit() const {
  simulator_.charge(watched_.size());
  return std::all_of(watched_.begin(), watched_.end(), [this](ResourceId id) {
    const Resource& resource = resources_[id];
    return id == bottleneck_ || resource.usage + level_ * resource.bound_weight <=
                                    resource.capacity * (1 + kRelativeSlack);
  });
}

bool FluidNetwork::update_bottleneck() {
  advance_virtual_clock();
  for (std::uint32_t index : started_) {
    if (!admit_to_bottleneck(index)) return false;
  }
  // With no flow bound, every flow runs at its cap, which the checks show is
  // also its solo rate; the mode stays, so that the next burst of flows on the
  // bottleneck binds them here rather than through a full recomputation.
  return settle_level() && watched_resources_fit();
}

}  // namespace tilesim::sim
