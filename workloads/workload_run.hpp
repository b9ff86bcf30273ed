#pragma once
// The outcome of simulating one workload of a study, with the fields that
// describe it (so a report row can be re-simulated from itself).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/gpu/simulation_result.hpp"

namespace tilesim::workloads {

struct WorkloadParameter {
  std::string key;
  std::variant<std::int64_t, double, std::string> value;
};

// What `schedule: auto` decided, beside the run it kept.
struct ScheduleChoice {
  int candidates = 0;
  int simulated = 0;      // the others' lower bounds showed they could not place (first or second)
  std::string runner_up;  // schedule and tile of the second fastest
  double runner_up_time_us = 0;
  // Approximate mode searches for the winner alone (docs/model.md): then
  // runner_up is empty and unknown.
  bool runner_up_searched = true;
};

struct WorkloadRun {
  std::string name;
  std::string kind;                           // "gemm"
  std::string schedule;                       // the schedule actually simulated
  std::string kernel;                         // the kernel profile
  std::vector<WorkloadParameter> parameters;  // shape, dtype, tile, ...
  double useful_flops = 0;                    // 2mnk for a GEMM, padding excluded
  std::optional<ScheduleChoice> choice;       // set by `schedule: auto`
  // Results beyond the time, named with units: a model's serving figures
  // (ttft_us, tokens_per_s, weight_bytes, max_concurrency, ...).
  std::vector<WorkloadParameter> figures;
  gpu::SimulationResult result;

  double tflops_per_s() const { return useful_flops / (result.time_us() * 1e-6) * 1e-12; }
};

// A list of one run, moved in (a braced list would copy every CTA record).
inline std::vector<WorkloadRun> single_run(WorkloadRun&& run) {
  std::vector<WorkloadRun> runs;
  runs.push_back(std::move(run));
  return runs;
}

}  // namespace tilesim::workloads
