#include "kernels/microbench/calibration_run.hpp"

#include <algorithm>
#include <cstdio>

#include "kernels/microbench/compute_throughput.hpp"
#include "kernels/microbench/graph_node_gap.hpp"
#include "kernels/microbench/launch_overhead.hpp"
#include "kernels/microbench/memory_bandwidth.hpp"
#include "kernels/microbench/memory_latency.hpp"
#include "kernels/microbench/microbench_table.hpp"

namespace tilesim::microbench {
namespace {

void keep(std::vector<MicrobenchResult>& all, const std::vector<MicrobenchResult>& more) {
  for (const MicrobenchResult& result : more) {
    std::printf("%s\n", microbench_table_row(result).c_str());
    std::fflush(stdout);
    all.push_back(result);
  }
}

}  // namespace

std::vector<MicrobenchResult> run_calibration_microbenchmarks(const MicrobenchDevice& device) {
  std::vector<MicrobenchResult> all;
  std::printf("%s\n", microbench_table_header().c_str());
  keep(all, measure_compute_throughput(device));
  keep(all, measure_hbm_bandwidth(device));
  const auto hbm_read = std::find_if(all.begin(), all.end(), [](const MicrobenchResult& r) {
    return r.name == "hbm_read_bandwidth";
  });
  const double hbm_read_gb_s = hbm_read->value;
  keep(all, measure_l2_bandwidth_sweep(device, hbm_read_gb_s));
  keep(all, {measure_l2_port_bandwidth(device)});
  keep(all, measure_memory_latency(device));
  keep(all, measure_launch_overhead(device));
  keep(all, measure_graph_node_gap(device));
  return all;
}

}  // namespace tilesim::microbench
