#pragma once
// Reads a measurement CSV (written by `tilesim-measure` or
// kernels/attention/sdpa_measure.py; columns in kernels/README.md) into
// workloads that can be re-simulated from each row alone, with the measured
// times beside them. A file holds GEMM rows, attention rows, or both (the
// header is then the union of both column lists; a row is an attention row
// iff its `variant` cell is non-empty). Each row is checked by the same
// declarations as a study's workload, so a bad value is reported the same way,
// as file:line:column of the CSV with the column's name and what is allowed.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/attention/attention_workload.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

struct MeasuredGemm {
  GemmWorkload workload;  // schedule, kernel and tile as measured
  double time_us = 0;     // median of the runs
  std::optional<double> time_us_p90;
  int line = 0;  // 1-based line of the row in the CSV
};

struct MeasuredAttention {
  // Variant, shape and splits as measured; `kernel` is the implementation,
  // which picks its attention profiles (attention_implementations.hpp).
  AttentionWorkload workload;
  std::string implementation;  // the row's `kernel`, e.g. "sdpa_flash", "tilesim_ref"
  // The `splits` cell of a paged_v2 row (partitions per sequence), which the
  // model does not take: it cuts 512-key partitions.
  std::optional<int> measured_splits;
  // Unfused rows: the host's us to enqueue one run of the row (all its
  // launches), measured right after the row's timed runs
  // (kernels/measure/host_enqueue.hpp); files measured before round 16 have none.
  std::optional<double> host_enqueue_us;
  double time_us = 0;
  std::optional<double> time_us_p90;
  int line = 0;
};

struct MeasuredRows {
  std::vector<MeasuredGemm> gemms;           // in file order
  std::vector<MeasuredAttention> attention;  // in file order
};

// `gemm_schedules`: the names a GEMM row's `schedule` may take (concrete
// schedules, not `auto` or `compare`).
config::Loaded<MeasuredRows> read_measured_csv(const std::filesystem::path& path,
                                               const std::vector<std::string>& gemm_schedules);

// The same for CSV text held in memory; `origin` names it in diagnostics.
config::Loaded<MeasuredRows> read_measured_csv_text(const std::string& text,
                                                    const std::string& origin,
                                                    const std::vector<std::string>& gemm_schedules);

}  // namespace tilesim::workloads
