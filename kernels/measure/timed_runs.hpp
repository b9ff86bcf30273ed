#pragma once
// The timing method every tilesim-measure row shares: a few probe runs for an
// estimate, a sustained warm-up (the case back to back for warmup_ms of wall
// time, so that the power-limited clock settles at the case's own steady state
// and not at one set by the rows before it: the limiter averages power over
// about a second), then at least min_runs runs (about target_ms of GPU time),
// each between its own CUDA events, queued in batches behind a GPU-side delay
// kernel so that the host's launch rate does not leak into the times; median,
// min and p90. Inputs rotate over several sets when one set would stay in L2.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#include "kernels/measure/sm_clock_sampler.hpp"

namespace tilesim::measure {

struct TimingOptions {
  int min_runs = 20;
  double target_ms = 200;   // timed runs: at least min_runs and about this much GPU time
  double warmup_ms = 1000;  // untimed runs back to back first: at least 5 and this much wall time
  int max_input_sets = 64;  // rotation cap
  double l2_bytes = 50.0 * (1 << 20);
  const NvmlDevice* clock_source = nullptr;  // samples the SM clock during timed runs; may be null
};

struct TimedRuns {
  double time_us = 0;  // median
  double time_us_min = 0;
  double time_us_p90 = 0;
  int runs = 0;
  ClockSample clock;  // during the timed runs
};

// Input sets to rotate through: enough that 2x L2 worth of inputs pass between
// two uses of one set, at most options.max_input_sets.
int input_sets_for(std::size_t set_bytes, const TimingOptions& options);

// `launch(set)` enqueues one run on input set `set` (0 .. sets - 1) on `stream`.
TimedRuns time_launches(const std::function<void(int)>& launch, int sets,
                        const TimingOptions& options, cudaStream_t stream);

}  // namespace tilesim::measure
