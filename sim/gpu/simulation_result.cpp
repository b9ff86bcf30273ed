#include "sim/gpu/simulation_result.hpp"

#include <algorithm>

namespace tilesim::gpu {

MemoryTraffic& MemoryTraffic::operator+=(const MemoryTraffic& other) {
  l2_read_bytes += other.l2_read_bytes;
  hbm_read_bytes += other.hbm_read_bytes;
  write_bytes += other.write_bytes;
  return *this;
}

sim::SimTime SimulationResult::start() const {
  if (kernels.empty()) return {};
  sim::SimTime earliest = kernels.front().start;
  for (const KernelRecord& kernel : kernels) earliest = std::min(earliest, kernel.start);
  return earliest;
}

sim::SimTime SimulationResult::end() const {
  sim::SimTime latest;
  for (const KernelRecord& kernel : kernels) latest = std::max(latest, kernel.end);
  return latest;
}

MemoryTraffic SimulationResult::traffic() const {
  MemoryTraffic total;
  for (const KernelRecord& kernel : kernels) total += kernel.traffic;
  return total;
}

double SimulationResult::flops() const {
  double total = 0;
  for (const KernelRecord& kernel : kernels) total += kernel.flops;
  return total;
}

double SimulationResult::sm_utilization() const {
  const double span_ps = static_cast<double>((end() - start()).ps());
  if (span_ps <= 0 || sm_count == 0) return 0;
  // Per SM, the union of its CTAs' residency intervals.
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> intervals(sm_count);
  for (const CtaRecord& cta : ctas) {
    intervals[cta.sm].emplace_back(cta.dispatched.ps(), cta.finished.ps());
  }
  double busy_ps = 0;
  for (auto& sm_intervals : intervals) {
    std::sort(sm_intervals.begin(), sm_intervals.end());
    std::int64_t covered_until = std::numeric_limits<std::int64_t>::min();
    for (auto [begin, end] : sm_intervals) {
      begin = std::max(begin, covered_until);
      if (end > begin) busy_ps += static_cast<double>(end - begin);
      covered_until = std::max(covered_until, end);
    }
  }
  return busy_ps / (span_ps * sm_count);
}

}  // namespace tilesim::gpu
