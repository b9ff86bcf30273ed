#include "sim/gpu/block_scheduler.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::gpu {
namespace {
constexpr int kWarpSize = 32;

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return unit > 0 ? (value + unit - 1) / unit * unit : value;
}
}  // namespace

BlockScheduler::BlockScheduler(const hw::SmSpec& sm)
    : spec_(sm),
      empty_({sm.max_threads, sm.registers,
              static_cast<std::int64_t>(sm.shared_memory.capacity_bytes), sm.max_ctas}) {
  sms_.assign(sm.count, empty_);
  slot_taken_.assign(sm.count, std::vector<bool>(sm.max_ctas, false));
}

CtaDemand BlockScheduler::demand_of(const CtaFootprint& footprint) const {
  const std::int64_t warps = (footprint.threads + kWarpSize - 1) / kWarpSize;
  const std::int64_t registers =
      warps * round_up(std::int64_t{footprint.registers_per_thread} * kWarpSize,
                       spec_.register_allocation_unit);
  const auto shared_bytes = static_cast<std::int64_t>(
      std::ceil(footprint.shared_memory_bytes + spec_.shared_memory.reserved_per_cta_bytes));
  return {warps * kWarpSize, registers, shared_bytes, 1};
}

int BlockScheduler::ctas_per_sm(const CtaFootprint& footprint) const {
  return static_cast<int>(empty_.headroom(demand_of(footprint)));
}

// Rooms are cached for the demand last asked about (one kernel at a time is the
// common case) and refreshed per SM as CTAs come and go.
void BlockScheduler::use_demand(const CtaDemand& demand) const {
  if (demand == room_demand_) return;
  room_demand_ = demand;
  room_.resize(sms_.size());
  for (std::size_t sm = 0; sm < sms_.size(); ++sm) room_[sm] = sms_[sm].headroom(demand);
}

void BlockScheduler::refresh_room(int sm) {
  if (!room_demand_.empty()) room_[sm] = sms_[sm].headroom(room_demand_);
}

bool BlockScheduler::has_room_for(const CtaDemand& demand, std::int64_t count) const {
  use_demand(demand);
  std::int64_t places = 0;
  for (const std::int64_t room : room_) {
    places += room;
    if (places >= count) return true;
  }
  return false;
}

std::optional<CtaPlacement> BlockScheduler::place(const CtaDemand& demand) {
  use_demand(demand);
  int best_sm = -1;
  std::int64_t best_room = 0;
  const std::int64_t empty_sm_room = empty_.headroom(demand);
  for (int sm = 0; sm < static_cast<int>(sms_.size()); ++sm) {
    const std::int64_t room = room_[sm];
    if (room > best_room) {
      best_room = room;
      best_sm = sm;
      if (room == empty_sm_room) break;  // nothing can have more room
    }
  }
  if (best_sm < 0) return std::nullopt;
  sms_[best_sm].acquire(demand);
  refresh_room(best_sm);
  std::vector<bool>& slots = slot_taken_[best_sm];
  const auto slot = static_cast<int>(std::find(slots.begin(), slots.end(), false) - slots.begin());
  slots[slot] = true;
  return CtaPlacement{best_sm, slot};
}

void BlockScheduler::release(const CtaPlacement& placement, const CtaDemand& demand) {
  sms_[placement.sm].release(demand);
  refresh_room(placement.sm);
  slot_taken_[placement.sm][placement.slot] = false;
}

}  // namespace tilesim::gpu
