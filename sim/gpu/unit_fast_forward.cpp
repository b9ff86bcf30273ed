#include "sim/gpu/unit_fast_forward.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilesim::gpu {
namespace {

// Whether every value lies within kTolerance of their mean.
bool agree(const std::vector<double>& values) {
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

void UnitFastForward::started(std::uint32_t slot, const CtaProgram& program) {
  if (slot >= ctas_.size()) ctas_.resize(slot + 1);
  CtaUnits& cta = ctas_[slot];
  cta = {};
  cta.running = true;
  ++running_;
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
  cta = {};
}

bool UnitFastForward::is_steady(const CtaUnits& cta) const {
  if (cta.starts.size() < static_cast<std::size_t>(kAgreeingUnits) + 1) return false;
  std::vector<double> durations_ps;
  std::vector<double> l2_bytes;
  std::vector<double> write_bytes;
  for (std::size_t i = 1; i < cta.starts.size(); ++i) {
    const UnitStart& before = cta.starts[i - 1];
    const UnitStart& after = cta.starts[i];
    if (!cta.units[before.unit].plain || after.unit != before.unit + 1) return false;
    durations_ps.push_back(static_cast<double>((after.time - before.time).ps()));
    l2_bytes.push_back(after.traffic.l2_read_bytes - before.traffic.l2_read_bytes);
    write_bytes.push_back(after.traffic.write_bytes - before.traffic.write_bytes);
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
    units = std::min(units, plain_units_from(cta, cta.starts.back().unit + 1) - kTailUnits);
    period_ps += (cta.starts.back().time - cta.starts.front().time).ps();
    ++ctas;
  }
  if (ctas == 0 || units < 1) return;
  skip_units_ = units;
  skip_period_ = mean_time(sim::SimTime::from_ps(period_ps), ctas * kAgreeingUnits);
}

std::optional<UnitSkip> UnitFastForward::at_unit_start(std::uint32_t slot, std::size_t step,
                                                       sim::SimTime now, const CtaOutcome& outcome,
                                                       const CtaTimeUses& time_use) {
  CtaUnits& cta = ctas_[slot];
  if (cta.skipped) return std::nullopt;
  const auto found = std::find_if(cta.units.begin(), cta.units.end(),
                                  [step](const Unit& unit) { return unit.first_step == step; });
  const auto unit = static_cast<std::size_t>(found - cta.units.begin());
  if (armed_) {
    if (skip_units_ == 0 || !cta.steady || unit != cta.starts.back().unit + 1) return std::nullopt;
    cta.skipped = true;
    const UnitStart& first = cta.starts.front();
    const UnitStart& last = cta.starts.back();
    UnitSkip skip;
    skip.end_step = cta.units[unit + static_cast<std::size_t>(skip_units_)].first_step;
    skip.units = skip_units_;
    skip.period = skip_period_;
    skip.hbm_read_bytes_per_unit =
        (last.traffic.hbm_read_bytes - first.traffic.hbm_read_bytes) / kAgreeingUnits;
    for (std::size_t use = 0; use < kCtaTimeUseCount; ++use) {
      skip.time_use_per_unit.time[use] =
          mean_time(last.time_use.time[use] - first.time_use.time[use], kAgreeingUnits);
    }
    return skip;
  }
  cta.starts.push_back({unit, now, outcome.traffic, time_use});
  if (cta.starts.size() > static_cast<std::size_t>(kAgreeingUnits) + 1) {
    cta.starts.erase(cta.starts.begin());
  }
  const bool steady = is_steady(cta);
  if (steady != cta.steady) {
    cta.steady = steady;
    steady ? ++steady_ : --steady_;
  }
  if (allowed_ && steady_ == running_) arm();
  return std::nullopt;
}

}  // namespace tilesim::gpu
