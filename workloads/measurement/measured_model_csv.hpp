#pragma once
// Reads a model measurement CSV (kernels/model/torch_llama_forward.py; columns
// in kernels/README.md, "The model measurement CSV"): one whole forward per
// row (`kind` = model), eager or as a CUDA graph, re-simulated as a `model:`
// workload of one phase, `fused` and `launch`. Each row is checked by the
// same declarations as a study's model, reported at file:line:column of the
// CSV.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/model/model_workload.hpp"

namespace tilesim::workloads {

struct MeasuredModel {
  std::string name;  // the row's `name`
  ModelWorkload workload;
  // `calibration` rows may be fitted on (launch.framework_dispatch);
  // `validation` rows never.
  std::string split;
  double time_us = 0;  // median
  std::optional<double> time_us_p90;
  // Host time per kernel of the dispatch probe taken just before this case
  // (kernels/model/README.md): how fast this host dispatched framework ops
  // then. Absent in files measured before the column.
  std::optional<double> dispatch_probe_us;
  int line = 0;
};

// True when the CSV's header has a `kind` column and its first row is `model`.
bool is_model_csv(const std::filesystem::path& path);

config::Loaded<std::vector<MeasuredModel>> read_measured_model_csv(
    const std::filesystem::path& path, const std::vector<std::string>& gemm_schedules);

// The same, from the CSV's text; diagnostics name `origin`.
config::Loaded<std::vector<MeasuredModel>> read_measured_model_csv_text(
    const std::string& text, const std::string& origin,
    const std::vector<std::string>& gemm_schedules);

}  // namespace tilesim::workloads
