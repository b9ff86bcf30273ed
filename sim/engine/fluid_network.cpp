#include "sim/engine/fluid_network.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace tilesim::sim {
namespace {
// Relative slack for deciding that a resource is full or a cap reached; rates
// are doubles, so exact equality cannot be expected.
constexpr double kRelativeSlack = 1e-9;
// What a push or pop on a heap of thousands of entries is charged
// (Simulator::charge), in elementary operations.
constexpr std::uint64_t kHeapOperations = 16;
}  // namespace

bool FluidNetwork::touches(const Flow& flow, ResourceId resource) const {
  return std::any_of(flow.demands.begin(), flow.demands.end(),
                     [resource](const FlowDemand& demand) { return demand.resource == resource; });
}

ResourceId FluidNetwork::add_resource(double capacity_per_ps) {
  if (!(capacity_per_ps > 0) || !std::isfinite(capacity_per_ps)) {
    throw std::invalid_argument("FluidNetwork::add_resource: capacity must be finite and > 0");
  }
  resources_.push_back(Resource{capacity_per_ps});
  return static_cast<ResourceId>(resources_.size() - 1);
}

void FluidNetwork::start_flow(FlowDemands&& demands, double max_progress_per_ps,
                              Simulator::Action on_complete, std::uint32_t owner) {
  if (!(max_progress_per_ps > 0)) {
    throw std::invalid_argument("FluidNetwork::start_flow: the cap must be > 0");
  }
  // A demand of no amount takes nothing of its resource: the flow leaves it out.
  const auto needed = [](const FlowDemand& d) { return !(d.amount <= 0); };
  if (max_progress_per_ps == kUncapped && std::none_of(demands.begin(), demands.end(), needed)) {
    simulator_.schedule_at(simulator_.now(), EventPriority::normal, std::move(on_complete));
    return;
  }
  std::uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  // Every field is set in place: a finished flow's slot is not cleared. The
  // needed demands go into the slot's inline storage in one pass that also
  // finds the solo rate and counts the flow on its resources.
  Flow& flow = flows_[slot];
  flow.demands.clear();
  double solo_rate = max_progress_per_ps;
  ResourceId solo_limit = kOwnCap;
  for (const FlowDemand& demand : demands) {
    if (!needed(demand)) continue;
    flow.demands.push_back(demand);
    Resource& resource = resources_[demand.resource];
    const double rate = resource.capacity / demand.amount;
    if (rate < solo_rate) {
      solo_rate = rate;
      solo_limit = demand.resource;
    }
    ++resource.active_flows;
  }
  demands.clear();
  flow.cap = max_progress_per_ps;
  flow.solo_rate = solo_rate;
  flow.solo_limit = solo_limit;
  flow.cap_limit = kOwnCap;
  flow.limit = kOwnCap;
  flow.limit_since = simulator_.now();
  flow.owner = owner;
  flow.fair_size = flow.demands.empty() ? 1.0 : flow.demands.front().amount;
  flow.level_cap = 0;
  flow.progress_left = 1.0;
  flow.updated_at = simulator_.now();
  flow.rate = 0;
  flow.generation = 0;
  flow.active = true;
  flow.frozen = false;
  flow.frozen_by_resource = false;
  flow.bound = false;
  flow.virtual_finish = 0;
  flow.on_complete.swap(on_complete);  // cheaper than a move; the slot held none
  started_.push_back(slot);
  ++active_count_;
  ++counts_.flows;
  request_update();
}

void FluidNetwork::request_update() {
  if (update_pending_) return;
  update_pending_ = true;
  simulator_.schedule_at(simulator_.now(), EventPriority::rate_update, [this] {
    ++counts_.update_events;
    update_rates();
  });
}

template <typename Entry>
bool FluidNetwork::is_live(const Entry& entry) const {
  const Flow& flow = flows_[entry.flow];
  return flow.active && flow.generation == entry.generation;
}

// The heap pops entries by (time, flow), unique among the live ones, so the
// same flows complete in the same order however the entries were filed.
inline void FluidNetwork::heap_new_completions(std::size_t heaped) {
  // Most updates file one completion, which usually stands.
  if (completions_.size() == heaped + 1 && is_live(completions_.back())) {
    std::push_heap(completions_.begin(), completions_.end(), std::greater<>{});
    return;
  }
  std::size_t size = heaped;
  for (std::size_t index = heaped; index < completions_.size(); ++index) {
    if (!is_live(completions_[index])) continue;
    if (size != index) completions_[size] = completions_[index];
    ++size;
    std::push_heap(completions_.begin(), completions_.begin() + static_cast<std::ptrdiff_t>(size),
                   std::greater<>{});
  }
  completions_.resize(size);
}

void FluidNetwork::update_rates() {
  update_pending_ = false;
  ++reallocation_count_;
  const std::size_t heaped = completions_.size();
  const std::uint64_t recomputations = counts_.full_recomputations;
  switch (mode_) {
    case Mode::solo:
      // An end frees capacity nobody can use, so only the new flows need rates.
      if (!admit_at_solo_rates()) recompute_all_rates();
      break;
    case Mode::bottleneck:
      if (!update_bottleneck()) {
        leave_bottleneck_mode();
        recompute_all_rates();
      }
      break;
    case Mode::general:
      recompute_all_rates();
      break;
  }
  // The completions this update filed join the heap now, but for those it
  // left stale already (a flow bound as soon as it was admitted). After a
  // re-solve, which gives nearly every flow a new rate, the heap is rebuilt
  // from its live entries instead.
  if (counts_.full_recomputations != recomputations) {
    drop_stale_completions();
  } else {
    heap_new_completions(heaped);
  }
  started_.clear();
  schedule_wakeup();
  if (observer_) observer_();
}

bool FluidNetwork::admit_at_solo_rates() {
  bool oversubscribed = false;
  for (std::uint32_t index : started_) {
    const Flow& flow = flows_[index];
    for (const FlowDemand& demand : flow.demands) {
      Resource& resource = resources_[demand.resource];
      resource.usage += demand.amount * flow.solo_rate;
      oversubscribed = oversubscribed || resource.usage > resource.capacity * (1 + kRelativeSlack);
    }
  }
  if (oversubscribed) return false;  // the full recomputation rebuilds usage
  for (std::uint32_t index : started_) {
    set_rate(index, flows_[index].solo_rate, flows_[index].solo_limit);
  }
  return true;
}

void FluidNetwork::set_limit(std::uint32_t flow_index, ResourceId limit) {
  Flow& flow = flows_[flow_index];
  if (flow.limit == limit || !limit_observer_) return;
  const SimTime now = simulator_.now();
  if (now > flow.limit_since) limit_observer_(flow.owner, flow.limit, now - flow.limit_since);
  flow.limit = limit;
  flow.limit_since = now;
}

void FluidNetwork::set_rate(std::uint32_t flow_index, double rate, ResourceId limit) {
  set_limit(flow_index, limit);
  Flow& flow = flows_[flow_index];
  const SimTime now = simulator_.now();
  if (flow.rate == rate && flow.generation != 0) return;  // its completion stands
  flow.progress_left -= flow.rate * static_cast<double>((now - flow.updated_at).ps());
  flow.updated_at = now;
  flow.rate = rate;
  // Network-wide, so that an entry of a finished flow never matches the flow
  // that reuses its slot.
  flow.generation = ++last_generation_;
  const SimTime left = SimTime::from_ps_rounded_up(std::max(flow.progress_left, 0.0) / rate);
  // Filed unsorted: the update of rates it belongs to heaps it (heap_new_completions).
  completions_.push_back(Completion{now + left, flow_index, flow.generation});
}

void FluidNetwork::collect_demands() {
  for (ResourceId id : touched_) {
    Resource& resource = resources_[id];
    resource.remaining = 0;
    resource.weight = 0;
    resource.flow_count = 0;
    resource.saturated = false;
  }
  touched_.clear();
  shared_.clear();
  unfrozen_.clear();
  unfrozen_demands_ = 0;
  for (std::uint32_t index = 0; index < flows_.size(); ++index) {
    Flow& flow = flows_[index];
    if (!flow.active) continue;
    flow.frozen = false;
    flow.frozen_by_resource = false;
    unfrozen_.push_back(index);
    unfrozen_demands_ += flow.demands.size();
    for (const FlowDemand& demand : flow.demands) {
      Resource& resource = resources_[demand.resource];
      if (resource.flow_count == 0) {
        resource.remaining = resource.capacity;
        touched_.push_back(demand.resource);
      }
      if (++resource.flow_count == 2) shared_.push_back(demand.resource);
      resource.weight += demand.amount / flow.fair_size;
    }
  }
}

void FluidNetwork::fold_private_resources_into_caps() {
  for (std::uint32_t index : unfrozen_) {
    Flow& flow = flows_[index];
    double progress_cap = flow.cap;
    flow.cap_limit = kOwnCap;
    for (const FlowDemand& demand : flow.demands) {
      const Resource& resource = resources_[demand.resource];
      if (resource.flow_count == 1 && resource.capacity / demand.amount < progress_cap) {
        progress_cap = resource.capacity / demand.amount;
        flow.cap_limit = demand.resource;
      }
    }
    flow.level_cap = progress_cap * flow.fair_size;
  }
}

void FluidNetwork::freeze(std::uint32_t flow_index, double level, ResourceId limit) {
  Flow& flow = flows_[flow_index];
  flow.frozen = true;
  // Its demands, and the heaps its cap leaves and its completion joins.
  simulator_.charge(flow.demands.size() + kHeapOperations);
  for (const FlowDemand& demand : flow.demands) {
    resources_[demand.resource].weight -= demand.amount / flow.fair_size;
  }
  set_rate(flow_index, level / flow.fair_size, limit);
}

// The flows still filling that use a full resource freeze at the level, in
// slot order. The first time a resource fills, every filling flow's demands
// are looked at (most recomputations fill once); after, only the flows of the
// resources that filled this round (every flow of a resource that filled
// earlier froze in that round): one resource's list is in slot order already;
// several are marked (a flow may use two of them) and put in order by a sort,
// or by a scan when they are many.
std::size_t FluidNetwork::freeze_flows_on_saturated_resources(double level) {
  if (!flows_listed_by_resource_) {
    if (++filled_rounds_ == 1) return freeze_filling_flows_on_saturated_resources(level);
    list_filling_flows_by_resource();
  }
  reached_full_.clear();
  for (ResourceId id : newly_full_) {
    simulator_.charge(resource_flows_[id].size());
    for (std::uint32_t index : resource_flows_[id]) {
      Flow& flow = flows_[index];
      if (flow.frozen || flow.frozen_by_resource) continue;
      flow.frozen_by_resource = true;
      reached_full_.push_back(index);
    }
  }
  if (newly_full_.size() > 1) {
    const std::size_t count = reached_full_.size();
    const auto sort_cost = count * static_cast<std::size_t>(std::bit_width(count));
    simulator_.charge(std::min(sort_cost, unfrozen_.size()));
    if (sort_cost < unfrozen_.size()) {
      std::sort(reached_full_.begin(), reached_full_.end());
    } else {
      reached_full_.clear();
      for (std::uint32_t index : unfrozen_) {
        if (flows_[index].frozen_by_resource && !flows_[index].frozen)
          reached_full_.push_back(index);
      }
    }
  }
  for (std::uint32_t index : reached_full_) {
    const Flow& flow = flows_[index];
    // Of several full resources, the first it demands is named its limit.
    const auto full = std::find_if(
        flow.demands.begin(), flow.demands.end(),
        [this](const FlowDemand& demand) { return resources_[demand.resource].saturated; });
    freeze(index, level, full->resource);
  }
  return reached_full_.size();
}

std::size_t FluidNetwork::freeze_filling_flows_on_saturated_resources(double level) {
  std::size_t frozen = 0;
  for (std::uint32_t index : filling_) {
    Flow& flow = flows_[index];
    if (flow.frozen) continue;  // filling_ is no longer pruned once the caps are in the heap
    simulator_.charge(flow.demands.size());
    // Of several full resources, the first it demands is named its limit.
    const auto full = std::find_if(
        flow.demands.begin(), flow.demands.end(),
        [this](const FlowDemand& demand) { return resources_[demand.resource].saturated; });
    if (full == flow.demands.end()) continue;
    freeze(index, level, full->resource);
    flow.frozen_by_resource = true;
    ++frozen;
  }
  return frozen;
}

// The filling flows whose cap the level reached, in the order of (cap, flow):
// the shared resources' weights lose the flows' demands in this order, and
// their rounding is part of every later result.
std::size_t FluidNetwork::freeze_flows_at_caps(double level) {
  const double reached = level * (1 + kRelativeSlack);
  if (!caps_in_heap_) {
    reached_caps_.clear();
    for (std::uint32_t index : filling_) {
      if (flows_[index].level_cap <= reached)
        reached_caps_.push_back({flows_[index].level_cap, index});
    }
    std::sort(reached_caps_.begin(), reached_caps_.end());
    for (const auto& [cap, index] : reached_caps_) freeze(index, cap, flows_[index].cap_limit);
    return reached_caps_.size();
  }
  std::size_t frozen = 0;
  while (!caps_.empty() && caps_.front().first <= reached) {
    const auto [cap, index] = caps_.front();
    pop_cap();
    if (flows_[index].frozen) continue;
    freeze(index, cap, flows_[index].cap_limit);
    ++frozen;
  }
  return frozen;
}

void FluidNetwork::pop_cap() {
  simulator_.charge(kHeapOperations);
  std::pop_heap(caps_.begin(), caps_.end(), std::greater<>{});
  caps_.pop_back();
}

// The lowest cap among the flows still filling.
double FluidNetwork::lowest_filling_cap() {
  if (!caps_in_heap_) {
    simulator_.charge(filling_.size());
    double lowest = kUncapped;
    for (std::uint32_t index : filling_) lowest = std::min(lowest, flows_[index].level_cap);
    return lowest;
  }
  while (!caps_.empty() && flows_[caps_.front().second].frozen) pop_cap();
  return caps_.empty() ? kUncapped : caps_.front().first;
}

// After a round: the flows still filling are either scanned again (cheap when
// the rounds are few) or, from round log2(flows) on, kept in a min-heap of
// (cap, flow) whose frozen entries leave when they reach its top.
void FluidNetwork::keep_filling_caps(std::size_t rounds) {
  if (caps_in_heap_) return;
  simulator_.charge(filling_.size());
  std::erase_if(filling_, [this](std::uint32_t index) { return flows_[index].frozen; });
  if (rounds < static_cast<std::size_t>(std::bit_width(unfrozen_.size()))) return;
  caps_.clear();
  for (std::uint32_t index : filling_) caps_.push_back({flows_[index].level_cap, index});
  std::make_heap(caps_.begin(), caps_.end(), std::greater<>{});
  caps_in_heap_ = true;
}

// Each shared resource's filling flows, in slot order.
void FluidNetwork::list_filling_flows_by_resource() {
  if (resource_flows_.size() < resources_.size()) resource_flows_.resize(resources_.size());
  for (ResourceId id : shared_) resource_flows_[id].clear();
  for (std::uint32_t index : filling_) {
    const Flow& flow = flows_[index];
    if (flow.frozen) continue;  // filling_ is no longer pruned once the caps are in the heap
    simulator_.charge(flow.demands.size());
    for (const FlowDemand& demand : flow.demands) {
      if (resources_[demand.resource].flow_count > 1)
        resource_flows_[demand.resource].push_back(index);
    }
  }
  flows_listed_by_resource_ = true;
}

// Progressive filling: raise the rate of every unfrozen flow together until a
// resource fills or a flow reaches its cap; freeze those flows; repeat.
// A resource only one flow uses is just a cap on that flow, so it is folded
// into the flow's cap: only shared resources are scanned per round. A round
// finds the lowest cap and the caps it reached by a scan of the filling flows,
// or from a heap once the rounds are many, and a resource that fills freezes
// only its own flows: with a full resource per SM a recomputation has as many
// rounds as SMs.
void FluidNetwork::recompute_all_rates() {
  ++counts_.full_recomputations;
  collect_demands();
  fold_private_resources_into_caps();
  filling_.assign(unfrozen_.begin(), unfrozen_.end());
  caps_in_heap_ = false;
  flows_listed_by_resource_ = false;
  filled_rounds_ = 0;
  std::size_t rounds = 0;
  std::size_t filling = unfrozen_.size();
  open_resources_.assign(shared_.begin(), shared_.end());
  double level = 0;
  double fill_level = 0;  // where the first shared resource filled
  // Charged to the simulator's effort: with many shared resources filling at
  // different levels, rounds times resources grows as the square of the flows.
  // collect_demands, the folding of private resources and the usage at the end
  // each visit every active flow's demands.
  simulator_.charge(flows_.size() + 3 * unfrozen_demands_);
  while (filling > 0) {
    // The open resources are visited three times a round.
    simulator_.charge(3 * open_resources_.size());
    // Only shared resources still filling are visited; one whose flows all
    // froze (weight 0) or that is full stays out for the rest of the fill.
    double resource_level = kUncapped;
    std::erase_if(open_resources_, [this](ResourceId id) {
      const Resource& resource = resources_[id];
      return resource.saturated || resource.weight <= 0;
    });
    for (ResourceId id : open_resources_) {
      const Resource& resource = resources_[id];
      resource_level = std::min(resource_level, level + resource.remaining / resource.weight);
    }
    const double new_level = std::min(resource_level, lowest_filling_cap());
    // A resource can fill (within the slack) on a step that a cap set, too.
    newly_full_.clear();
    for (ResourceId id : open_resources_) {
      Resource& resource = resources_[id];
      resource.remaining -= (new_level - level) * resource.weight;
      if (resource.remaining <= kRelativeSlack * resource.capacity) {
        resource.saturated = true;
        newly_full_.push_back(id);
      }
    }
    const bool filled = !newly_full_.empty();
    level = new_level;
    std::size_t frozen = freeze_flows_at_caps(level);
    if (filled) {
      if (fill_level == 0) fill_level = level;
      frozen += freeze_flows_on_saturated_resources(level);
    }
    if (frozen == 0) throw std::logic_error("FluidNetwork: progressive filling made no progress");
    filling -= frozen;
    keep_filling_caps(++rounds);
  }
  for (ResourceId id : touched_) resources_[id].usage = 0;
  for (std::uint32_t index : unfrozen_) {
    const Flow& flow = flows_[index];
    for (const FlowDemand& demand : flow.demands) {
      resources_[demand.resource].usage += demand.amount * flow.rate;
    }
  }
  std::size_t full_count = 0;
  ResourceId full = 0;  // the only full one, when full_count is 1
  for (ResourceId id : shared_) {
    if (!resources_[id].saturated) continue;
    ++full_count;
    full = id;
  }
  // Without a full shared resource every flow got its effective cap, which is
  // then also its solo rate.
  mode_ = full_count == 0 ? Mode::solo : Mode::general;
  if (updates_ == Updates::full_recompute) {
    mode_ = Mode::general;
  } else if (full_count == 1) {
    enter_bottleneck_mode(full, fill_level);
  }
}

void FluidNetwork::pop_completion() {
  std::pop_heap(completions_.begin(), completions_.end(), std::greater<>{});
  completions_.pop_back();
}

void FluidNetwork::pop_virtual_completion() {
  std::pop_heap(virtual_completions_.begin(), virtual_completions_.end(), std::greater<>{});
  virtual_completions_.pop_back();
}

SimTime FluidNetwork::next_completion() {
  while (!completions_.empty() && !is_live(completions_.front())) pop_completion();
  while (!virtual_completions_.empty() && !is_live(virtual_completions_.front())) {
    pop_virtual_completion();
  }
  SimTime next = completions_.empty() ? SimTime::infinite() : completions_.front().when;
  if (!virtual_completions_.empty()) {
    const double left = std::max(virtual_completions_.front().virtual_finish - virtual_now_, 0.0);
    next = std::min(next, virtual_at_ + SimTime::from_ps_rounded_up(left / level_));
  }
  return next;
}

void FluidNetwork::drop_stale_completions() {
  std::erase_if(completions_, [this](const Completion& entry) { return !is_live(entry); });
  std::make_heap(completions_.begin(), completions_.end(), std::greater<>{});
}

void FluidNetwork::schedule_wakeup() {
  // Entries of flows whose rate changed or that finished are dropped; when they
  // outnumber the live ones, rebuilding is cheaper than popping them one by one.
  if (completions_.size() > 2 * active_count_ + 64) drop_stale_completions();
  const SimTime next = next_completion();
  if (next == SimTime::infinite() || next == wakeup_at_) return;
  wakeup_at_ = next;
  const std::uint64_t token = ++wakeup_token_;
  simulator_.schedule_at(wakeup_at_, EventPriority::normal,
                         [this, token] { complete_due_flows(token); });
}

void FluidNetwork::complete_due_flows(std::uint64_t wakeup) {
  if (wakeup != wakeup_token_) return;  // superseded by an earlier completion
  wakeup_at_ = SimTime::infinite();
  advance_virtual_clock();
  std::vector<std::pair<std::uint32_t, Simulator::Action>> finished = std::move(finished_);
  finished.clear();
  while (!completions_.empty() && completions_.front().when <= simulator_.now()) {
    const Completion completion = completions_.front();
    pop_completion();
    if (!is_live(completion)) continue;
    finished.emplace_back(completion.flow, std::move(flows_[completion.flow].on_complete));
    finish_flow(completion.flow);
  }
  // A bound flow is due once it would finish within half a picosecond.
  const double due = virtual_now_ + 0.5 * level_;
  while (!virtual_completions_.empty() && virtual_completions_.front().virtual_finish <= due) {
    const VirtualCompletion completion = virtual_completions_.front();
    pop_virtual_completion();
    if (!is_live(completion)) continue;
    finished.emplace_back(completion.flow, std::move(flows_[completion.flow].on_complete));
    finish_flow(completion.flow);
  }
  if (finished.empty()) {
    finished_ = std::move(finished);
    schedule_wakeup();  // woken for a completion that moved later
    return;
  }
  ++counts_.completion_events;
  // The flows the callbacks start join one update of rates, run here once
  // they have all started, unless an update of this instant is already queued.
  const bool update_queued = update_pending_;
  update_pending_ = true;
  // Simultaneous completions report in slot order whichever heap they came
  // from, so every mode of updating rates runs the callbacks alike.
  std::sort(finished.begin(), finished.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [flow, action] : finished) action();
  finished_ = std::move(finished);  // keeps its capacity for the next completion
  if (!update_queued) update_rates();
}

void FluidNetwork::finish_flow(std::uint32_t flow_index) {
  Flow& flow = flows_[flow_index];
  if (limit_observer_ && simulator_.now() > flow.limit_since) {
    limit_observer_(flow.owner, flow.limit, simulator_.now() - flow.limit_since);
  }
  if (flow.bound) {
    simulator_.charge(bound_by_cap_.size());
    bound_by_cap_.erase(flow.level_cap, flow_index);
  } else if (capped_on_bottleneck_.contains(flow_index)) {
    // In the set exactly when the bottleneck mode holds and the flow uses the
    // bottleneck unbound; asked of the set rather than of the flow's demands.
    simulator_.charge(capped_on_bottleneck_.size());
    capped_on_bottleneck_.erase(flow.level_cap, flow_index);
  }
  for (const FlowDemand& demand : flow.demands) {
    Resource& resource = resources_[demand.resource];
    --resource.active_flows;
    if (flow.bound) {
      resource.bound_weight = std::max(0.0, resource.bound_weight - demand.amount / flow.fair_size);
    } else {
      resource.usage = std::max(0.0, resource.usage - demand.amount * flow.rate);
    }
  }
  flow.active = false;
  flow.bound = false;
  flow.on_complete = nullptr;
  free_slots_.push_back(flow_index);
  --active_count_;
}

}  // namespace tilesim::sim
