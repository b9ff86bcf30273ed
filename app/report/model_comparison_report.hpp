#pragma once
// `tilesim compare` on a model measurement CSV: predicted against measured per
// row, and the accuracy per split (calibration rows were fitted on, validation
// rows never) and launch mode, as text and JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::report {

std::string model_comparison_table(const std::vector<workloads::ComparedModel>& rows);
nlohmann::ordered_json model_comparison_json(const std::vector<workloads::ComparedModel>& rows,
                                             const std::string& measured_path,
                                             const std::string& hardware);

}  // namespace tilesim::report
