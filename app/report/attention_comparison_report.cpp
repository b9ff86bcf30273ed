#include "app/report/attention_comparison_report.hpp"

#include <fmt/format.h>

#include "app/report/accuracy_table.hpp"

namespace tilesim::report {
namespace {

constexpr int kAttentionLabelWidth = 28;  // "class unfused_fused_softmax"

double error_percent(const workloads::ComparedAttention& row) {
  return 100.0 * (row.predicted_us - row.measured.time_us) / row.measured.time_us;
}

}  // namespace

std::string attention_comparison_table(const std::vector<workloads::ComparedAttention>& rows,
                                       const AttentionAccuracy& accuracy) {
  std::string text = fmt::format("{:<56} {:<14} {:<26} {:>11} {:>12} {:>8}\n", "attention workload",
                                 "kernel", "simulated", "measured_us", "predicted_us", "error");
  for (const workloads::ComparedAttention& row : rows) {
    text += fmt::format("{:<56} {:<14} {:<26} {:>11.2f} {:>12.2f} {:>+7.1f}%{}\n",
                        row.measured.workload.name, row.measured.implementation, row.simulated,
                        row.measured.time_us, row.predicted_us, error_percent(row),
                        row.note.empty() ? std::string() : fmt::format("  ({})", row.note));
  }
  text += '\n';
  text += metrics_header("attention rows", kAttentionLabelWidth);
  text += metrics_line("all", accuracy.all, kAttentionLabelWidth);
  for (const LabeledMetrics& m : accuracy.implementations)
    text += metrics_line(m.label, m.metrics, kAttentionLabelWidth);
  for (const LabeledMetrics& m : accuracy.classes)
    text += metrics_line(m.label, m.metrics, kAttentionLabelWidth);
  if (!accuracy.fused_unfused.empty()) {
    text += fmt::format(
        "\nfused vs unfused: unfused time / flash time, one implementation family\n"
        "  {:<36} {:<15} {:<11} {:>9} {:>10} {:>7}\n",
        "shape", "flash", "unfused", "measured", "predicted", "error");
    for (const FusedUnfusedRatio& r : accuracy.fused_unfused) {
      text += fmt::format("  {:<36} {:<15} {:<11} {:>9.2f} {:>10.2f} {:>+6.1f}%\n", r.shape,
                          r.fused, r.unfused, r.measured, r.predicted,
                          100 * (r.predicted - r.measured) / r.measured);
    }
  }
  const ScheduleChoiceAccuracy& choice = accuracy.decode_choice;
  if (!choice.groups.empty()) {
    text += fmt::format(
        "\ndecode variant choice (our kernels): predicted fastest = measured fastest in {} of {} "
        "problems ({:.0f}%), ties within noise counted as right\n",
        choice.correct(), choice.groups.size(), 100 * choice.top1_share());
    for (const ScheduleGroupOutcome& group : choice.groups) {
      if (group.correct && !group.tie) continue;
      text += fmt::format("  {:<44} predicted {}, measured {} ({}: +{:.1f}%)\n", group.problem,
                          group.predicted_fastest, group.measured_fastest,
                          group.tie ? "tie" : "miss", group.regret_percent);
    }
  }
  return text;
}

nlohmann::json attention_rows_json(const std::vector<workloads::ComparedAttention>& rows) {
  nlohmann::json list = nlohmann::json::array();
  for (const workloads::ComparedAttention& row : rows) {
    const workloads::AttentionWorkload& w = row.measured.workload;
    nlohmann::json item = {{"kind", "attention"},
                           {"name", w.name},
                           {"kernel", row.measured.implementation},
                           {"class", row.kernel_class},
                           {"variant", w.variant},
                           {"shape", attention_shape_key(w.shape)},
                           {"phase", is_decode(w.shape) ? "decode" : "prefill"},
                           {"simulated", row.simulated},
                           {"measured_us", row.measured.time_us},
                           {"predicted_us", row.predicted_us},
                           {"error_percent", error_percent(row)}};
    if (!row.note.empty()) item["note"] = row.note;
    list.push_back(std::move(item));
  }
  return list;
}

nlohmann::json attention_accuracy_json(const AttentionAccuracy& accuracy) {
  nlohmann::json by_implementation = nlohmann::json::object();
  for (const LabeledMetrics& m : accuracy.implementations) {
    by_implementation[m.label] = metrics_json(m.metrics);
  }
  nlohmann::json by_class = nlohmann::json::object();
  for (const LabeledMetrics& m : accuracy.classes) {
    by_class[m.label.substr(m.label.find(' ') + 1)] = metrics_json(m.metrics);
  }
  nlohmann::json ratios = nlohmann::json::array();
  for (const FusedUnfusedRatio& r : accuracy.fused_unfused) {
    ratios.push_back({{"shape", r.shape},
                      {"flash", r.fused},
                      {"unfused", r.unfused},
                      {"measured_ratio", r.measured},
                      {"predicted_ratio", r.predicted}});
  }
  return {{"all", metrics_json(accuracy.all)},
          {"by_implementation", by_implementation},
          {"by_class", by_class},
          {"fused_unfused", ratios},
          {"decode_choice", schedule_choice_json(accuracy.decode_choice)}};
}

}  // namespace tilesim::report
