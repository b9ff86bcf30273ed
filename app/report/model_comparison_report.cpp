#include "app/report/model_comparison_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "app/report/accuracy_metrics.hpp"

namespace tilesim::report {
namespace {

using workloads::ComparedModel;

double error_percent(const ComparedModel& row) {
  return 100 * (row.predicted_us / row.measured.time_us - 1);
}

// (split, launch) -> its rows' metrics, in a fixed order.
std::map<std::pair<std::string, std::string>, AccuracyMetrics> metrics_by_group(
    const std::vector<ComparedModel>& rows) {
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::vector<double>>>
      times;
  for (const ComparedModel& row : rows) {
    auto& [measured, predicted] = times[{row.measured.split, row.measured.workload.launch}];
    measured.push_back(row.measured.time_us);
    predicted.push_back(row.predicted_us);
  }
  std::map<std::pair<std::string, std::string>, AccuracyMetrics> metrics;
  for (const auto& [group, pair] : times)
    metrics[group] = accuracy_metrics(pair.first, pair.second);
  return metrics;
}

}  // namespace

std::string model_comparison_table(const std::vector<ComparedModel>& rows) {
  std::size_t width = 4;
  for (const ComparedModel& row : rows) width = std::max(width, row.measured.name.size());
  std::string out =
      fmt::format("{:<{}}  {:<11} {:<26} {:>12} {:>12} {:>8} {:>11}\n", "name", width, "split",
                  "simulated", "measured_us", "predicted_us", "error%", "dispatch_us");
  for (const ComparedModel& row : rows) {
    const std::string dispatch =
        row.framework_dispatch_us ? fmt::format("{:.1f}", *row.framework_dispatch_us) : "-";
    out += fmt::format("{:<{}}  {:<11} {:<26} {:>12.1f} {:>12.1f} {:>+8.1f} {:>11}\n",
                       row.measured.name, width, row.measured.split, row.simulated,
                       row.measured.time_us, row.predicted_us, error_percent(row), dispatch);
  }
  out += "\nsplit        launch       rows  MAPE%  median%   max%  bias%  within10%  within20%\n";
  for (const auto& [group, m] : metrics_by_group(rows)) {
    out += fmt::format(
        "{:<12} {:<11} {:>5} {:>6.1f} {:>8.1f} {:>6.1f} {:>+6.1f} {:>10.0f} {:>10.0f}\n",
        group.first, group.second, m.cases, m.mape_percent, m.median_ape_percent, m.max_ape_percent,
        m.bias_percent, 100 * m.within_10_share, 100 * m.within_20_share);
  }
  return out;
}

nlohmann::ordered_json model_comparison_json(const std::vector<ComparedModel>& rows,
                                             const std::string& measured_path,
                                             const std::string& hardware) {
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  for (const ComparedModel& row : rows) {
    nlohmann::ordered_json item = {
        {"name", row.measured.name},           {"kind", "model"},
        {"split", row.measured.split},         {"simulated", row.simulated},
        {"measured_us", row.measured.time_us}, {"predicted_us", row.predicted_us},
        {"error_percent", error_percent(row)}};
    if (row.framework_dispatch_us) item["framework_dispatch_us"] = *row.framework_dispatch_us;
    items.push_back(std::move(item));
  }
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  for (const auto& [group, m] : metrics_by_group(rows)) {
    groups.push_back({{"split", group.first},
                      {"launch", group.second},
                      {"rows", m.cases},
                      {"mape_percent", m.mape_percent},
                      {"median_ape_percent", m.median_ape_percent},
                      {"max_ape_percent", m.max_ape_percent},
                      {"bias_percent", m.bias_percent},
                      {"within_10_share", m.within_10_share},
                      {"within_20_share", m.within_20_share}});
  }
  return {
      {"measured", measured_path}, {"hardware", hardware}, {"rows", items}, {"accuracy", groups}};
}

}  // namespace tilesim::report
