#include "sim/gpu/wave_fast_forward.hpp"

#include <algorithm>
#include <cmath>

namespace tilesim::gpu {
namespace {

bool has_flags(const CtaProgram& program) {
  return std::any_of(program.steps.begin(), program.steps.end(),
                     [](const CtaStep& step) { return step.wait || step.signal; });
}

// Whether every value lies within kWaveTolerance of their mean.
template <typename Value>
bool agree(const std::vector<Value>& values) {
  double mean = 0;
  for (const Value value : values) mean += static_cast<double>(value);
  mean /= static_cast<double>(values.size());
  return std::all_of(values.begin(), values.end(), [mean](const Value value) {
    return std::abs(static_cast<double>(value) - mean) <= WaveFastForward::kWaveTolerance * mean;
  });
}

void shift(TimeSpan& span, sim::SimTime by) {
  span.begin += by;
  span.end += by;
}

}  // namespace

void shift_times(CtaRecord& record, sim::SimTime by) {
  record.dispatched += by;
  record.finished += by;
  for (SegmentSpan& segment : record.outcome.segments) {
    if (segment.span.end != sim::SimTime{}) shift(segment.span, by);  // {} had no steps
  }
  for (TimeSpan& wait : record.outcome.waits) shift(wait, by);
}

WaveFastForward::WaveFastForward(std::vector<std::int64_t> wave_ctas) {
  kernels_.resize(wave_ctas.size());
  for (std::size_t i = 0; i < wave_ctas.size(); ++i) {
    kernels_[i].wave_ctas = wave_ctas[i];
    kernels_[i].recent.resize(static_cast<std::size_t>(wave_ctas[i] * (kCycleWaves + 1)));
  }
}

void WaveFastForward::note_dispatched(std::size_t kernel, std::int64_t cta,
                                      const CtaProgram& program) {
  if (has_flags(program)) kernels_[kernel].last_flag_cta = cta;
}

void WaveFastForward::note_finished(const CtaRecord& record, const CtaTimeUses& time_use) {
  KernelWaves& waves = kernels_[static_cast<std::size_t>(record.kernel)];
  waves.traffic += record.outcome.traffic;
  if (++waves.finished % waves.wave_ctas == 0)
    waves.ends.push_back({record.finished, waves.traffic});
  if (!waves.skipped) {
    waves.recent[static_cast<std::size_t>(record.cta) % waves.recent.size()] = {record.cta,
                                                                                time_use};
  }
  for (Skip& skip : skips_) {
    const std::int64_t source = record.cta - skip.first_source_cta();
    if (static_cast<std::size_t>(record.kernel) == skip.kernel && source >= 0 &&
        source < skip.source_count()) {
      skip.source_time_uses[static_cast<std::size_t>(source)] = time_use;
    }
  }
}

std::int64_t WaveFastForward::observed_waves(std::int64_t grid_waves) {
  return std::clamp<std::int64_t>(grid_waves / kObservedShare, kAgreeingWaves + 1, kObservedWaves);
}

bool WaveFastForward::waves_agree(const KernelWaves& waves, std::int64_t observed) const {
  // The first waves include the grid's ramp-up and the CTAs' drifting apart
  // (which thins their L2 sharing): only waves after the observed ones count.
  if (static_cast<std::int64_t>(waves.ends.size()) < observed) return false;
  const std::size_t first = waves.ends.size() - kAgreeingWaves;
  std::vector<std::int64_t> durations_ps;
  for (std::size_t i = first; i < waves.ends.size(); ++i) {
    durations_ps.push_back((waves.ends[i].time - waves.ends[i - 1].time).ps());
  }
  // Bytes repeat over a cycle of waves (the rasterization's swizzle alternates
  // which panels a wave shares with the one before): cycles must agree.
  std::vector<double> l2_bytes;
  std::vector<double> hbm_read_bytes;
  std::vector<double> write_bytes;
  for (std::size_t i = first; i < waves.ends.size(); i += kCycleWaves) {
    const MemoryTraffic& before = waves.ends[i - 1].traffic;
    const MemoryTraffic& after = waves.ends[i - 1 + kCycleWaves].traffic;
    l2_bytes.push_back(after.l2_read_bytes - before.l2_read_bytes);
    hbm_read_bytes.push_back(after.hbm_read_bytes - before.hbm_read_bytes);
    write_bytes.push_back(after.write_bytes - before.write_bytes);
  }
  return agree(durations_ps) && agree(l2_bytes) && agree(hbm_read_bytes) && agree(write_bytes);
}

std::int64_t WaveFastForward::skip(std::size_t kernel, const KernelLaunch& launch,
                                   std::int64_t next_cta) {
  KernelWaves& waves = kernels_[kernel];
  const std::int64_t wave = waves.wave_ctas;
  // Whole waves and whole clusters only, once per kernel, past every CTA with
  // flags in the waves observed.
  if (waves.skipped || next_cta % wave != 0 || wave % launch.cluster_size != 0 ||
      waves.last_flag_cta >= next_cta - wave * (kAgreeingWaves + 1) ||
      !waves_agree(waves, observed_waves((launch.cta_count + wave - 1) / wave))) {
    return 0;
  }
  const std::int64_t skipped_waves = (launch.cta_count - next_cta) / wave - kTailWaves;
  if (skipped_waves < 1) return 0;
  // Nobody may wait for a flag a skipped CTA would raise.
  if (has_flags(launch.programs->program(next_cta)) ||
      has_flags(launch.programs->program(next_cta + skipped_waves * wave - 1))) {
    return 0;
  }
  waves.skipped = true;
  const sim::SimTime span =
      waves.ends.back().time - waves.ends[waves.ends.size() - 1 - kAgreeingWaves].time;
  const sim::SimTime period = sim::SimTime::from_ps((span.ps() + kAgreeingWaves / 2) /
                                                    kAgreeingWaves);  // rounded to the nearest ps
  Skip& added = skips_.emplace_back();
  added.kernel = kernel;
  added.first_cta = next_cta;
  added.waves = skipped_waves;
  added.wave_ctas = wave;
  added.period = period;
  // The sources that have ended already left their time uses in `recent`.
  added.source_time_uses.resize(static_cast<std::size_t>(added.source_count()));
  for (const RecentCta& recent : waves.recent) {
    const std::int64_t source = recent.cta - added.first_source_cta();
    if (source >= 0 && source < added.source_count()) {
      added.source_time_uses[static_cast<std::size_t>(source)] = recent.time_use;
    }
  }
  offset_ += period * skipped_waves;
  return skipped_waves * wave;
}

void WaveFastForward::add_skipped(SimulationResult& result) const {
  const std::size_t ended = result.ctas.size();
  for (const Skip& skip : skips_) {
    // The sources' records, by CTA: every source has ended by now.
    std::vector<std::size_t> sources(static_cast<std::size_t>(skip.source_count()));
    for (std::size_t i = 0; i < ended; ++i) {
      const CtaRecord& record = result.ctas[i];
      const std::int64_t source = record.cta - skip.first_source_cta();
      if (static_cast<std::size_t>(record.kernel) == skip.kernel && source >= 0 &&
          source < skip.source_count()) {
        sources[static_cast<std::size_t>(source)] = i;
      }
    }
    KernelRecord& kernel = result.kernels[skip.kernel];
    // Skipped wave j is source wave j mod kCycleWaves, whole cycles later.
    for (std::int64_t wave = 0; wave < skip.waves; ++wave) {
      const sim::SimTime by = skip.period * ((wave / kCycleWaves + 1) * kCycleWaves);
      const auto first_source = static_cast<std::size_t>((wave % kCycleWaves) * skip.wave_ctas);
      for (std::size_t i = first_source; i < first_source + skip.wave_ctas; ++i) {
        CtaRecord record = result.ctas[sources[i]];
        record.cta =
            skip.first_cta + wave * skip.wave_ctas + static_cast<std::int64_t>(i - first_source);
        shift_times(record, by);
        kernel.traffic += record.outcome.traffic;
        kernel.flops += record.outcome.flops;
        if (!kernel.time_use_per_sm.empty()) {
          kernel.time_use_per_sm[static_cast<std::size_t>(record.sm)] += skip.source_time_uses[i];
        }
        result.ctas.push_back(std::move(record));
      }
    }
  }
}

}  // namespace tilesim::gpu
