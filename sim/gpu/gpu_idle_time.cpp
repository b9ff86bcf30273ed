#include "sim/gpu/gpu_idle_time.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tilesim::gpu {
namespace {

void add_gaps_before(const SimulationResult& result, std::vector<KernelIdleTime>& idle) {
  std::vector<std::size_t> by_start(result.kernels.size());
  std::iota(by_start.begin(), by_start.end(), std::size_t{0});
  std::stable_sort(by_start.begin(), by_start.end(), [&](std::size_t a, std::size_t b) {
    return result.kernels[a].start < result.kernels[b].start;
  });
  bool first = true;
  sim::SimTime latest_end;
  for (const std::size_t index : by_start) {
    const KernelRecord& kernel = result.kernels[index];
    if (!first && kernel.start > latest_end) idle[index].gap_before = kernel.start - latest_end;
    latest_end = first ? kernel.end : std::max(latest_end, kernel.end);
    first = false;
  }
}

// Per kernel and SM, the union of its CTAs' residency.
void add_sm_idle(const SimulationResult& result, std::vector<KernelIdleTime>& idle) {
  std::vector<std::tuple<std::int32_t, std::int32_t, std::int64_t, std::int64_t>> residencies;
  residencies.reserve(result.ctas.size());
  for (const CtaRecord& cta : result.ctas) {
    residencies.emplace_back(cta.kernel, cta.sm, cta.dispatched.ps(), cta.finished.ps());
  }
  std::sort(residencies.begin(), residencies.end());
  std::vector<double> busy_ps(result.kernels.size(), 0);
  std::int32_t kernel = -1;
  std::int32_t sm = -1;
  std::int64_t covered_until = 0;
  for (auto [cta_kernel, cta_sm, begin, end] : residencies) {
    if (cta_kernel != kernel || cta_sm != sm) {
      kernel = cta_kernel;
      sm = cta_sm;
      covered_until = begin;
    }
    begin = std::max(begin, covered_until);
    if (end > begin) busy_ps[kernel] += static_cast<double>(end - begin);
    covered_until = std::max(covered_until, end);
  }
  for (std::size_t i = 0; i < result.kernels.size(); ++i) {
    const double span_us = (result.kernels[i].end - result.kernels[i].start).us();
    const double busy_us = result.sm_count > 0 ? busy_ps[i] * 1e-6 / result.sm_count : 0;
    idle[i].sm_idle_us = std::max(0.0, span_us - busy_us);
  }
}

}  // namespace

std::vector<KernelIdleTime> kernel_idle_times(const SimulationResult& result) {
  std::vector<KernelIdleTime> idle(result.kernels.size());
  add_gaps_before(result, idle);
  add_sm_idle(result, idle);
  return idle;
}

sim::SimTime launch_gaps(const SimulationResult& result) {
  std::vector<KernelIdleTime> idle(result.kernels.size());
  add_gaps_before(result, idle);
  sim::SimTime total;
  for (const KernelIdleTime& kernel : idle) total += kernel.gap_before;
  return total;
}

double sm_idle_us(const SimulationResult& result) {
  return sm_idle_us(result, result.sm_utilization());
}

double sm_idle_us(const SimulationResult& result, double sm_utilization) {
  return (1 - sm_utilization) * result.time_us();
}

}  // namespace tilesim::gpu
