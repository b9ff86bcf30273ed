#pragma once
// Microbenchmark results as the printed table, the raw CSV
// (bench/measurements/*_microbench.csv) and JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

std::string microbench_table_header();
std::string microbench_table_row(const MicrobenchResult& result);

// Columns: name,value,unit,lowest,highest,runs,method (method quoted).
std::string microbench_csv(const std::vector<MicrobenchResult>& results);

nlohmann::json microbench_json(const std::vector<MicrobenchResult>& results);

// The inverse of microbench_json (a raw results sidecar's `results`); throws
// nlohmann::json::exception on a missing or mistyped field.
std::vector<MicrobenchResult> microbench_results_from_json(const nlohmann::json& list);

}  // namespace tilesim::microbench
