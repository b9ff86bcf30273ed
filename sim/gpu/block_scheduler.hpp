#pragma once
// The hardware block scheduler's bookkeeping: which SM has room for another
// CTA (threads, registers, shared memory, CTA slots) and which of its slots a
// CTA holds. Placement spreads CTAs breadth-first: the SM with the most room
// wins, the lowest index breaks ties, so runs are deterministic.

#include <cstdint>
#include <optional>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/capacity_pool.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

// A CTA's claim on one SM, per dimension of SmOccupancy.
using CtaDemand = std::vector<std::int64_t>;

struct CtaPlacement {
  int sm = 0;
  int slot = 0;
};

class BlockScheduler {
 public:
  explicit BlockScheduler(const hw::SmSpec& sm);

  CtaDemand demand_of(const CtaFootprint& footprint) const;
  // Resident CTAs of this footprint an empty SM holds (0: it never fits).
  int ctas_per_sm(const CtaFootprint& footprint) const;
  // Whether `count` CTAs of `demand` could be placed right now, over all SMs.
  bool has_room_for(const CtaDemand& demand, std::int64_t count) const;
  std::optional<CtaPlacement> place(const CtaDemand& demand);
  void release(const CtaPlacement& placement, const CtaDemand& demand);

 private:
  hw::SmSpec spec_;
  sim::CapacityPool empty_;  // one SM with nothing resident
  // Built with the first demand asked about (build_sms): empty until then.
  mutable std::vector<sim::CapacityPool> sms_;
  mutable std::vector<bool> slot_taken_;  // sm x max_ctas + slot: one allocation per scheduler
  void build_sms() const;
  void use_demand(const CtaDemand& demand) const;
  void refresh_room(int sm);
  void set_room(std::size_t sm, std::int64_t room) const;
  mutable CtaDemand room_demand_;           // the demand room_ is for
  mutable std::vector<std::int64_t> room_;  // per SM: CTAs of room_demand_ that still fit
  mutable std::int64_t total_room_ = 0;     // the sum of room_
  // Per room value, a bit per SM that has exactly that room: the SM with the
  // most room, lowest index first, is found without scanning every SM.
  mutable std::vector<std::vector<std::uint64_t>> sms_by_room_;
};

}  // namespace tilesim::gpu
