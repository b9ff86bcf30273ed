#include "sim/gpu/unit_fast_forward.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilesim::gpu {
namespace {

// Whether every value lies within kTolerance of their mean.
bool agree(const std::array<double, UnitFastForward::kAgreeingUnits>& values) {
  double mean = 0;
  for (const double value : values) mean += value;
  mean /= static_cast<double>(values.size());
  return std::all_of(values.begin(), values.end(), [mean](const double value) {
    return std::abs(value - mean) <= UnitFastForward::kTolerance * mean;
  });
}

// `total` over `count`, rounded to the nearest picosecond.
sim::SimTime mean_time(sim::SimTime total, std::int64_t count) {
  return sim::SimTime::from_ps((total.ps() + count / 2) / count);
}

}  // namespace

void UnitFastForward::started(std::uint32_t slot) {
  if (slot >= ctas_.size()) ctas_.resize(slot + 1);
  CtaUnits& cta = ctas_[slot];
  cta.units.clear();
  cta.units_found = false;
  cta.start_count = 0;
  cta.running = true;
  cta.steady = cta.skipped = false;
  ++running_;
}

void UnitFastForward::find_units(CtaUnits& cta, const CtaProgram& program) {
  cta.units_found = true;
  for (std::size_t step = 0; step < program.steps.size(); ++step) {
    const CtaStep& current = program.steps[step];
    if (step == 0 || current.segment != program.steps[step - 1].segment) {
      cta.units.push_back({step, true});
    }
    if (current.wait || current.signal) cta.units.back().plain = false;
  }
}

void UnitFastForward::finished(std::uint32_t slot) {
  CtaUnits& cta = ctas_[slot];
  --running_;
  if (cta.steady) --steady_;
  cta.running = cta.steady = false;
}

bool UnitFastForward::is_steady(const CtaUnits& cta) const {
  if (cta.start_count < kKeptStarts) return false;  // before its units are found
  if (cta.start_count < cta.units.size() / kObservedShare) return false;
  std::array<double, kAgreeingUnits> durations_ps{};
  std::array<double, kAgreeingUnits> l2_bytes{};
  std::array<double, kAgreeingUnits> write_bytes{};
  for (std::size_t i = 0; i < kAgreeingUnits; ++i) {
    const UnitStart& before = cta.kept(i);
    const UnitStart& after = cta.kept(i + 1);
    if (!cta.units[before.unit].plain || after.unit != before.unit + 1) return false;
    durations_ps[i] = static_cast<double>((after.time - before.time).ps());
    l2_bytes[i] = after.traffic.l2_read_bytes - before.traffic.l2_read_bytes;
    write_bytes[i] = after.traffic.write_bytes - before.traffic.write_bytes;
  }
  return agree(durations_ps) && agree(l2_bytes) && agree(write_bytes);
}

std::int64_t UnitFastForward::plain_units_from(const CtaUnits& cta, std::size_t unit) {
  std::size_t end = unit;
  while (end < cta.units.size() && cta.units[end].plain) ++end;
  return static_cast<std::int64_t>(end - unit);
}

void UnitFastForward::arm() {
  armed_ = true;
  std::int64_t units = std::numeric_limits<std::int64_t>::max();
  std::int64_t period_ps = 0;
  std::int64_t ctas = 0;
  for (const CtaUnits& cta : ctas_) {
    if (!cta.running) continue;
    // Each CTA jumps at the start of the unit after the one it is in.
    units = std::min(units, plain_units_from(cta, cta.latest().unit + 1) - kTailUnits);
    period_ps += (cta.latest().time - cta.kept(0).time).ps();
    ++ctas;
  }
  if (ctas == 0 || units < 1) return;
  skip_units_ = units;
  skip_period_ =
      mean_time(sim::SimTime::from_ps(period_ps), ctas * static_cast<std::int64_t>(kAgreeingUnits));
}

std::optional<UnitSkip> UnitFastForward::at_unit_start(std::uint32_t slot,
                                                       const CtaProgram& program, std::size_t step,
                                                       sim::SimTime now, const CtaOutcome& outcome,
                                                       const CtaTimeUses& time_use) {
  CtaUnits& cta = ctas_[slot];
  if (cta.skipped) return std::nullopt;
  if (!cta.units_found && cta.start_count + 1 >= kKeptStarts) find_units(cta, program);
  // Until its units are found, every unit start of the CTA was recorded (none
  // is once the grid is armed), so their count is the unit's index.
  std::size_t unit = cta.start_count;
  if (cta.units_found) {
    const auto found = std::find_if(cta.units.begin(), cta.units.end(),
                                    [step](const Unit& each) { return each.first_step == step; });
    unit = static_cast<std::size_t>(found - cta.units.begin());
  }
  if (armed_) {
    if (skip_units_ == 0 || !cta.steady || unit != cta.latest().unit + 1) return std::nullopt;
    cta.skipped = true;
    const UnitStart& first = cta.kept(0);
    const UnitStart& last = cta.latest();
    UnitSkip skip;
    skip.end_step = cta.units[unit + static_cast<std::size_t>(skip_units_)].first_step;
    skip.units = skip_units_;
    skip.period = skip_period_;
    skip.hbm_read_bytes_per_unit = (last.traffic.hbm_read_bytes - first.traffic.hbm_read_bytes) /
                                   static_cast<double>(kAgreeingUnits);
    for (std::size_t use = 0; use < kCtaTimeUseCount; ++use) {
      skip.time_use_per_unit.time[use] =
          mean_time(last.time_use.time[use] - first.time_use.time[use],
                    static_cast<std::int64_t>(kAgreeingUnits));
    }
    return skip;
  }
  cta.starts[cta.start_count++ % kKeptStarts] = {unit, now, outcome.traffic, time_use};
  const bool steady = is_steady(cta);
  if (steady != cta.steady) {
    cta.steady = steady;
    steady ? ++steady_ : --steady_;
  }
  if (allowed_ && steady_ == running_) arm();
  return std::nullopt;
}

}  // namespace tilesim::gpu
