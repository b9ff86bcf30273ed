#include "kernels/measure/timed_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/event_pair.hpp"
#include "kernels/common/gpu_delay.hpp"

namespace tilesim::measure {
namespace {

constexpr int kBatchRuns = 100;
// Host time to enqueue one timed run (two events and up to a few launches),
// generously: the delay kernel in front of a batch must outlast its enqueueing.
constexpr double kEnqueueUsPerRun = 20.0;
constexpr double kMinDelayUs = 50.0;

using kernels::EventPair;

// Times `runs` launches, each between its own pair of events.
std::vector<double> time_runs(const std::function<void(int)>& launch, int runs, int sets,
                              double estimate_us, cudaStream_t stream) {
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(runs));
  std::vector<std::unique_ptr<EventPair>> events;
  for (int i = 0; i < std::min(runs, kBatchRuns); ++i)
    events.push_back(std::make_unique<EventPair>());
  for (int done = 0; done < runs;) {
    const int batch = std::min(kBatchRuns, runs - done);
    // Only enqueueing must be covered; runs longer than that keep the queue full.
    const double delay_us =
        std::max(kMinDelayUs, batch * std::max(0.0, kEnqueueUsPerRun - estimate_us));
    kernels::enqueue_gpu_delay(delay_us, stream);
    for (int i = 0; i < batch; ++i) {
      TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)]->start(), stream));
      launch((done + i) % sets);
      TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)]->stop(), stream));
    }
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < batch; ++i)
      times.push_back(events[static_cast<std::size_t>(i)]->elapsed_us());
    done += batch;
  }
  return times;
}

// The case back to back for about warmup_ms of wall time (at least 5 runs), in
// batches of ~10 ms with one batch queued behind the running one, so the GPU
// does not idle between batches (short kernels stay host-bound, as they are).
void sustain(const std::function<void(int)>& launch, int sets, double estimate_us, double warmup_ms,
             cudaStream_t stream) {
  const int batch = static_cast<int>(std::clamp(1e4 / estimate_us, 5.0, 1000.0));
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  const EventPair batch_ends;  // batches alternate between its two events
  int run = 0;
  for (int b = 0; b == 0 || elapsed_ms() < warmup_ms; ++b) {
    for (int i = 0; i < batch; ++i) launch(run++ % sets);
    TILESIM_CUDA_CHECK(cudaEventRecord(b % 2 ? batch_ends.stop() : batch_ends.start(), stream));
    if (b > 0) {
      TILESIM_CUDA_CHECK(cudaEventSynchronize(b % 2 ? batch_ends.start() : batch_ends.stop()));
    }
  }
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
}

double percentile(std::vector<double> sorted, double fraction) {
  std::sort(sorted.begin(), sorted.end());
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const auto above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] * (1 - weight) + sorted[above] * weight;
}

}  // namespace

int input_sets_for(std::size_t set_bytes, const TimingOptions& options) {
  const double sets = std::ceil(2.0 * options.l2_bytes / static_cast<double>(set_bytes));
  return static_cast<int>(std::clamp(sets, 1.0, static_cast<double>(options.max_input_sets)));
}

TimedRuns time_launches(const std::function<void(int)>& launch, int sets,
                        const TimingOptions& options, cudaStream_t stream) {
  const std::vector<double> probe = time_runs(launch, 3, sets, 0, stream);
  const double estimate_us = std::max(1.0, *std::min_element(probe.begin(), probe.end()));
  sustain(launch, sets, estimate_us, options.warmup_ms, stream);
  TimedRuns result;
  result.runs = static_cast<int>(std::clamp(1000.0 * options.target_ms / estimate_us,
                                            static_cast<double>(options.min_runs), 5000.0));
  SmClockSampler sampler(options.clock_source);
  const std::vector<double> times = time_runs(launch, result.runs, sets, estimate_us, stream);
  result.clock = sampler.stop();
  result.time_us = percentile(times, 0.5);
  result.time_us_min = *std::min_element(times.begin(), times.end());
  result.time_us_p90 = percentile(times, 0.9);
  return result;
}

}  // namespace tilesim::measure
