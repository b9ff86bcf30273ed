#pragma once
// The attention part of `tilesim compare`'s outputs: predicted against measured
// per attention row, the metrics per implementation, the fused/unfused ratios
// and the decode variant choice, as text and as JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/report/attention_accuracy.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::report {

std::string attention_comparison_table(const std::vector<workloads::ComparedAttention>& rows,
                                       const AttentionAccuracy& accuracy);

// One JSON object per row, with "kind": "attention".
nlohmann::json attention_rows_json(const std::vector<workloads::ComparedAttention>& rows);
nlohmann::json attention_accuracy_json(const AttentionAccuracy& accuracy);

}  // namespace tilesim::report
