#pragma once
// Everything `tilesim explain` says about one simulated run: where its time
// went (per run and per kernel), where it sits on the roofline, what bounds
// it, and how much each what-if change would move it.

#include <string>
#include <vector>

#include "app/explain/roofline.hpp"
#include "app/explain/run_verdict.hpp"
#include "app/explain/time_breakdown.hpp"
#include "app/explain/what_if.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/study.hpp"
#include "workloads/workload_cost.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::explain {

struct KernelExplanation {
  std::string name;
  double time_us = 0;  // its first CTA's dispatch to its last CTA's end
  double gap_before_us = 0;
  TimeBreakdown breakdown;
};

struct RunExplanation {
  std::string name;
  std::string kind;
  std::string schedule;
  double time_us = 0;
  TimeBreakdown breakdown;
  std::vector<KernelExplanation> kernels;
  RooflineCeilings ceilings;
  RooflinePosition position;
  RunVerdict verdict;
  std::vector<WhatIf> what_ifs;
};

// `run` must come from a simulation with SimulationOptions::attribute_time;
// what_ifs is left empty.
RunExplanation explain_run(const workloads::WorkloadRun& run, const hw::HardwareSpec& spec);

// Simulates every workload of `study` with time attribution and explains each
// run, what-ifs included. Every simulation counts against `max_events`
// (docs/limits.md): a study whose explanation, what-ifs included, is estimated
// over it is refused before any runs, and each run stops at its effort limit.
// `approximate`: every simulation in approximate mode (gpu::SimulationOptions).
config::Loaded<std::vector<RunExplanation>> explain_study(
    const workloads::Study& study, const hw::HardwareSpec& spec,
    const workloads::GemmScheduleRegistry& schedules,
    double max_events = workloads::kDefaultMaxEvents, bool approximate = false);

}  // namespace tilesim::explain
