#include "workloads/run_summary.hpp"

#include "sim/gpu/gpu_idle_time.hpp"

namespace tilesim::workloads {

RunSummary summarize(const WorkloadRun& run) {
  const gpu::MemoryTraffic traffic = run.result.traffic();
  RunSummary summary;
  summary.name = run.name;
  summary.kind = run.kind;
  summary.schedule = run.schedule;
  summary.kernel = run.kernel;
  summary.parameters = run.parameters;
  // Figures become columns of their own, after the parameters.
  summary.parameters.insert(summary.parameters.end(), run.figures.begin(), run.figures.end());
  summary.time_us = run.result.time_us();
  summary.tflops = run.tflops_per_s();
  summary.sm_utilization = run.result.sm_utilization();
  summary.l2_read_bytes = traffic.l2_read_bytes;
  summary.hbm_read_bytes = traffic.hbm_read_bytes;
  summary.hbm_write_bytes = traffic.write_bytes;
  summary.launch_gap_us = gpu::launch_gaps(run.result).us();
  summary.sm_idle_us = gpu::sm_idle_us(run.result, summary.sm_utilization);
  summary.kernels = static_cast<std::int64_t>(run.result.kernels.size());
  return summary;
}

}  // namespace tilesim::workloads
