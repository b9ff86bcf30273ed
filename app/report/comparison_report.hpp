#pragma once
// `tilesim compare`'s outputs: predicted against measured per row, the accuracy
// metrics (GEMM: all rows, each of our kernel profiles, our kernels together,
// library rows; attention: per implementation, attention_accuracy.hpp), and the
// schedule choice per problem; as a text table, JSON and a scatter plot.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/report/accuracy_metrics.hpp"
#include "app/report/attention_accuracy.hpp"
#include "app/report/schedule_choice_accuracy.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::report {

// The re-simulated rows of one measurement file, by kind, each in file order,
// and the rows skipped as over the cost budget.
struct ComparedRows {
  std::vector<workloads::ComparedGemm> gemms;
  std::vector<workloads::ComparedAttention> attention;
  std::vector<workloads::SkippedRow> skipped;
};

struct ComparisonSummary {
  AccuracyMetrics all;          // GEMM rows
  AccuracyMetrics own_kernels;  // GEMM rows not `kernel: library`: our reference kernels
  std::map<std::string, AccuracyMetrics> by_own_kernel;  // by profile: tilesim_ref, ...
  AccuracyMetrics library;                               // GEMM rows, kernel: library
  ScheduleChoiceAccuracy schedule_choice;
  AttentionAccuracy attention;
};

ComparisonSummary summarize_comparison(const ComparedRows& rows);

// The problem a GEMM row belongs to for the schedule choice: kernel, shape and types.
std::string problem_key(const workloads::GemmWorkload& workload);

// The GEMM part when there are GEMM rows, then the attention part when there are
// attention rows, then the skipped rows.
std::string comparison_table(const ComparedRows& rows, const ComparisonSummary& summary);

// `rows` holds every row with its "kind" (gemm or attention); GEMM metrics and
// schedule choice under `metrics` and `schedule_choice`, attention's under
// `attention` (each present when the file has rows of that kind); `skipped`
// when rows were skipped (skipped_rows_json).
nlohmann::json comparison_json(const ComparedRows& rows, const ComparisonSummary& summary,
                               const std::string& measured_path, const std::string& hardware);

// The rows skipped as over the cost budget, as text lines after a table and
// as JSON: [{"name", "line", "reason"}, ...].
std::string skipped_rows_text(const std::vector<workloads::SkippedRow>& skipped);
nlohmann::json skipped_rows_json(const std::vector<workloads::SkippedRow>& skipped);

// One series per measured GEMM schedule (library rows as their own series), and
// one per attention implementation, drawn as squares.
std::string comparison_scatter_svg(const ComparedRows& rows, const std::string& title);

}  // namespace tilesim::report
