#include "app/report/comparison_report.hpp"

#include <fmt/format.h>

#include "app/report/accuracy_scatter.hpp"
#include "app/report/accuracy_table.hpp"
#include "app/report/attention_comparison_report.hpp"
#include "hwmodels/data_type.hpp"

namespace tilesim::report {
namespace {

constexpr int kGemmLabelWidth = 18;  // fits `tilesim_ref_wgmma`

double error_percent(const workloads::ComparedGemm& row) {
  return 100.0 * (row.predicted_us - row.measured.time_us) / row.measured.time_us;
}

constexpr const char* kLibrary = "library";

template <typename Keep>
AccuracyMetrics metrics_of(const std::vector<workloads::ComparedGemm>& rows, Keep keep) {
  std::vector<double> measured;
  std::vector<double> predicted;
  for (const workloads::ComparedGemm& row : rows) {
    if (!keep(row.measured.workload.kernel)) continue;
    measured.push_back(row.measured.time_us);
    predicted.push_back(row.predicted_us);
  }
  return accuracy_metrics(measured, predicted);
}

std::string series_of(const workloads::ComparedGemm& row) {
  const workloads::GemmWorkload& w = row.measured.workload;
  return w.kernel == kLibrary ? "library (cuBLAS)" : w.schedule;
}

std::string gemm_table(const std::vector<workloads::ComparedGemm>& rows,
                       const ComparisonSummary& summary) {
  std::string text = fmt::format("{:<36} {:<18} {:<44} {:>11} {:>12} {:>8}\n", "workload", "kernel",
                                 "simulated schedule", "measured_us", "predicted_us", "error");
  for (const workloads::ComparedGemm& row : rows) {
    text += fmt::format("{:<36} {:<18} {:<44} {:>11.2f} {:>12.2f} {:>+7.1f}%\n",
                        row.measured.workload.name, row.measured.workload.kernel,
                        row.simulated_schedule, row.measured.time_us, row.predicted_us,
                        error_percent(row));
  }
  text += '\n';
  text += metrics_header("rows", kGemmLabelWidth);
  text += metrics_line("all", summary.all, kGemmLabelWidth);
  for (const auto& [kernel, metrics] : summary.by_own_kernel) {
    text += metrics_line(kernel, metrics, kGemmLabelWidth);
  }
  if (summary.by_own_kernel.size() > 1) {
    text += metrics_line("own kernels", summary.own_kernels, kGemmLabelWidth);
  }
  if (summary.library.cases > 0) text += metrics_line(kLibrary, summary.library, kGemmLabelWidth);
  const ScheduleChoiceAccuracy& choice = summary.schedule_choice;
  text += fmt::format(
      "\nschedule choice: predicted fastest = measured fastest in {} of {} "
      "problems ({:.0f}%), ties within noise counted as right\n",
      choice.correct(), choice.groups.size(), 100 * choice.top1_share());
  for (const ScheduleGroupOutcome& group : choice.groups) {
    if (group.correct && !group.tie) continue;
    text += fmt::format("  {:<40} predicted {}, measured {} ({}: +{:.1f}%)\n", group.problem,
                        group.predicted_fastest, group.measured_fastest, group.tie ? "tie" : "miss",
                        group.regret_percent);
  }
  return text;
}

}  // namespace

std::string problem_key(const workloads::GemmWorkload& workload) {
  const workloads::GemmProblem& p = workload.problem;
  return fmt::format("{} {}x{}x{} {}->{}", workload.kernel, p.m, p.n, p.k,
                     hw::to_string(p.input_type), hw::to_string(p.output_type));
}

ComparisonSummary summarize_comparison(const ComparedRows& rows) {
  ComparisonSummary summary;
  summary.all = metrics_of(rows.gemms, [](const std::string&) { return true; });
  summary.own_kernels = metrics_of(rows.gemms, [](const std::string& k) { return k != kLibrary; });
  summary.library = metrics_of(rows.gemms, [](const std::string& k) { return k == kLibrary; });
  for (const workloads::ComparedGemm& row : rows.gemms) {
    const std::string& kernel = row.measured.workload.kernel;
    if (kernel == kLibrary || summary.by_own_kernel.contains(kernel)) continue;
    summary.by_own_kernel[kernel] =
        metrics_of(rows.gemms, [&](const std::string& k) { return k == kernel; });
  }
  std::vector<ScheduleCase> cases;
  for (const workloads::ComparedGemm& row : rows.gemms) {
    const workloads::MeasuredGemm& m = row.measured;
    const double noise = m.time_us_p90 ? std::max(0.0, *m.time_us_p90 / m.time_us - 1) : 0.0;
    cases.push_back({problem_key(m.workload), m.workload.name, m.time_us, noise, row.predicted_us});
  }
  summary.schedule_choice = schedule_choice_accuracy(cases);
  summary.attention = summarize_attention(rows.attention);
  return summary;
}

std::string comparison_table(const ComparedRows& rows, const ComparisonSummary& summary) {
  std::string text;
  if (!rows.gemms.empty()) text += gemm_table(rows.gemms, summary);
  if (!rows.attention.empty()) {
    if (!text.empty()) text += '\n';
    text += attention_comparison_table(rows.attention, summary.attention);
  }
  return text + skipped_rows_text(rows.skipped);
}

std::string skipped_rows_text(const std::vector<workloads::SkippedRow>& skipped) {
  if (skipped.empty()) return {};
  std::string text = fmt::format(
      "\nskipped {} row{} over the cost budget, not in the figures above (raise it with "
      "--max-events; docs/limits.md):\n",
      skipped.size(), skipped.size() == 1 ? "" : "s");
  for (const workloads::SkippedRow& row : skipped) {
    text += fmt::format("  line {}: {}\n", row.where.line, row.name);
  }
  return text;
}

nlohmann::json skipped_rows_json(const std::vector<workloads::SkippedRow>& skipped) {
  nlohmann::json rows = nlohmann::json::array();
  for (const workloads::SkippedRow& row : skipped) {
    rows.push_back({{"name", row.name}, {"line", row.where.line}, {"reason", row.reason}});
  }
  return rows;
}

nlohmann::json comparison_json(const ComparedRows& rows, const ComparisonSummary& summary,
                               const std::string& measured_path, const std::string& hardware) {
  nlohmann::json row_list = nlohmann::json::array();
  for (const workloads::ComparedGemm& row : rows.gemms) {
    row_list.push_back({{"kind", "gemm"},
                        {"name", row.measured.workload.name},
                        {"kernel", row.measured.workload.kernel},
                        {"problem", problem_key(row.measured.workload)},
                        {"measured_schedule", row.measured.workload.schedule},
                        {"simulated_schedule", row.simulated_schedule},
                        {"measured_us", row.measured.time_us},
                        {"predicted_us", row.predicted_us},
                        {"error_percent", error_percent(row)}});
  }
  for (nlohmann::json& row : attention_rows_json(rows.attention))
    row_list.push_back(std::move(row));
  nlohmann::json json = {{"measured", measured_path}, {"hardware", hardware}};
  if (!rows.gemms.empty()) {
    nlohmann::json metrics = {{"all", metrics_json(summary.all)},
                              {"own_kernels", metrics_json(summary.own_kernels)},
                              {kLibrary, metrics_json(summary.library)}};
    for (const auto& [kernel, kernel_metrics] : summary.by_own_kernel) {
      metrics[kernel] = metrics_json(kernel_metrics);
    }
    json["metrics"] = std::move(metrics);
    json["schedule_choice"] = schedule_choice_json(summary.schedule_choice);
  }
  if (!rows.attention.empty()) json["attention"] = attention_accuracy_json(summary.attention);
  json["rows"] = std::move(row_list);
  if (!rows.skipped.empty()) json["skipped"] = skipped_rows_json(rows.skipped);
  return json;
}

std::string comparison_scatter_svg(const ComparedRows& rows, const std::string& title) {
  std::vector<ScatterPoint> points;
  for (const workloads::ComparedGemm& row : rows.gemms) {
    points.push_back({row.measured.time_us, row.predicted_us, series_of(row)});
  }
  for (const workloads::ComparedAttention& row : rows.attention) {
    points.push_back({row.measured.time_us, row.predicted_us,
                      fmt::format("attention {}", row.measured.implementation),
                      ScatterMarker::square});
  }
  return render_accuracy_scatter(points, title);
}

}  // namespace tilesim::report
