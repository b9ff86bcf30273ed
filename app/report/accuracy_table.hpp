#pragma once
// Accuracy metrics and schedule choices as text lines and JSON, shared by the
// GEMM and attention parts of `tilesim compare`'s report.

#include <nlohmann/json.hpp>
#include <string>

#include "app/report/accuracy_metrics.hpp"
#include "app/report/schedule_choice_accuracy.hpp"

namespace tilesim::report {

// "rows  cases  MAPE%  median% ..." with the first column `label_width` wide.
std::string metrics_header(const std::string& first_column, int label_width);
std::string metrics_line(const std::string& label, const AccuracyMetrics& metrics, int label_width);

nlohmann::json metrics_json(const AccuracyMetrics& metrics);
nlohmann::json schedule_choice_json(const ScheduleChoiceAccuracy& choice);

}  // namespace tilesim::report
