#pragma once
// `tilesim compare`'s outputs: predicted against measured per row, the accuracy
// metrics (all rows, each of our kernel profiles, our kernels together, library
// rows), and the schedule choice per problem; as a text table, JSON and a
// scatter plot.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/report/accuracy_metrics.hpp"
#include "app/report/schedule_choice_accuracy.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::report {

struct ComparisonSummary {
  AccuracyMetrics all;
  AccuracyMetrics own_kernels;  // every row not `kernel: library`: our reference kernels
  std::map<std::string, AccuracyMetrics> by_own_kernel;  // by profile: tilesim_ref, ...
  AccuracyMetrics library;                               // kernel: library
  ScheduleChoiceAccuracy schedule_choice;
};

ComparisonSummary summarize_comparison(const std::vector<workloads::ComparedGemm>& rows);

// The problem a row belongs to for the schedule choice: kernel, shape and types.
std::string problem_key(const workloads::GemmWorkload& workload);

std::string comparison_table(const std::vector<workloads::ComparedGemm>& rows,
                             const ComparisonSummary& summary);

nlohmann::json comparison_json(const std::vector<workloads::ComparedGemm>& rows,
                               const ComparisonSummary& summary, const std::string& measured_path,
                               const std::string& hardware);

// One series per measured schedule, library rows as their own series.
std::string comparison_scatter_svg(const std::vector<workloads::ComparedGemm>& rows,
                                   const std::string& title);

}  // namespace tilesim::report
