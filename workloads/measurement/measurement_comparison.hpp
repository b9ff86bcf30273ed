#pragma once
// Re-simulates measured rows: each becomes a study workload and runs through
// the same study runner as `tilesim simulate`, on one hardware spec. A row
// whose simulation would pass the cost budget is skipped, with why, and the
// others are still compared (docs/limits.md).

#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measured_model_csv.hpp"
#include "workloads/study.hpp"
#include "workloads/workload_cost.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::workloads {

// How a `kernel: library` row is simulated. A vendor library picks its own
// algorithm (tile, split-K, Stream-K), whatever the row's `schedule` says:
// `choose` simulates it as `schedule: auto` (the fastest candidate), `as_measured`
// uses the row's schedule.
enum class LibrarySchedule { choose, as_measured };

// The study that re-simulates the rows, one workload per row in order: a
// `kernel: library` row as `schedule: auto` under `choose`.
Study measured_study(const std::vector<MeasuredGemm>& rows, LibrarySchedule library_schedule);

// A row left out because simulating it would pass the cost budget: its
// estimate is over it, or its run was stopped by the engine's effort limit.
struct SkippedRow {
  std::string name;
  config::SourceLocation where;  // the row's line
  std::string reason;            // the budget message, naming --max-events
};

// A measurement file's rows re-simulated: those compared, in file order, and
// those skipped.
template <typename Compared>
struct MeasuredComparison {
  std::vector<Compared> compared;
  std::vector<SkippedRow> skipped;
};

// The runs of `study`'s workloads that fit the budget, one per workload in
// order (nullopt where skipped), and the workloads skipped. Problems other
// than the budget (a workload that does not lower) are errors.
struct RunsWithinBudget {
  std::vector<std::optional<WorkloadRun>> runs;
  std::vector<SkippedRow> skipped;
};
config::Loaded<RunsWithinBudget> run_each_within_budget(const Study& study,
                                                        const hw::HardwareSpec& spec,
                                                        const GemmScheduleRegistry& schedules,
                                                        double max_events,
                                                        bool approximate = false);

struct ComparedGemm {
  MeasuredGemm measured;
  std::string simulated_schedule;  // what ran, e.g. "auto:stream_k two_tile ..."
  double predicted_us = 0;
};

// Rows whose simulation would cost more than `max_events` (docs/limits.md)
// are skipped; every row fits a run of its own.
config::Loaded<MeasuredComparison<ComparedGemm>> simulate_measured(
    const std::vector<MeasuredGemm>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, LibrarySchedule library_schedule,
    double max_events = kDefaultMaxEvents, bool approximate = false);

struct ComparedAttention {
  MeasuredAttention measured;
  std::string simulated;  // the variant as lowered, e.g. "flash_decoding:splits=14"
  double predicted_us = 0;
  // What the simulation could not follow, e.g. a paged_v2 row measured with
  // other partitions than the model's 512-key ones; empty when none.
  std::string note;
  // The class of the attention profile it ran with, e.g. "flash_mma_sync".
  std::string kernel_class;
};

// Which host a row's host costs describe. `probe`: the host as the row's own
// probe measured it, where the row has one (an eager model row's dispatch
// probe, an unfused attention row's host enqueue time); `hardware`: the
// hardware file's launch costs and the attention profile's gemm_call_host.
enum class HostDispatch { probe, hardware };

// Each row as measured: its variant, splits and page size, with the attention
// profile its implementation maps to (attention_implementations.hpp); an
// unfused row with a host enqueue time on that host under HostDispatch::probe
// (attention_row_hardware).
config::Loaded<MeasuredComparison<ComparedAttention>> simulate_measured_attention(
    const std::vector<MeasuredAttention>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, HostDispatch host_dispatch = HostDispatch::probe,
    double max_events = kDefaultMaxEvents, bool approximate = false);

// The hardware `row` is simulated on: `spec`, and under HostDispatch::probe
// for an unfused row of a per-sequence profile with a host enqueue time,
// launch.host_issue and the profile's gemm_call_host both scaled so that the
// row's launches cost the host what it measured for one run
// (kernels/measure/host_enqueue.hpp).
hw::HardwareSpec attention_row_hardware(const MeasuredAttention& row, const hw::HardwareSpec& spec,
                                        HostDispatch host_dispatch);

struct ComparedModel {
  MeasuredModel measured;
  std::string simulated;  // e.g. "decode:framework:eager"
  double predicted_us = 0;
  // launch.framework_dispatch the row ran with: eager rows only.
  std::optional<double> framework_dispatch_us;
};

// Each row as measured: one phase, `fused` and `launch` choice.
config::Loaded<MeasuredComparison<ComparedModel>> simulate_measured_models(
    const std::vector<MeasuredModel>& rows, const hw::HardwareSpec& spec,
    const GemmScheduleRegistry& schedules, HostDispatch host_dispatch = HostDispatch::probe,
    double max_events = kDefaultMaxEvents, bool approximate = false);

// The hardware `row` is simulated on: `spec`, with the row's probed host
// dispatch under HostDispatch::probe.
hw::HardwareSpec model_row_hardware(const MeasuredModel& row, const hw::HardwareSpec& spec,
                                    HostDispatch host_dispatch);

}  // namespace tilesim::workloads
