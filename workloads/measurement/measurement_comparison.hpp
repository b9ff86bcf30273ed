#pragma once
// Re-simulates measured GEMMs: each row becomes a study workload and runs
// through the same study runner as `tilesim simulate`, on one hardware spec.

#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/measurement/measured_csv.hpp"

namespace tilesim::workloads {

// How a `kernel: library` row is simulated. A vendor library picks its own
// algorithm (tile, split-K, Stream-K), whatever the row's `schedule` says:
// `choose` simulates it as `schedule: auto` (the fastest candidate), `as_measured`
// uses the row's schedule.
enum class LibrarySchedule { choose, as_measured };

struct ComparedGemm {
  MeasuredGemm measured;
  std::string simulated_schedule;  // what ran, e.g. "auto:stream_k two_tile ..."
  double predicted_us = 0;
};

// Rows whose simulation would cost more than `max_events` (docs/limits.md)
// are refused before any runs.
config::Loaded<std::vector<ComparedGemm>> simulate_measured(const std::vector<MeasuredGemm>& rows,
                                                            const hw::HardwareSpec& spec,
                                                            const GemmScheduleRegistry& schedules,
                                                            LibrarySchedule library_schedule,
                                                            double max_events);

}  // namespace tilesim::workloads
