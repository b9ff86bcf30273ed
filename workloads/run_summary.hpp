#pragma once
// What reports keep of a simulated run once its per-CTA records are dropped:
// the fields that describe it and its headline results. A sweep keeps one per
// simulation, thousands of them, and can read them back from its CSV.

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

struct RunSummary {
  std::string name;
  std::string kind;
  std::string schedule;
  std::string kernel;
  std::vector<WorkloadParameter> parameters;
  double time_us = 0;
  double tflops = 0;
  double sm_utilization = 0;
  double l2_read_bytes = 0;
  double hbm_read_bytes = 0;
  double hbm_write_bytes = 0;
  double launch_gap_us = 0;
  double sm_idle_us = 0;
  std::int64_t kernels = 0;
};

RunSummary summarize(const WorkloadRun& run);

}  // namespace tilesim::workloads
