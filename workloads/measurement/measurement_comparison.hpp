#pragma once
// Re-simulates measured GEMMs: each row becomes a study workload and runs
// through the same study runner as `tilesim simulate`, on one hardware spec.

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/study.hpp"

namespace tilesim::workloads {

// How a `kernel: library` row is simulated. A vendor library picks its own
// algorithm (tile, split-K, Stream-K), whatever the row's `schedule` says:
// `choose` simulates it as `schedule: auto` (the fastest candidate), `as_measured`
// uses the row's schedule.
enum class LibrarySchedule { choose, as_measured };

// The study that re-simulates the rows, one workload per row in order: a
// `kernel: library` row as `schedule: auto` under `choose`.
Study measured_study(const std::vector<MeasuredGemm>& rows, LibrarySchedule library_schedule);

struct ComparedGemm {
  MeasuredGemm measured;
  std::string simulated_schedule;  // what ran, e.g. "auto:stream_k two_tile ..."
  double predicted_us = 0;
};

config::Loaded<std::vector<ComparedGemm>> simulate_measured(const std::vector<MeasuredGemm>& rows,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            LibrarySchedule library_schedule);

}  // namespace tilesim::workloads
