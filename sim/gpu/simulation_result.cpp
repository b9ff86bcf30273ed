#include "sim/gpu/simulation_result.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace tilesim::gpu {

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
  // Per SM, the union of its CTAs' residency intervals. The intervals are
  // grouped by SM in one array (a counting sort), so a run of few CTAs does
  // not allocate a list per SM.
  std::vector<std::size_t> first(static_cast<std::size_t>(sm_count) + 1, 0);
  for (const CtaRecord& cta : ctas) ++first[static_cast<std::size_t>(cta.sm) + 1];
  for (std::size_t sm = 0; sm < static_cast<std::size_t>(sm_count); ++sm) {
    first[sm + 1] += first[sm];
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> intervals(ctas.size());
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  for (const CtaRecord& cta : ctas) {
    intervals[next[static_cast<std::size_t>(cta.sm)]++] = {cta.dispatched.ps(), cta.finished.ps()};
  }
  double busy_ps = 0;
  for (std::size_t sm = 0; sm < static_cast<std::size_t>(sm_count); ++sm) {
    const auto begin_of_sm = intervals.begin() + static_cast<std::ptrdiff_t>(first[sm]);
    const auto end_of_sm = intervals.begin() + static_cast<std::ptrdiff_t>(first[sm + 1]);
    std::sort(begin_of_sm, end_of_sm);
    std::int64_t covered_until = std::numeric_limits<std::int64_t>::min();
    for (auto it = begin_of_sm; it != end_of_sm; ++it) {
      const std::int64_t begin = std::max(it->first, covered_until);
      if (it->second > begin) busy_ps += static_cast<double>(it->second - begin);
      covered_until = std::max(covered_until, it->second);
    }
  }
  return busy_ps / (span_ps * sm_count);
}

}  // namespace tilesim::gpu
