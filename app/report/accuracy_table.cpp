#include "app/report/accuracy_table.hpp"

#include <fmt/format.h>

namespace tilesim::report {
namespace {

std::string percent(double share) {
  return fmt::format("{:.0f}%", 100 * share);
}

}  // namespace

std::string metrics_header(const std::string& first_column, int label_width) {
  return fmt::format("{:<{}} {:>5} {:>7} {:>9} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8}\n", first_column,
                     label_width, "cases", "MAPE%", "median%", "max%", "bias%", "<=10%", "<=20%",
                     "r(log)", "rho");
}

std::string metrics_line(const std::string& label, const AccuracyMetrics& m, int label_width) {
  return fmt::format(
      "{:<{}} {:>5} {:>7.1f} {:>9.1f} {:>8.1f} {:>8.1f} {:>7} {:>7} {:>8.3f} {:>8.3f}\n", label,
      label_width, m.cases, m.mape_percent, m.median_ape_percent, m.max_ape_percent, m.bias_percent,
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

nlohmann::json schedule_choice_json(const ScheduleChoiceAccuracy& choice) {
  nlohmann::json groups = nlohmann::json::array();
  for (const ScheduleGroupOutcome& g : choice.groups) {
    groups.push_back({{"problem", g.problem},
                      {"cases", g.cases},
                      {"predicted_fastest", g.predicted_fastest},
                      {"measured_fastest", g.measured_fastest},
                      {"regret_percent", g.regret_percent},
                      {"correct", g.correct},
                      {"tie", g.tie}});
  }
  return {{"groups", choice.groups.size()},
          {"correct", choice.correct()},
          {"top1_share", choice.top1_share()},
          {"outcomes", groups}};
}

}  // namespace tilesim::report
