#include "workloads/measurement/measurement_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "workloads/attention/attention_implementations.hpp"
#include "workloads/attention/paged_attention_v2.hpp"
#include "workloads/study_runner.hpp"
#include "workloads/workload_cost.hpp"

namespace tilesim::workloads {
namespace {

// The model's paged_v2 partitions of the longest sequence against the
// measured ones: our kernel cut 512-key partitions until round 4
// (bench/measurements before 2026-11-26's attention_validation_4), so older
// rows are flagged.
// Our per-sequence unfused path (unfused_attention.cu): 2 x group cuBLAS calls
// and one softmax launch per sequence.
double per_sequence_cublas_calls(const AttentionShape& shape) {
  return static_cast<double>(shape.kv_lens.size()) * 2.0 * static_cast<double>(shape.group_size());
}

double per_sequence_launches(const AttentionShape& shape) {
  return per_sequence_cublas_calls(shape) + static_cast<double>(shape.kv_lens.size());
}

// What `compare` prints beside an unfused row simulated on its measured host.
std::string host_note(const MeasuredAttention& row) {
  return fmt::format("host {:.1f} us a launch, measured",
                     *row.host_enqueue_us / per_sequence_launches(row.workload.shape));
}

std::string paged_v2_note(const MeasuredAttention& row, const hw::HardwareSpec& spec) {
  if (row.workload.variant != "paged_v2" || !row.measured_splits) return {};
  const std::int64_t modeled = PagedAttentionV2::own_partitions(row.workload.shape, spec);
  if (modeled == *row.measured_splits) return {};
  return fmt::format("measured {} partitions; the model cuts {}", *row.measured_splits, modeled);
}

// The class of the attention profile the row's implementation runs its
// variant with (it ran, so there is one).
std::string kernel_class_of(const MeasuredAttention& row, const hw::HardwareSpec& spec) {
  const std::optional<AttentionImplementation> implementation =
      find_attention_implementation(row.implementation);
  if (!implementation) return row.implementation;
  const config::Loaded<hw::AttentionProfile> profile =
      attention_profile_for(*implementation, row.workload.variant, spec, {}, "kernel");
  return profile.ok() ? profile.value->kernel_class : row.implementation;
}

// Pairs each row that ran with its run through `pair(row, run)`; the others
// are skipped.
template <typename Compared, typename Row, typename Pair>
config::Loaded<MeasuredComparison<Compared>> paired_with_runs(
    const std::vector<Row>& rows, const Study& study, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, double max_events, bool approximate, Pair pair) {
  config::Loaded<RunsWithinBudget> runs =
      run_each_within_budget(study, spec, schedules, max_events, approximate);
  config::Loaded<MeasuredComparison<Compared>> compared;
  compared.diagnostics = std::move(runs.diagnostics);
  if (!runs.ok()) return compared;
  MeasuredComparison<Compared> result;
  result.skipped = std::move(runs.value->skipped);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (runs.value->runs[i]) result.compared.push_back(pair(rows[i], *runs.value->runs[i]));
  }
  compared.value = std::move(result);
  return compared;
}

// One workload per row, as measured.
template <typename Row>
Study study_of(const std::vector<Row>& rows) {
  Study study;
  for (const Row& row : rows) study.workloads.emplace_back(row.workload);
  return study;
}

}  // namespace

config::Loaded<RunsWithinBudget> run_each_within_budget(const Study& study,
                                                        const hw::HardwareSpec& spec,
                                                        const GemmScheduleRegistry& schedules,
                                                        double max_events, bool approximate) {
  config::Loaded<RunsWithinBudget> loaded;
  RunsWithinBudget within;
  gpu::SimulationOptions options;
  options.max_effort_events = effort_limit(max_events);
  options.set_approximate(approximate);
  for (const Workload& workload : study.workloads) {
    within.runs.emplace_back();
    const SkippedRow skipped{workload_name(workload), workload_location(workload), ""};
    const config::Loaded<gpu::PlanCost> cost = estimate_workload_cost(workload, spec, schedules);
    if (!cost.ok()) {
      // A row that does not lower is a problem of the file, not of the budget.
      for (const config::Diagnostic& problem : cost.diagnostics.items()) {
        const bool whole_row = problem.key_path.starts_with("workloads[");
        loaded.diagnostics.add(problem.where, whole_row ? "row" : problem.key_path,
                               problem.message);
      }
      continue;
    }
    if (cost.value->events() > max_events) {
      within.skipped.push_back(skipped);
      within.skipped.back().reason = over_budget_message(*cost.value, max_events);
      continue;
    }
    // Each row on its own, so that a row the engine stops leaves the others.
    const Study single{study.source_path, study.hardware, study.hardware_location, {workload}};
    config::Loaded<std::vector<WorkloadRun>> runs = run_study(single, spec, schedules, options);
    if (!runs.ok()) {
      // It lowered for the estimate, so what stops it is its effort (docs/limits.md).
      within.skipped.push_back(skipped);
      within.skipped.back().reason = runs.diagnostics.items().front().message;
      continue;
    }
    within.runs.back() = std::move(runs.value->front());
  }
  if (loaded.diagnostics.empty()) loaded.value = std::move(within);
  return loaded;
}

Study measured_study(const std::vector<MeasuredGemm>& rows, LibrarySchedule library_schedule) {
  Study study;
  for (const MeasuredGemm& row : rows) {
    GemmWorkload workload = row.workload;
    if (workload.kernel == "library" && library_schedule == LibrarySchedule::choose) {
      workload.schedule = "auto";
    }
    study.workloads.emplace_back(std::move(workload));
  }
  return study;
}

config::Loaded<MeasuredComparison<ComparedGemm>> simulate_measured(
    const std::vector<MeasuredGemm>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, LibrarySchedule library_schedule, double max_events,
    bool approximate) {
  // Concrete schedules and `auto` give one run per workload.
  return paired_with_runs<ComparedGemm>(
      rows, measured_study(rows, library_schedule), spec, schedules, max_events, approximate,
      [](const MeasuredGemm& row, const WorkloadRun& run) {
        return ComparedGemm{row, run.schedule, run.result.time_us()};
      });
}

// How much slower (> 1) or faster the host that an unfused row's
// host_enqueue_us measured is than the model's: nullopt where the row is
// simulated on the hardware file's host.
std::optional<double> measured_host_speed(const MeasuredAttention& row,
                                          const hw::HardwareSpec& spec,
                                          HostDispatch host_dispatch) {
  if (host_dispatch != HostDispatch::probe || !row.host_enqueue_us ||
      row.workload.variant != "unfused") {
    return std::nullopt;
  }
  const std::optional<AttentionImplementation> implementation =
      find_attention_implementation(row.implementation);
  if (!implementation) return std::nullopt;
  const auto profile = spec.attention_profiles.find(implementation->unfused_profile);
  if (profile == spec.attention_profiles.end() ||
      profile->second.launches != hw::UnfusedLaunches::per_sequence) {
    return std::nullopt;
  }
  // Each launch costs host_issue, each cuBLAS call gemm_call_host more.
  const double modelled_s =
      per_sequence_launches(row.workload.shape) * spec.launch.host_issue_s +
      per_sequence_cublas_calls(row.workload.shape) * profile->second.gemm_call_host_s;
  if (modelled_s <= 0) return std::nullopt;
  return *row.host_enqueue_us * 1e-6 / modelled_s;
}

hw::HardwareSpec attention_row_hardware(const MeasuredAttention& row, const hw::HardwareSpec& spec,
                                        HostDispatch host_dispatch) {
  hw::HardwareSpec hardware = spec;
  const std::optional<double> speed = measured_host_speed(row, spec, host_dispatch);
  if (!speed) return hardware;
  // The measured host scales the launch and the cuBLAS call alike.
  hardware.launch.host_issue_s *= *speed;
  const AttentionImplementation implementation = *find_attention_implementation(row.implementation);
  hardware.attention_profiles.at(implementation.unfused_profile).gemm_call_host_s *= *speed;
  return hardware;
}

config::Loaded<MeasuredComparison<ComparedAttention>> simulate_measured_attention(
    const std::vector<MeasuredAttention>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, HostDispatch host_dispatch, double max_events,
    bool approximate) {
  auto compare_on = [&](const std::vector<MeasuredAttention>& some,
                        const hw::HardwareSpec& hardware) {
    // A concrete variant gives one run per workload, in order.
    return paired_with_runs<ComparedAttention>(
        some, study_of(some), hardware, schedules, max_events, approximate,
        [&hardware](const MeasuredAttention& row, const WorkloadRun& run) {
          return ComparedAttention{row, run.schedule, run.result.time_us(),
                                   paged_v2_note(row, hardware), kernel_class_of(row, hardware)};
        });
  };
  const bool probed = std::any_of(rows.begin(), rows.end(), [](const MeasuredAttention& row) {
    return row.host_enqueue_us.has_value();
  });
  if (!probed || host_dispatch == HostDispatch::hardware) return compare_on(rows, spec);
  // Each row on the host its own probe measured: one run per row, in order.
  config::Loaded<MeasuredComparison<ComparedAttention>> all;
  all.value.emplace();
  for (const MeasuredAttention& row : rows) {
    config::Loaded<MeasuredComparison<ComparedAttention>> one =
        compare_on(std::vector{row}, attention_row_hardware(row, spec, host_dispatch));
    all.diagnostics.append(one.diagnostics);
    if (!one.ok()) continue;
    const bool on_measured_host = measured_host_speed(row, spec, host_dispatch).has_value();
    for (ComparedAttention& compared : one.value->compared) {
      if (on_measured_host) compared.note = host_note(row);
      all.value->compared.push_back(std::move(compared));
    }
    for (SkippedRow& skipped : one.value->skipped) all.value->skipped.push_back(std::move(skipped));
  }
  if (!all.diagnostics.empty()) all.value.reset();
  return all;
}

hw::HardwareSpec model_row_hardware(const MeasuredModel& row, const hw::HardwareSpec& spec,
                                    HostDispatch host_dispatch) {
  hw::HardwareSpec hardware = spec;
  if (host_dispatch == HostDispatch::probe && row.dispatch_probe_us) {
    // The probe times the whole host path of a kernel: the framework's
    // dispatch and the CUDA launch the hardware file already counts.
    hardware.launch.framework_dispatch_s =
        std::max(0.0, *row.dispatch_probe_us * 1e-6 - spec.launch.host_issue_s);
  }
  return hardware;
}

config::Loaded<MeasuredComparison<ComparedModel>> simulate_measured_models(
    const std::vector<MeasuredModel>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, HostDispatch host_dispatch, double max_events,
    bool approximate) {
  // One phase, fused and launch choice: one run per row, in order, each on
  // the host its row was measured on.
  config::Loaded<MeasuredComparison<ComparedModel>> all;
  all.value.emplace();
  for (const MeasuredModel& row : rows) {
    const hw::HardwareSpec hardware = model_row_hardware(row, spec, host_dispatch);
    const bool eager = row.workload.launch == "eager";
    config::Loaded<MeasuredComparison<ComparedModel>> one = paired_with_runs<ComparedModel>(
        std::vector{row}, study_of(std::vector{row}), hardware, schedules, max_events, approximate,
        [&](const MeasuredModel& measured, const WorkloadRun& run) {
          ComparedModel compared{measured, run.schedule, run.result.time_us(), std::nullopt};
          if (eager) compared.framework_dispatch_us = hardware.launch.framework_dispatch_s * 1e6;
          return compared;
        });
    all.diagnostics.append(one.diagnostics);
    if (!one.ok()) continue;
    for (ComparedModel& compared : one.value->compared) {
      all.value->compared.push_back(std::move(compared));
    }
    for (SkippedRow& skipped : one.value->skipped) all.value->skipped.push_back(std::move(skipped));
  }
  if (!all.diagnostics.empty()) all.value.reset();
  return all;
}

}  // namespace tilesim::workloads
