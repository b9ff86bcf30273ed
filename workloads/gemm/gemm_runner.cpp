#include "workloads/gemm/gemm_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "hwmodels/data_type.hpp"
#include "sim/gpu/cta_program_store.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_time_bound.hpp"
#include "workloads/gemm/schedule_candidates.hpp"
#include "workloads/gemm/schedule_descriptor.hpp"
#include "workloads/gemm/stream_k_schedule.hpp"

namespace tilesim::workloads {
namespace {

std::vector<WorkloadParameter> gemm_parameters(const GemmWorkload& workload,
                                               const hw::KernelProfile& config) {
  const GemmProblem& problem = workload.problem;
  std::vector<WorkloadParameter> parameters = {
      {"m", problem.m},
      {"n", problem.n},
      {"k", problem.k},
      {"dtype", std::string(hw::to_string(problem.input_type))},
      {"out_dtype", std::string(hw::to_string(problem.output_type))},
      {"tile_m", std::int64_t{config.tile_m}},
      {"tile_n", std::int64_t{config.tile_n}},
      {"tile_k", std::int64_t{config.tile_k}},
      {"stages", std::int64_t{config.stages}},
      {"warps", std::int64_t{config.warps}},
      {"swizzle", std::int64_t{config.swizzle}},
      {"cluster_m", std::int64_t{config.cluster.m}},
      {"cluster_n", std::int64_t{config.cluster.n}},
  };
  if (workload.splits) parameters.push_back({"splits", std::int64_t{*workload.splits}});
  return parameters;
}

// The schedule's plan with the kernel it was lowered for, or why there is none.
struct LoweredGemm {
  gpu::KernelPlan plan;
  hw::KernelProfile kernel;
};

config::Loaded<LoweredGemm> lower_gemm(const GemmWorkload& workload, const hw::HardwareSpec& spec,
                                       const GemmScheduleRegistry& schedules) {
  config::Loaded<LoweredGemm> loaded;
  const GemmSchedule* schedule = schedules.find(workload.schedule);
  if (schedule == nullptr) {
    loaded.diagnostics.add(workload.where, workload.name + ".schedule",
                           fmt::format("unknown schedule '{}'; allowed: {}", workload.schedule,
                                       fmt::join(schedules.names(), ", ")));
    return loaded;
  }
  config::Loaded<hw::KernelProfile> config = resolve_gemm_kernel(workload, spec);
  if (!config.ok()) {
    loaded.diagnostics = std::move(config.diagnostics);
    return loaded;
  }
  loaded.value = LoweredGemm{schedule->lower(workload, *config.value, spec), *config.value};
  return loaded;
}

// `auto` with no candidate that fits: the workload's own tile, data-parallel,
// whose lowering says why.
GemmWorkload own_tile(GemmWorkload workload) {
  workload.schedule = "data_parallel";
  return workload;
}

// What `compare` and `auto` try; any other schedule is its own single candidate.
std::vector<GemmWorkload> gemm_candidates(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec) {
  if (workload.schedule == "compare") return compare_candidates(workload);
  if (workload.schedule == "auto") {
    std::vector<GemmWorkload> candidates = auto_candidates(workload, spec);
    return candidates.empty() ? std::vector<GemmWorkload>{own_tile(workload)} : candidates;
  }
  return {workload};
}

// The run of `workload`, lowered for `kernel`, with its simulation's `result`.
WorkloadRun gemm_run(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                     const hw::HardwareSpec& spec, gpu::SimulationResult result) {
  WorkloadRun run;
  run.name = workload.name;
  run.kind = "gemm";
  run.schedule = describe_schedule(workload, kernel, spec);
  run.kernel = workload.kernel;
  run.parameters = gemm_parameters(workload, kernel);
  run.useful_flops = workload.problem.flops();
  run.result = std::move(result);
  return run;
}

}  // namespace

config::Loaded<WorkloadRun> simulate_gemm(const GemmWorkload& workload,
                                          const hw::HardwareSpec& spec,
                                          const GemmScheduleRegistry& schedules,
                                          const gpu::SimulationOptions& options) {
  config::Loaded<LoweredGemm> lowered = lower_gemm(workload, spec, schedules);
  if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
  return {gemm_run(workload, lowered.value->kernel, spec,
                   gpu::simulate(lowered.value->plan, spec, options)),
          {}};
}

config::Loaded<gpu::PlanCost> estimate_gemm_cost(const GemmWorkload& workload,
                                                 const hw::HardwareSpec& spec,
                                                 const GemmScheduleRegistry& schedules) {
  gpu::PlanCost cost;
  for (const GemmWorkload& candidate : gemm_candidates(workload, spec)) {
    config::Loaded<LoweredGemm> lowered = lower_gemm(candidate, spec, schedules);
    if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
    cost += gpu::estimate_plan_cost(lowered.value->plan, spec);
  }
  return {cost, {}};
}

std::vector<std::string> study_schedule_names(const GemmScheduleRegistry& schedules) {
  std::vector<std::string> names = schedules.names();
  names.emplace_back("auto");
  names.emplace_back("compare");
  return names;
}

namespace {

std::string tile_text(const WorkloadRun& run) {
  std::string dims;
  for (const char* key : {"tile_m", "tile_n", "tile_k"}) {
    for (const WorkloadParameter& parameter : run.parameters) {
      if (parameter.key != key) continue;
      dims += fmt::format("{}{}", dims.empty() ? "" : "x", std::get<std::int64_t>(parameter.value));
    }
  }
  return dims;
}

// Runs every candidate; the first problem any of them has stops the lot.
config::Loaded<std::vector<WorkloadRun>> simulate_all(const std::vector<GemmWorkload>& candidates,
                                                      const hw::HardwareSpec& spec,
                                                      const GemmScheduleRegistry& schedules,
                                                      const gpu::SimulationOptions& options) {
  config::Loaded<std::vector<WorkloadRun>> loaded;
  std::vector<WorkloadRun> runs;
  for (const GemmWorkload& candidate : candidates) {
    config::Loaded<WorkloadRun> run = simulate_gemm(candidate, spec, schedules, options);
    if (!run.ok()) {
      loaded.diagnostics = std::move(run.diagnostics);
      return loaded;
    }
    runs.push_back(std::move(*run.value));
  }
  loaded.value = std::move(runs);
  return loaded;
}

config::Loaded<std::vector<WorkloadRun>> compare_schedules(const GemmWorkload& workload,
                                                           const hw::HardwareSpec& spec,
                                                           const GemmScheduleRegistry& schedules,
                                                           const gpu::SimulationOptions& options) {
  config::Loaded<std::vector<WorkloadRun>> runs =
      simulate_all(compare_candidates(workload), spec, schedules, options);
  if (runs.ok()) {
    for (WorkloadRun& run : *runs.value) run.name = workload.name + "/" + run.schedule;
  }
  return runs;
}

// Lower bounds of the candidates' times, in seconds (0 where a candidate does
// not resolve: simulating it reports why).
std::vector<double> candidate_bounds_s(const std::vector<GemmWorkload>& candidates,
                                       const hw::HardwareSpec& spec) {
  std::vector<double> bounds;
  bounds.reserve(candidates.size());
  for (const GemmWorkload& candidate : candidates) {
    const config::Loaded<hw::KernelProfile> kernel = resolve_gemm_kernel(candidate, spec);
    bounds.push_back(kernel.ok() ? gemm_time_lower_bound_s(candidate.problem, *kernel.value, spec)
                                 : 0.0);
  }
  return bounds;
}

struct CandidateRun {
  std::size_t candidate;  // index into the candidates
  WorkloadRun run;
};

// The candidates simulated (fastest first; equal times in candidate order),
// and how many were started, counting those stopped once they had lost.
struct PromisingRuns {
  std::vector<CandidateRun> runs;
  int started = 0;
};

// A candidate simulate_promising simulated, and its run's index in
// PromisingRuns::runs (none when it was stopped).
struct SimulatedCandidate {
  std::size_t candidate;
  std::optional<std::size_t> run;
};

// Whether auto's candidate `later` lowers to the plan of `earlier`, a
// candidate of the same search: auto_candidates varies the schedule, tile,
// splits, reduction and Stream-K mode of copies of one workload, so two
// Stream-K candidates of one tile differ in their mode alone, and equal
// Stream-K partitions give equal plans (tested against gpu::same_work,
// tests/workloads/approximate_mode_test.cpp). Comparing the plans CTA by CTA
// built every program twice (2.3 M instructions of 1536^3 `auto`'s 36 M).
bool lowers_alike(const GemmWorkload& earlier, const GemmWorkload& later,
                  const hw::KernelProfile& kernel, const hw::HardwareSpec& spec,
                  const GemmScheduleRegistry& schedules) {
  const auto* stream_k = dynamic_cast<const StreamKSchedule*>(schedules.find(later.schedule));
  return stream_k != nullptr && earlier.schedule == later.schedule &&
         earlier.tile.m == later.tile.m && earlier.tile.n == later.tile.n &&
         stream_k->lowers_alike_in_mode(later, earlier.stream_k_mode, kernel, spec);
}

// How many of the fastest places a search must know: the winner alone, or
// the winner and the runner-up.
enum class Places : std::size_t { winner = 1, winner_and_runner_up = 2 };

// Simulates candidates in order of their lower bounds and stops at the first
// whose bound is no better than the last wanted place's time so far: neither
// it nor any later one can take a wanted place. For the same reason a
// candidate's run stops once it has passed that time.
config::Loaded<PromisingRuns> simulate_promising(const std::vector<GemmWorkload>& candidates,
                                                 const hw::HardwareSpec& spec,
                                                 const GemmScheduleRegistry& schedules,
                                                 gpu::SimulationOptions options, Places places) {
  const std::vector<double> bounds_s = candidate_bounds_s(candidates, spec);
  std::vector<std::size_t> order(candidates.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return bounds_s[a] < bounds_s[b]; });
  PromisingRuns promising;
  std::vector<CandidateRun>& runs = promising.runs;
  const auto wanted = static_cast<std::size_t>(places);
  std::vector<double> best_us;  // the `wanted` best times so far, ascending
  // Approximate mode only (the exact search stays as it was): a candidate
  // whose plan is the same work as one simulated already takes its result.
  const bool reuse_same_work = options.estimate_power_load;
  std::vector<SimulatedCandidate> simulated;
  // The candidates' runs build their CTA programs into one store's storage.
  gpu::CtaProgramStore programs;
  if (!options.program_store) options.program_store = &programs;
  for (const std::size_t index : order) {
    if (best_us.size() == wanted && bounds_s[index] * 1e6 >= best_us.back()) break;
    if (best_us.size() == wanted) options.stop_after_s = best_us.back() * 1e-6;
    config::Loaded<LoweredGemm> lowered = lower_gemm(candidates[index], spec, schedules);
    if (!lowered.ok()) return {std::nullopt, std::move(lowered.diagnostics)};
    ++promising.started;
    bound_remaining_work(options, candidates[index].problem, lowered.value->kernel, spec);
    const auto twin =
        std::find_if(simulated.begin(), simulated.end(), [&](const SimulatedCandidate& earlier) {
          return lowers_alike(candidates[earlier.candidate], candidates[index],
                              lowered.value->kernel, spec, schedules);
        });
    const bool from_twin = twin != simulated.end();
    gpu::SimulationResult result;
    if (from_twin) {
      // A twin stopped earlier stopped at a limit no lower than this one's.
      if (!twin->run) continue;
      result = runs[*twin->run].run.result;
      result.stopped =
          options.stop_after_s < std::numeric_limits<double>::infinity() &&
          result.end() - result.start() > sim::SimTime::from_seconds(options.stop_after_s);
    } else {
      result = gpu::simulate(lowered.value->plan, spec, options);
      if (reuse_same_work) simulated.push_back({index, std::nullopt});
    }
    if (result.stopped) continue;
    best_us.push_back(result.time_us());
    std::sort(best_us.begin(), best_us.end());
    if (best_us.size() > wanted) best_us.pop_back();
    if (reuse_same_work && !from_twin) simulated.back().run = runs.size();
    runs.push_back(
        {index, gemm_run(candidates[index], lowered.value->kernel, spec, std::move(result))});
  }
  // Fastest first; equal times in candidate order.
  std::sort(runs.begin(), runs.end(), [](const CandidateRun& a, const CandidateRun& b) {
    const double time_a = a.run.result.time_us();
    const double time_b = b.run.result.time_us();
    return time_a != time_b ? time_a < time_b : a.candidate < b.candidate;
  });
  return {std::move(promising), {}};
}

// `auto`'s candidates, and the runs of those that could win, fastest first.
struct RankedCandidates {
  std::vector<GemmWorkload> candidates;
  std::vector<CandidateRun> runs;
  int simulated = 0;  // candidates whose simulation started
};

config::Loaded<RankedCandidates> rank_candidates(const GemmWorkload& workload,
                                                 const hw::HardwareSpec& spec,
                                                 const GemmScheduleRegistry& schedules,
                                                 const gpu::SimulationOptions& options,
                                                 Places places) {
  RankedCandidates ranked{auto_candidates(workload, spec), {}, 0};
  if (ranked.candidates.empty()) {
    return {std::nullopt, lower_gemm(own_tile(workload), spec, schedules).diagnostics};
  }
  gpu::SimulationOptions quick = options;
  quick.record_bandwidth = false;
  config::Loaded<PromisingRuns> promising =
      simulate_promising(ranked.candidates, spec, schedules, quick, places);
  if (!promising.ok()) return {std::nullopt, std::move(promising.diagnostics)};
  ranked.runs = std::move(promising.value->runs);
  ranked.simulated = promising.value->started;
  return {std::move(ranked), {}};
}

config::Loaded<std::vector<WorkloadRun>> choose_schedule(const GemmWorkload& workload,
                                                         const hw::HardwareSpec& spec,
                                                         const GemmScheduleRegistry& schedules,
                                                         const gpu::SimulationOptions& options) {
  // Approximate mode (estimate_power_load stands for it, as above) searches
  // for the winner alone: the losers stop at the winner's time, not the
  // runner-up's, and the runner-up is not known.
  const bool runner_up_searched = !options.estimate_power_load;
  config::Loaded<RankedCandidates> ranked =
      rank_candidates(workload, spec, schedules, options,
                      runner_up_searched ? Places::winner_and_runner_up : Places::winner);
  if (!ranked.ok()) return {std::nullopt, std::move(ranked.diagnostics)};
  std::vector<CandidateRun>& runs = ranked.value->runs;
  CandidateRun& winner = runs.front();
  // The winner is simulated again only when its bandwidth trace is wanted;
  // otherwise its run (every CTA's record) is moved out, not copied.
  WorkloadRun chosen =
      options.record_bandwidth
          ? *simulate_gemm(ranked.value->candidates[winner.candidate], spec, schedules, options)
                 .value
          : std::move(winner.run);
  ScheduleChoice choice;
  choice.candidates = static_cast<int>(ranked.value->candidates.size());
  choice.simulated = ranked.value->simulated;
  choice.runner_up_searched = runner_up_searched;
  if (runner_up_searched && runs.size() > 1) {
    const WorkloadRun& second = runs[1].run;
    choice.runner_up = fmt::format("{} {}", second.schedule, tile_text(second));
    choice.runner_up_time_us = second.result.time_us();
  }
  chosen.choice = choice;
  chosen.schedule = "auto:" + chosen.schedule;
  return {single_run(std::move(chosen)), {}};
}

}  // namespace

config::Loaded<GemmWorkload> chosen_gemm(const GemmWorkload& workload, const hw::HardwareSpec& spec,
                                         const GemmScheduleRegistry& schedules,
                                         const gpu::SimulationOptions& options) {
  if (workload.schedule != "auto") return {workload, {}};
  config::Loaded<RankedCandidates> ranked =
      rank_candidates(workload, spec, schedules, options, Places::winner);
  if (!ranked.ok()) return {std::nullopt, std::move(ranked.diagnostics)};
  return {ranked.value->candidates[ranked.value->runs.front().candidate], {}};
}

std::size_t expected_auto_runs(const GemmWorkload& workload, const hw::HardwareSpec& spec) {
  const std::vector<GemmWorkload> candidates = auto_candidates(workload, spec);
  const std::vector<double> bounds_s = candidate_bounds_s(candidates, spec);
  if (bounds_s.empty()) return 0;
  const double best_s = *std::min_element(bounds_s.begin(), bounds_s.end());
  const auto within = static_cast<std::size_t>(std::count_if(
      bounds_s.begin(), bounds_s.end(), [&](double bound_s) { return bound_s <= 1.5 * best_s; }));
  return std::min(candidates.size(), std::max<std::size_t>(within, 2));
}

config::Loaded<std::vector<WorkloadRun>> run_gemm_workload(const GemmWorkload& workload,
                                                           const hw::HardwareSpec& spec,
                                                           const GemmScheduleRegistry& schedules,
                                                           const gpu::SimulationOptions& options) {
  if (workload.schedule == "compare") return compare_schedules(workload, spec, schedules, options);
  if (workload.schedule == "auto") return choose_schedule(workload, spec, schedules, options);
  config::Loaded<WorkloadRun> run = simulate_gemm(workload, spec, schedules, options);
  if (!run.ok()) return {std::nullopt, std::move(run.diagnostics)};
  return {single_run(std::move(*run.value)), {}};
}

}  // namespace tilesim::workloads
