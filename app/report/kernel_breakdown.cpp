#include "app/report/kernel_breakdown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "sim/gpu/gpu_idle_time.hpp"

namespace tilesim::report {
namespace {

// Long graphs (300 tiny kernels) show their first kernels; --json has all.
constexpr std::size_t kMostKernelRows = 12;

std::string summary(const workloads::WorkloadRun& run) {
  const gpu::SimulationResult& result = run.result;
  std::set<int> streams;
  for (const gpu::KernelRecord& kernel : result.kernels) streams.insert(kernel.stream);
  const double time_us = std::max(result.time_us(), 1e-12);
  const double gaps_us = gpu::launch_gaps(result).us();
  return fmt::format(
      "{}: {} kernels on {} stream{}; launch gaps {:.2f} us ({:.1f}% of the time); SM idle "
      "{:.1f}%\n",
      run.name, result.kernels.size(), streams.size(), streams.size() == 1 ? "" : "s", gaps_us,
      100 * gaps_us / time_us, 100 * gpu::sm_idle_us(result) / time_us);
}

}  // namespace

std::string kernel_breakdown(const workloads::WorkloadRun& run) {
  const gpu::SimulationResult& result = run.result;
  const std::vector<gpu::KernelIdleTime> idle = gpu::kernel_idle_times(result);
  std::size_t name_width = 6;
  for (const gpu::KernelRecord& kernel : result.kernels) {
    name_width = std::max(name_width, kernel.name.size());
  }
  std::string out = summary(run);
  out += fmt::format("  {:<{}} {:>6} {:>10} {:>9} {:>8} {:>8} {:>9} {:>9}\n", "kernel", name_width,
                     "stream", "start_us", "time_us", "gap_us", "SM_idle%", "HBM_MB", "L2_MB");
  const sim::SimTime origin = result.start();
  const std::size_t rows = std::min(result.kernels.size(), kMostKernelRows);
  for (std::size_t i = 0; i < rows; ++i) {
    const gpu::KernelRecord& kernel = result.kernels[i];
    const double span_us = (kernel.end - kernel.start).us();
    out +=
        fmt::format("  {:<{}} {:>6} {:>10.2f} {:>9.2f} {:>8.2f} {:>8.1f} {:>9.2f} {:>9.2f}\n",
                    kernel.name, name_width, kernel.stream, (kernel.start - origin).us(), span_us,
                    idle[i].gap_before.us(), span_us > 0 ? 100 * idle[i].sm_idle_us / span_us : 0.0,
                    kernel.traffic.hbm_bytes() / 1e6, kernel.traffic.l2_read_bytes / 1e6);
  }
  if (result.kernels.size() > rows) {
    out += fmt::format("  ... {} more kernels (all of them in --json)\n",
                       result.kernels.size() - rows);
  }
  return out;
}

}  // namespace tilesim::report
