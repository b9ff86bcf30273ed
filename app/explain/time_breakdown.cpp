#include "app/explain/time_breakdown.hpp"

#include <stdexcept>
#include <vector>

#include "app/explain/interval_set.hpp"

namespace tilesim::explain {
namespace {

constexpr double kUsPerPs = 1e-6;

struct CauseText {
  std::string_view key;
  std::string_view label;
};

constexpr std::array<CauseText, kTimeCauseCount> kCauseTexts = {{
    {"dispatch", "CTA dispatch"},
    {"overhead", "work-unit overhead"},
    {"pipeline_fill", "pipeline fill (first data)"},
    {"flag_wait", "fixup flag waits"},
    {"memory_latency", "memory latency (bytes in flight)"},
    {"hbm", "HBM bandwidth"},
    {"l2", "L2 bandwidth"},
    {"l2_port", "SM L2 port"},
    {"tensor", "tensor cores"},
    {"fp32", "CUDA cores (fp32)"},
    {"sfu", "special-function units"},
    {"other_kernels", "SMs on other kernels"},
    {"waiting", "idle, CTAs waiting to be placed"},
    {"tail", "idle, no CTA left (wave tail)"},
    {"launch_gap", "launch gaps (no kernel running)"},
    {"kernel_fixed", "kernel ramp/drain, run start and end"},
}};

// Per SM, the residency of the CTAs `include` accepts.
template <typename Filter>
std::vector<IntervalSet> residency_per_sm(const gpu::SimulationResult& result, Filter include) {
  std::vector<std::vector<IntervalSet::Interval>> intervals(
      static_cast<std::size_t>(result.sm_count));
  for (const gpu::CtaRecord& cta : result.ctas) {
    if (include(cta)) {
      intervals[static_cast<std::size_t>(cta.sm)].emplace_back(cta.dispatched.ps(),
                                                               cta.finished.ps());
    }
  }
  std::vector<IntervalSet> sets;
  sets.reserve(intervals.size());
  for (auto& sm : intervals) sets.push_back(IntervalSet::union_of(std::move(sm)));
  return sets;
}

// When each kernel placed its last CTA.
std::vector<std::int64_t> last_dispatch_ps(const gpu::SimulationResult& result) {
  std::vector<std::int64_t> last(result.kernels.size());
  for (std::size_t k = 0; k < result.kernels.size(); ++k) last[k] = result.kernels[k].start.ps();
  for (const gpu::CtaRecord& cta : result.ctas) {
    auto& kernel_last = last[static_cast<std::size_t>(cta.kernel)];
    kernel_last = std::max(kernel_last, cta.dispatched.ps());
  }
  return last;
}

// When kernels paid their fixed start and end cost: the last stretch of each
// that has one, after its last CTA.
IntervalSet fixed_overhead_of(const std::vector<gpu::KernelRecord>& kernels) {
  std::vector<IntervalSet::Interval> intervals;
  for (const gpu::KernelRecord& kernel : kernels) {
    if (kernel.fixed_overhead.ps() > 0) {
      intervals.emplace_back(kernel.end.ps() - kernel.fixed_overhead.ps(), kernel.end.ps());
    }
  }
  return IntervalSet::union_of(std::move(intervals));
}

// Shares `busy_ps` of one SM among the causes in `uses`, in proportion.
void add_busy(TimeBreakdown& breakdown, const gpu::CtaTimeUses& uses, std::int64_t busy_ps) {
  if (busy_ps == 0) return;
  const auto cta_ps = static_cast<double>(uses.total().ps());
  if (cta_ps <= 0) {
    throw std::logic_error(
        "time breakdown: CTAs without recorded time uses; simulate with "
        "SimulationOptions::attribute_time");
  }
  const double scale = static_cast<double>(busy_ps) / cta_ps;
  for (std::size_t use = 0; use < gpu::kCtaTimeUseCount; ++use) {
    breakdown.us[use] += static_cast<double>(uses.time[use].ps()) * scale;
  }
}

void check_attributed(const gpu::KernelRecord& kernel, int sm_count) {
  if (kernel.time_use_per_sm.size() != static_cast<std::size_t>(sm_count)) {
    throw std::logic_error("time breakdown: kernel " + kernel.name +
                           " has no time uses; simulate with SimulationOptions::attribute_time");
  }
}

// From SM-picoseconds summed over SMs to microseconds averaged over them.
TimeBreakdown averaged(TimeBreakdown sum_ps, int sm_count) {
  for (double& value : sum_ps.us) value *= kUsPerPs / sm_count;
  return sum_ps;
}

}  // namespace

std::string_view time_cause_key(TimeCause cause) {
  return kCauseTexts[static_cast<std::size_t>(cause)].key;
}

std::string_view time_cause_label(TimeCause cause) {
  return kCauseTexts[static_cast<std::size_t>(cause)].label;
}

double TimeBreakdown::total_us() const {
  double total = 0;
  for (const double value : us) total += value;
  return total;
}

TimeBreakdown kernel_time_breakdown(const gpu::SimulationResult& result, std::size_t kernel) {
  const gpu::KernelRecord& record = result.kernels.at(kernel);
  check_attributed(record, result.sm_count);
  const auto own = residency_per_sm(result, [kernel](const gpu::CtaRecord& cta) {
    return static_cast<std::size_t>(cta.kernel) == kernel;
  });
  const auto all = residency_per_sm(result, [](const gpu::CtaRecord&) { return true; });
  const std::int64_t last_dispatch = last_dispatch_ps(result)[kernel];
  const IntervalSet span = IntervalSet::union_of({{record.start.ps(), record.end.ps()}});
  const IntervalSet placing = IntervalSet::union_of({{record.start.ps(), last_dispatch}});
  const IntervalSet fixed = fixed_overhead_of({record});
  TimeBreakdown sum_ps;
  for (std::size_t sm = 0; sm < own.size(); ++sm) {
    add_busy(sum_ps, record.time_use_per_sm[sm], own[sm].length_ps());
    const IntervalSet others = span.intersection(all[sm]).difference(own[sm]);
    const IntervalSet idle = span.difference(all[sm]);
    const std::int64_t waiting = idle.intersection(placing).length_ps();
    const std::int64_t fixed_ps = idle.intersection(fixed).length_ps();
    sum_ps[TimeCause::other_kernels] += static_cast<double>(others.length_ps());
    sum_ps[TimeCause::waiting] += static_cast<double>(waiting);
    sum_ps[TimeCause::kernel_fixed] += static_cast<double>(fixed_ps);
    sum_ps[TimeCause::tail] += static_cast<double>(idle.length_ps() - waiting - fixed_ps);
  }
  return averaged(sum_ps, result.sm_count);
}

TimeBreakdown run_time_breakdown(const gpu::SimulationResult& result) {
  const auto all = residency_per_sm(result, [](const gpu::CtaRecord&) { return true; });
  const std::vector<std::int64_t> last_dispatch = last_dispatch_ps(result);
  std::vector<IntervalSet::Interval> running;
  std::vector<IntervalSet::Interval> placing;
  for (std::size_t k = 0; k < result.kernels.size(); ++k) {
    check_attributed(result.kernels[k], result.sm_count);
    running.emplace_back(result.kernels[k].start.ps(), result.kernels[k].end.ps());
    placing.emplace_back(result.kernels[k].start.ps(), last_dispatch[k]);
  }
  const IntervalSet span = IntervalSet::union_of({{result.start().ps(), result.end().ps()}});
  const IntervalSet gaps = span.difference(IntervalSet::union_of(std::move(running)));
  const IntervalSet waiting_for_room = IntervalSet::union_of(std::move(placing)).difference(gaps);
  const IntervalSet fixed = fixed_overhead_of(result.kernels).difference(gaps);
  TimeBreakdown sum_ps;
  for (std::size_t sm = 0; sm < all.size(); ++sm) {
    gpu::CtaTimeUses uses;
    for (const gpu::KernelRecord& kernel : result.kernels) uses += kernel.time_use_per_sm[sm];
    add_busy(sum_ps, uses, all[sm].length_ps());
    const IntervalSet idle = span.difference(all[sm]);
    const std::int64_t gap = idle.intersection(gaps).length_ps();
    const std::int64_t waiting = idle.intersection(waiting_for_room).length_ps();
    const std::int64_t fixed_ps = idle.intersection(fixed).difference(waiting_for_room).length_ps();
    sum_ps[TimeCause::launch_gap] += static_cast<double>(gap);
    sum_ps[TimeCause::waiting] += static_cast<double>(waiting);
    sum_ps[TimeCause::kernel_fixed] += static_cast<double>(fixed_ps);
    sum_ps[TimeCause::tail] += static_cast<double>(idle.length_ps() - gap - waiting - fixed_ps);
  }
  return averaged(sum_ps, result.sm_count);
}

}  // namespace tilesim::explain
