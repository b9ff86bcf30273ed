#include "sim/gpu/launch_timing.hpp"

#include <algorithm>

namespace tilesim::gpu {

std::vector<LaunchTiming> launch_timings(const KernelPlan& plan, const hw::LaunchSpec& launch) {
  const sim::SimTime issue = sim::SimTime::from_seconds(launch.host_issue_s);
  const sim::SimTime latency = sim::SimTime::from_seconds(launch.latency_s);
  const sim::SimTime node = sim::SimTime::from_seconds(launch.graph_node_s);
  std::vector<LaunchTiming> timings;
  timings.reserve(plan.kernels.size());
  sim::SimTime host;
  for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
    if (plan.mode == LaunchMode::eager) {
      host += sim::SimTime::from_seconds(plan.kernels[i].host_dispatch_s);
      timings.push_back({host, host + issue, host + issue + latency});
      host += issue;
    } else {
      const sim::SimTime arrival = issue + latency + node * static_cast<std::int64_t>(i);
      timings.push_back({sim::SimTime{}, issue, arrival});
    }
  }
  return timings;
}

sim::SimTime dependency_gap(const hw::LaunchSpec& launch) {
  return sim::SimTime::from_seconds(std::max(0.0, launch.graph_node_s - launch.cta_dispatch_s));
}

}  // namespace tilesim::gpu
