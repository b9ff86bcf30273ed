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

}  // namespace tilesim::microbench
