#include "sim/engine/fluid_network.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tilesim::sim {
namespace {
// Relative slack for deciding that a resource is full or a cap reached; rates
// are doubles, so exact equality cannot be expected.
constexpr double kRelativeSlack = 1e-9;
constexpr double kNoisePs = 1e-6;
}  // namespace

ResourceId FluidNetwork::add_resource(double capacity_per_ps) {
  if (!(capacity_per_ps > 0) || !std::isfinite(capacity_per_ps)) {
    throw std::invalid_argument("FluidNetwork::add_resource: capacity must be finite and > 0");
  }
  resources_.push_back(Resource{capacity_per_ps});
  return static_cast<ResourceId>(resources_.size() - 1);
}

void FluidNetwork::start_flow(std::vector<FlowDemand> demands, double max_progress_per_ps,
                              Simulator::Action on_complete) {
  if (!(max_progress_per_ps > 0)) {
    throw std::invalid_argument("FluidNetwork::start_flow: the cap must be > 0");
  }
  std::erase_if(demands, [](const FlowDemand& d) { return d.amount <= 0; });
  if (demands.empty() && max_progress_per_ps == kUncapped) {
    simulator_.schedule_at(simulator_.now(), EventPriority::normal, std::move(on_complete));
    return;
  }
  advance_to_now();
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  flows_[slot] =
      Flow{std::move(demands), max_progress_per_ps, 1.0, 0.0, false, std::move(on_complete)};
  active_.push_back(slot);
  request_reallocation();
}

void FluidNetwork::request_reallocation() {
  if (reallocation_pending_)
    return;
  reallocation_pending_ = true;
  simulator_.schedule_at(simulator_.now(), EventPriority::rate_update, [this] { reallocate(); });
}

void FluidNetwork::advance_to_now() {
  const double elapsed_ps = static_cast<double>((simulator_.now() - last_advance_).ps());
  if (elapsed_ps > 0) {
    for (std::uint32_t index : active_) {
      Flow& flow = flows_[index];
      flow.progress_left -= flow.rate * elapsed_ps;
    }
  }
  last_advance_ = simulator_.now();
}

void FluidNetwork::reallocate() {
  reallocation_pending_ = false;
  ++reallocation_count_;
  advance_to_now();
  assign_fair_rates();
  schedule_next_completion();
  if (observer_)
    observer_();
}

void FluidNetwork::freeze(std::uint32_t flow_index, double rate) {
  Flow& flow = flows_[flow_index];
  flow.frozen = true;
  flow.rate = rate;
  for (const FlowDemand& demand : flow.demands) {
    resources_[demand.resource].weight -= demand.amount;
  }
}

// Progressive filling: raise the rate of every unfrozen flow together until a
// resource fills or a flow reaches its cap; freeze those flows; repeat.
void FluidNetwork::assign_fair_rates() {
  for (ResourceId id : touched_)
    resources_[id] = Resource{resources_[id].capacity};
  touched_.clear();
  unfrozen_.clear();
  for (std::uint32_t index : active_) {
    Flow& flow = flows_[index];
    flow.frozen = false;
    flow.rate = 0;
    unfrozen_.push_back(index);
    for (const FlowDemand& demand : flow.demands) {
      Resource& resource = resources_[demand.resource];
      if (!resource.touched) {
        resource.touched = true;
        resource.remaining = resource.capacity;
        touched_.push_back(demand.resource);
      }
      resource.weight += demand.amount;
    }
  }

  double level = 0;
  while (!unfrozen_.empty()) {
    double resource_step = kUncapped;
    for (ResourceId id : touched_) {
      const Resource& resource = resources_[id];
      if (!resource.saturated && resource.weight > 0) {
        resource_step = std::min(resource_step, resource.remaining / resource.weight);
      }
    }
    double lowest_cap = kUncapped;
    for (std::uint32_t index : unfrozen_)
      lowest_cap = std::min(lowest_cap, flows_[index].cap);
    const double step = std::min(resource_step, lowest_cap - level);
    level += step;
    for (ResourceId id : touched_) {
      Resource& resource = resources_[id];
      if (resource.saturated || resource.weight <= 0)
        continue;
      resource.remaining -= step * resource.weight;
      if (resource.remaining <= kRelativeSlack * resource.capacity)
        resource.saturated = true;
    }
    for (std::uint32_t index : unfrozen_) {
      const Flow& flow = flows_[index];
      bool blocked = flow.cap <= level * (1 + kRelativeSlack);
      for (const FlowDemand& demand : flow.demands) {
        blocked = blocked || resources_[demand.resource].saturated;
      }
      if (blocked)
        freeze(index, std::min(level, flow.cap));
    }
    const std::size_t erased =
        std::erase_if(unfrozen_, [this](std::uint32_t index) { return flows_[index].frozen; });
    if (erased == 0) {
      throw std::logic_error("FluidNetwork: progressive filling made no progress");
    }
  }

  for (ResourceId id : touched_)
    resources_[id].usage = 0;
  for (std::uint32_t index : active_) {
    const Flow& flow = flows_[index];
    for (const FlowDemand& demand : flow.demands) {
      resources_[demand.resource].usage += demand.amount * flow.rate;
    }
  }
}

void FluidNetwork::schedule_next_completion() {
  ++completion_generation_;
  if (active_.empty())
    return;
  double soonest_ps = kUncapped;
  for (std::uint32_t index : active_) {
    const Flow& flow = flows_[index];
    soonest_ps = std::min(soonest_ps, std::max(flow.progress_left, 0.0) / flow.rate);
  }
  const SimTime delay = SimTime::from_ps_rounded_up(soonest_ps);
  const std::uint64_t generation = completion_generation_;
  simulator_.schedule_after(delay, EventPriority::normal,
                            [this, generation] { complete_finished_flows(generation); });
}

void FluidNetwork::complete_finished_flows(std::uint64_t generation) {
  if (generation != completion_generation_)
    return;  // rates changed since it was scheduled
  advance_to_now();
  std::vector<Simulator::Action> finished;
  std::erase_if(active_, [&](std::uint32_t index) {
    Flow& flow = flows_[index];
    // Done when what is left is floating-point noise (a millionth of a ps).
    if (flow.progress_left > flow.rate * kNoisePs)
      return false;
    finished.push_back(std::move(flow.on_complete));
    flow = Flow{};
    free_slots_.push_back(index);
    return true;
  });
  request_reallocation();
  for (Simulator::Action& action : finished)
    action();
}

}  // namespace tilesim::sim
