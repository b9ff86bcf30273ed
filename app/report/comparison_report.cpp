#include "app/report/comparison_report.hpp"

#include <fmt/format.h>

#include "app/report/accuracy_scatter.hpp"
#include "hwmodels/data_type.hpp"

namespace tilesim::report {
namespace {

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

std::string percent(double share) {
  return fmt::format("{:.0f}%", 100 * share);
}

std::string metrics_row(const std::string& label, const AccuracyMetrics& m) {
  return fmt::format(
      "{:<18} {:>5} {:>7.1f} {:>9.1f} {:>8.1f} {:>8.1f} {:>7} {:>7} {:>8.3f} {:>8.3f}\n", label,
      m.cases, m.mape_percent, m.median_ape_percent, m.max_ape_percent, m.bias_percent,
      percent(m.within_10_share), percent(m.within_20_share), m.pearson_log_r, m.spearman_rho);
}

nlohmann::json metrics_json(const AccuracyMetrics& m) {
  return {{"cases", m.cases},
          {"mape_percent", m.mape_percent},
          {"median_ape_percent", m.median_ape_percent},
          {"max_ape_percent", m.max_ape_percent},
          {"bias_percent", m.bias_percent},
          {"within_10_share", m.within_10_share},
          {"within_20_share", m.within_20_share},
          {"pearson_log_r", m.pearson_log_r},
          {"spearman_rho", m.spearman_rho}};
}

}  // namespace

std::string problem_key(const workloads::GemmWorkload& workload) {
  const workloads::GemmProblem& p = workload.problem;
  return fmt::format("{} {}x{}x{} {}->{}", workload.kernel, p.m, p.n, p.k,
                     hw::to_string(p.input_type), hw::to_string(p.output_type));
}

ComparisonSummary summarize_comparison(const std::vector<workloads::ComparedGemm>& rows) {
  ComparisonSummary summary;
  summary.all = metrics_of(rows, [](const std::string&) { return true; });
  summary.own_kernels = metrics_of(rows, [](const std::string& k) { return k != kLibrary; });
  summary.library = metrics_of(rows, [](const std::string& k) { return k == kLibrary; });
  for (const workloads::ComparedGemm& row : rows) {
    const std::string& kernel = row.measured.workload.kernel;
    if (kernel == kLibrary || summary.by_own_kernel.contains(kernel)) continue;
    summary.by_own_kernel[kernel] =
        metrics_of(rows, [&](const std::string& k) { return k == kernel; });
  }
  std::vector<ScheduleCase> cases;
  for (const workloads::ComparedGemm& row : rows) {
    const workloads::MeasuredGemm& m = row.measured;
    const double noise = m.time_us_p90 ? std::max(0.0, *m.time_us_p90 / m.time_us - 1) : 0.0;
    cases.push_back({problem_key(m.workload), m.workload.name, m.time_us, noise, row.predicted_us});
  }
  summary.schedule_choice = schedule_choice_accuracy(cases);
  return summary;
}

std::string comparison_table(const std::vector<workloads::ComparedGemm>& rows,
                             const ComparisonSummary& summary) {
  std::string text = fmt::format("{:<36} {:<18} {:<44} {:>11} {:>12} {:>8}\n", "workload", "kernel",
                                 "simulated schedule", "measured_us", "predicted_us", "error");
  for (const workloads::ComparedGemm& row : rows) {
    text += fmt::format("{:<36} {:<18} {:<44} {:>11.2f} {:>12.2f} {:>+7.1f}%\n",
                        row.measured.workload.name, row.measured.workload.kernel,
                        row.simulated_schedule, row.measured.time_us, row.predicted_us,
                        error_percent(row));
  }
  text +=
      fmt::format("\n{:<18} {:>5} {:>7} {:>9} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8}\n", "rows",
                  "cases", "MAPE%", "median%", "max%", "bias%", "<=10%", "<=20%", "r(log)", "rho");
  text += metrics_row("all", summary.all);
  for (const auto& [kernel, metrics] : summary.by_own_kernel) text += metrics_row(kernel, metrics);
  if (summary.by_own_kernel.size() > 1) text += metrics_row("own kernels", summary.own_kernels);
  if (summary.library.cases > 0) text += metrics_row(kLibrary, summary.library);
  const ScheduleChoiceAccuracy& choice = summary.schedule_choice;
  text += fmt::format(
      "\nschedule choice: predicted fastest = measured fastest in {} of {} "
      "problems ({}), ties within noise counted as right\n",
      choice.correct(), choice.groups.size(), percent(choice.top1_share()));
  for (const ScheduleGroupOutcome& group : choice.groups) {
    if (group.correct && !group.tie) continue;
    text += fmt::format("  {:<40} predicted {}, measured {} ({}: +{:.1f}%)\n", group.problem,
                        group.predicted_fastest, group.measured_fastest, group.tie ? "tie" : "miss",
                        group.regret_percent);
  }
  return text;
}

nlohmann::json comparison_json(const std::vector<workloads::ComparedGemm>& rows,
                               const ComparisonSummary& summary, const std::string& measured_path,
                               const std::string& hardware) {
  nlohmann::json row_list = nlohmann::json::array();
  for (const workloads::ComparedGemm& row : rows) {
    row_list.push_back({{"name", row.measured.workload.name},
                        {"kernel", row.measured.workload.kernel},
                        {"problem", problem_key(row.measured.workload)},
                        {"measured_schedule", row.measured.workload.schedule},
                        {"simulated_schedule", row.simulated_schedule},
                        {"measured_us", row.measured.time_us},
                        {"predicted_us", row.predicted_us},
                        {"error_percent", error_percent(row)}});
  }
  nlohmann::json groups = nlohmann::json::array();
  for (const ScheduleGroupOutcome& g : summary.schedule_choice.groups) {
    groups.push_back({{"problem", g.problem},
                      {"cases", g.cases},
                      {"predicted_fastest", g.predicted_fastest},
                      {"measured_fastest", g.measured_fastest},
                      {"regret_percent", g.regret_percent},
                      {"correct", g.correct},
                      {"tie", g.tie}});
  }
  nlohmann::json metrics = {{"all", metrics_json(summary.all)},
                            {"own_kernels", metrics_json(summary.own_kernels)},
                            {kLibrary, metrics_json(summary.library)}};
  for (const auto& [kernel, kernel_metrics] : summary.by_own_kernel) {
    metrics[kernel] = metrics_json(kernel_metrics);
  }
  return {{"measured", measured_path},
          {"hardware", hardware},
          {"metrics", std::move(metrics)},
          {"schedule_choice",
           {{"groups", summary.schedule_choice.groups.size()},
            {"correct", summary.schedule_choice.correct()},
            {"top1_share", summary.schedule_choice.top1_share()},
            {"outcomes", groups}}},
          {"rows", row_list}};
}

std::string comparison_scatter_svg(const std::vector<workloads::ComparedGemm>& rows,
                                   const std::string& title) {
  std::vector<ScatterPoint> points;
  for (const workloads::ComparedGemm& row : rows) {
    points.push_back({row.measured.time_us, row.predicted_us, series_of(row)});
  }
  return render_accuracy_scatter(points, title);
}

}  // namespace tilesim::report
