#include "sim/gpu/block_scheduler.hpp"

#include <algorithm>
#include <bit>
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
              static_cast<std::int64_t>(sm.shared_memory.capacity_bytes), sm.max_ctas}) {}

// Most schedulers answer ctas_per_sm alone (lowering, cost and load estimates,
// every candidate of a search), which needs the empty SM only: the per-SM
// pools are built at the first question about room (132 pools, ~18,000
// instructions, 68 times in 1536^3 `auto`).
void BlockScheduler::build_sms() const {
  if (!sms_.empty()) return;
  sms_.assign(spec_.count, empty_);
  slot_taken_.assign(static_cast<std::size_t>(spec_.count) * spec_.max_ctas, false);
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
  build_sms();
  room_demand_ = demand;
  const std::size_t words = (sms_.size() + 63) / 64;
  sms_by_room_.assign(static_cast<std::size_t>(empty_.headroom(demand)) + 1,
                      std::vector<std::uint64_t>(words, 0));
  room_.assign(sms_.size(), 0);
  total_room_ = 0;
  for (std::size_t sm = 0; sm < sms_.size(); ++sm) {
    sms_by_room_[0][sm / 64] |= std::uint64_t{1} << (sm % 64);
    set_room(sm, sms_[sm].headroom(demand));
  }
}

void BlockScheduler::set_room(std::size_t sm, std::int64_t room) const {
  const std::uint64_t bit = std::uint64_t{1} << (sm % 64);
  sms_by_room_[static_cast<std::size_t>(room_[sm])][sm / 64] &= ~bit;
  sms_by_room_[static_cast<std::size_t>(room)][sm / 64] |= bit;
  total_room_ += room - room_[sm];
  room_[sm] = room;
}

void BlockScheduler::refresh_room(int sm) {
  if (!room_demand_.empty()) {
    set_room(static_cast<std::size_t>(sm), sms_[sm].headroom(room_demand_));
  }
}

bool BlockScheduler::has_room_for(const CtaDemand& demand, std::int64_t count) const {
  use_demand(demand);
  return total_room_ >= count;
}

std::optional<CtaPlacement> BlockScheduler::place(const CtaDemand& demand) {
  use_demand(demand);
  int best_sm = -1;
  for (std::size_t room = sms_by_room_.size() - 1; room > 0 && best_sm < 0; --room) {
    const std::vector<std::uint64_t>& words = sms_by_room_[room];
    for (std::size_t word = 0; word < words.size(); ++word) {
      if (words[word] != 0) {
        best_sm = static_cast<int>(word * 64) + std::countr_zero(words[word]);
        break;
      }
    }
  }
  if (best_sm < 0) return std::nullopt;
  sms_[best_sm].acquire(demand);
  refresh_room(best_sm);
  const auto slots = slot_taken_.begin() + static_cast<std::ptrdiff_t>(best_sm) * spec_.max_ctas;
  const auto slot = static_cast<int>(std::find(slots, slots + spec_.max_ctas, false) - slots);
  slots[slot] = true;
  return CtaPlacement{best_sm, slot};
}

void BlockScheduler::release(const CtaPlacement& placement, const CtaDemand& demand) {
  sms_[placement.sm].release(demand);
  refresh_room(placement.sm);
  slot_taken_[static_cast<std::size_t>(placement.sm) * spec_.max_ctas + placement.slot] = false;
}

}  // namespace tilesim::gpu
