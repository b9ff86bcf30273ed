#pragma once
// Approximate mode's fast-forward inside persistent CTAs (docs/model.md,
// "Approximate mode"): the analogue of the wave fast-forward for grids whose
// CTAs each walk many work units (a Stream-K unit's tiles). A unit is a run of
// consecutive steps on one segment of a CTA's program; it is plain when none
// of its steps waits on or raises a flag. Once every running CTA of the grid
// (the only kernel running, all its CTAs dispatched) has run at least a
// kObservedShare-th of its units and its last kAgreeingUnits were plain and
// agree within kTolerance in duration, L2 bytes and write bytes, the grid
// skips n units: each CTA, at its next unit start, jumps
// over its next n units and every later time of it moves by n times the
// grid's mean unit period. n is the fewest plain units any CTA has before its
// next flagged unit, less kTailUnits, so fixups, flag waits and the units
// before them run event by event, in the same order as without the skip.
//
// What a skipped unit leaves in its CTA's record: its segment span (the
// grid's mean period, back to back), its flops and L2 and write bytes exactly
// (from its steps), its HBM reads and time uses as the CTA's agreeing units'
// means (a unit's misses depend on which panels other CTAs just read, so they
// vary from unit to unit and are not compared). Its reads do not pass through
// the L2 model, and do not age it either: the CTAs jump at their own unit
// starts, up to one unit apart, and each jump's bytes would flush what the
// CTAs beside it share (8192^3 pure Stream-K: 1.6% slow with aging, 0.04%
// without). Not exact: the period is a mean, and for up to one unit some CTAs
// run a unit of after the skip beside others' units of before it.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/engine/sim_time.hpp"
#include "sim/gpu/cta_time_use.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

// Units a CTA skips from its current step on.
struct UnitSkip {
  std::size_t end_step = 0;  // the first step simulated again
  std::int64_t units = 0;
  sim::SimTime period;                 // the grid's mean unit period
  double hbm_read_bytes_per_unit = 0;  // the CTA's agreeing units' mean
  CtaTimeUses time_use_per_unit;       // the CTA's agreeing units' mean
};

class UnitFastForward {
 public:
  static constexpr std::size_t kAgreeingUnits = 4;
  // A CTA is steady no earlier than after a kObservedShare-th of its units:
  // the first units of a walk can agree and still be unlike the rest. A
  // static list of data-parallel tiles after Stream-K units (8192x8448x8192,
  // 16 tiles a CTA): the first 5 tiles run at 179 us, the middle ones drift
  // apart in L2 and reach 210 us; skipped from the 5th (a third of 16 is no
  // later), approximate mode ran the grid 13% short; after a half, the middle
  // tiles no longer agree.
  static constexpr std::size_t kObservedShare = 2;
  static constexpr double kTolerance = 0.02;  // relative to the units' mean
  static constexpr std::int64_t kTailUnits = 1;

  // Whether the grid may skip now: the only kernel running, every CTA of it dispatched.
  void set_allowed(bool allowed) { allowed_ = allowed; }
  // Room for CTAs in this many executor slots (CtaExecutor::reserve_running).
  void reserve(std::size_t slots) { ctas_.reserve(slots); }
  // A CTA starts in executor slot `slot`.
  void started(std::uint32_t slot);
  void finished(std::uint32_t slot);
  // The CTA in `slot`, running `program`, is at the first step of a unit,
  // `step`, with `outcome` and `time_use` so far. Returns the units it skips
  // from here, if any.
  std::optional<UnitSkip> at_unit_start(std::uint32_t slot, const CtaProgram& program,
                                        std::size_t step, sim::SimTime now,
                                        const CtaOutcome& outcome, const CtaTimeUses& time_use);
  // What every skipping CTA's later times move by (zero until the grid skips).
  sim::SimTime skipped_time() const { return skip_period_ * skip_units_; }

 private:
  struct Unit {
    std::size_t first_step = 0;
    bool plain = true;
  };
  struct UnitStart {
    std::size_t unit = 0;
    sim::SimTime time;
    MemoryTraffic traffic;
    CtaTimeUses time_use;
  };
  static constexpr std::size_t kKeptStarts = kAgreeingUnits + 1;
  struct CtaUnits {
    // Found in the program once a CTA has kKeptStarts - 1 unit starts (most
    // CTAs of most grids never have): until then a unit's index is the count
    // of unit starts before it.
    std::vector<Unit> units;  // cleared, not freed, between the slot's CTAs
    bool units_found = false;
    std::array<UnitStart, kKeptStarts> starts;  // a ring of the last kKeptStarts
    std::size_t start_count = 0;                // ever recorded
    bool running = false;
    bool steady = false;
    bool skipped = false;
    // The i-th of the kept starts, oldest first (once kKeptStarts are kept).
    const UnitStart& kept(std::size_t i) const {
      return starts[(start_count - kKeptStarts + i) % kKeptStarts];
    }
    const UnitStart& latest() const { return starts[(start_count - 1) % kKeptStarts]; }
  };

  static void find_units(CtaUnits& cta, const CtaProgram& program);
  bool is_steady(const CtaUnits& cta) const;
  // Plain units from `unit` on, before the CTA's next flagged one.
  static std::int64_t plain_units_from(const CtaUnits& cta, std::size_t unit);
  // Every running CTA is steady: decides n and the period, or that nothing is skipped.
  void arm();

  std::vector<CtaUnits> ctas_;  // by executor slot
  std::size_t running_ = 0;
  std::size_t steady_ = 0;
  bool allowed_ = false;
  bool armed_ = false;  // decided, once per run
  std::int64_t skip_units_ = 0;
  sim::SimTime skip_period_;
};

}  // namespace tilesim::gpu
