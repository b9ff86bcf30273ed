#include "kernels/measure/timed_runs.hpp"

#include <algorithm>
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
  const int warmup =
      static_cast<int>(std::clamp(1000.0 * options.warmup_ms / estimate_us, 5.0, 2000.0));
  time_runs(launch, warmup, sets, estimate_us, stream);
  TimedRuns result;
  result.runs = static_cast<int>(std::clamp(1000.0 * options.target_ms / estimate_us,
                                            static_cast<double>(options.min_runs), 5000.0));
  const std::vector<double> times = time_runs(launch, result.runs, sets, estimate_us, stream);
  result.time_us = percentile(times, 0.5);
  result.time_us_min = *std::min_element(times.begin(), times.end());
  result.time_us_p90 = percentile(times, 0.9);
  return result;
}

}  // namespace tilesim::measure
