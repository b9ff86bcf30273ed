#pragma once
// Approximate mode's wave fast-forward (docs/model.md, "Approximate mode").
// Once kAgreeingWaves consecutive waves of a grid (one wave: as many CTAs as
// the GPU holds at once) agree within kWaveTolerance in duration, and their
// cycles of kCycleWaves waves in bytes per memory level, the full waves left,
// all but the last kTailWaves, are skipped: the run dispatches the CTAs after
// them at once and every later time moves by the skipped waves' count times
// the agreeing waves' mean period. A skipped CTA's record is the record of
// the CTA a whole number of cycles before it in the last cycle before the
// skip (its SM, slot, bytes, flops, segment labels and time uses), moved by
// as many cycles' periods, so per-level bytes, traces and SM busy time count
// it.
//
// Not exact: the CTAs after the skip meet an L2 holding the panels of the
// waves before it. Grids whose CTAs raise fixup flags in the skipped range
// (serial Split-K, Stream-K units) are never skipped; a persistent grid (one
// wave) has nothing to skip.

#include <cstdint>
#include <vector>

#include "sim/engine/sim_time.hpp"
#include "sim/gpu/cta_time_use.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "sim/gpu/simulation_result.hpp"

namespace tilesim::gpu {

// Moves every time of a CTA's record by `by`.
void shift_times(CtaRecord& record, sim::SimTime by);

class WaveFastForward {
 public:
  // Waves simulated before any skip: a 65536^3 grid's CTAs drift apart over
  // its first ~10 waves, which lengthens them by 7% (docs/model.md). A grid of
  // fewer than kObservedShare x 16 waves observes a kObservedShare-th of its
  // waves (at least kAgreeingWaves + 1).
  static constexpr int kObservedWaves = 16;
  static constexpr int kObservedShare = 3;
  static constexpr int kAgreeingWaves = 4;
  static constexpr int kCycleWaves = 2;           // bytes compared, records copied, per cycle
  static constexpr double kWaveTolerance = 0.01;  // relative to the waves' mean
  // One tail wave: 8192^3 Stream-K 10,430 -> 9,247 events with two, its time
  // and the other grids of bench/README.md round 9 within 0.07 points.
  static constexpr std::int64_t kTailWaves = 1;
  // Whether a grid of `cta_count` CTAs, `wave_ctas` a wave, can ever be
  // skipped: its observed waves, one to skip and the tail.
  static bool may_skip(std::int64_t cta_count, std::int64_t wave_ctas) {
    return cta_count >= (kAgreeingWaves + 2 + kTailWaves) * wave_ctas;
  }

  // `wave_ctas`: per kernel, the CTAs the whole GPU holds at once.
  explicit WaveFastForward(std::vector<std::int64_t> wave_ctas);

  // A CTA of `kernel` is dispatched with `program`.
  void note_dispatched(std::size_t kernel, std::int64_t cta, const CtaProgram& program);
  // A CTA ended; `record` holds its final times (the offset applied).
  void note_finished(const CtaRecord& record, const CtaTimeUses& time_use);
  // CTAs of `launch` (the plan's only running kernel) to skip before
  // dispatching `next_cta`; 0 when the waves do not agree yet or nothing is
  // left to skip. A skip moves offset().
  std::int64_t skip(std::size_t kernel, const KernelLaunch& launch, std::int64_t next_cta);
  // Added to every engine time from the last skip on.
  sim::SimTime offset() const { return offset_; }
  // Appends the skipped CTAs' records (after the simulated ones, not in finish
  // order) and adds their bytes, flops and time uses to their kernels'.
  void add_skipped(SimulationResult& result) const;

 private:
  struct WaveEnd {
    sim::SimTime time;
    MemoryTraffic traffic;  // the kernel's so far
  };
  struct RecentCta {
    std::int64_t cta = -1;
    CtaTimeUses time_use;
  };
  struct KernelWaves {
    std::int64_t wave_ctas = 0;
    std::int64_t finished = 0;
    std::int64_t last_flag_cta = -1;  // last CTA dispatched with a flag wait or signal
    MemoryTraffic traffic;
    std::vector<WaveEnd> ends;
    std::vector<RecentCta> recent;  // by CTA modulo its size, until the skip
    bool skipped = false;
  };
  struct Skip {
    std::size_t kernel = 0;
    std::int64_t first_cta = 0;  // first skipped
    std::int64_t waves = 0;
    std::int64_t wave_ctas = 0;
    sim::SimTime period;
    // The sources: the cycle of waves before first_cta.
    std::int64_t source_count() const { return wave_ctas * kCycleWaves; }
    std::int64_t first_source_cta() const { return first_cta - source_count(); }
    std::vector<CtaTimeUses> source_time_uses;  // by source
  };

  static std::int64_t observed_waves(std::int64_t grid_waves);
  bool waves_agree(const KernelWaves& waves, std::int64_t observed) const;

  std::vector<KernelWaves> kernels_;
  std::vector<Skip> skips_;
  sim::SimTime offset_;
};

}  // namespace tilesim::gpu
