#include "app/report/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "app/report/html_page.hpp"
#include "app/report/json_report.hpp"
#include "app/report/sweep_csv.hpp"
#include "app/report/sweep_plots.hpp"
#include "app/report/timeline_svg.hpp"

namespace tilesim::report {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::string cell_text(const OrderedJson& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) return fmt::format("{:.6g}", value.get<double>());
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  return value.is_null() ? "" : value.dump();
}

// Scalar fields, with one level of nested objects as dotted columns (`bytes.hbm_read`).
void flatten(const OrderedJson& object, std::vector<std::pair<std::string, std::string>>& cells) {
  for (const auto& [key, value] : object.items()) {
    if (value.is_object()) {
      for (const auto& [inner, inner_value] : value.items()) {
        if (!inner_value.is_structured())
          cells.emplace_back(key + "." + inner, cell_text(inner_value));
      }
    } else if (!value.is_array()) {
      cells.emplace_back(key, cell_text(value));
    }
  }
}

// A table of JSON objects: the `front` columns that exist first, then the rest
// in order of first appearance.
HtmlTable objects_table(const OrderedJson& objects, const std::vector<std::string>& front = {}) {
  HtmlTable table;
  std::vector<std::vector<std::pair<std::string, std::string>>> flat_rows;
  for (const OrderedJson& object : objects) {
    auto& cells = flat_rows.emplace_back();
    flatten(object, cells);
    for (const auto& cell : cells) {
      if (std::find(table.columns.begin(), table.columns.end(), cell.first) ==
          table.columns.end()) {
        table.columns.push_back(cell.first);
      }
    }
  }
  std::stable_partition(table.columns.begin(), table.columns.end(), [&front](const auto& column) {
    return std::find(front.begin(), front.end(), column) != front.end();
  });
  for (const auto& cells : flat_rows) {
    auto& row = table.rows.emplace_back(table.columns.size());
    for (const auto& [column, text] : cells) {
      const auto at = std::find(table.columns.begin(), table.columns.end(), column);
      row[static_cast<std::size_t>(at - table.columns.begin())] = text;
    }
  }
  return table;
}

HtmlTable metrics_table(const OrderedJson& metrics) {
  HtmlTable table{{"kernel", "cases", "MAPE %", "median |err| %", "max |err| %", "bias %",
                   "share within 10 %", "share within 20 %", "Pearson r (log)", "Spearman rho"},
                  {}};
  for (const auto& [kernel, m] : metrics.items()) {
    if (m.value("cases", 0) == 0) continue;
    auto number = [&m](const char* key) { return cell_text(OrderedJson(m.value(key, 0.0))); };
    table.rows.push_back({kernel, std::to_string(m.value("cases", 0)), number("mape_percent"),
                          number("median_ape_percent"), number("max_ape_percent"),
                          number("bias_percent"), number("within_10_share"),
                          number("within_20_share"), number("pearson_log_r"),
                          number("spearman_rho")});
  }
  return table;
}

}  // namespace

std::string study_html(const StudyReport& report) {
  HtmlPage page("tilesim: " + report.study_path);
  page.paragraph(fmt::format("hardware: {} ({})", report.hardware_reference,
                             report.hardware != nullptr ? report.hardware->name : ""));
  const OrderedJson json = json_report(report);
  page.heading("Workloads");
  page.table(objects_table(json["results"], {"name", "schedule", "kernel", "time_us", "tflops",
                                             "sm_utilization", "launch_gap_us", "sm_idle_us"}));
  page.heading("Every SM's CTAs over time");
  page.svg(timeline_svg(report));
  for (const OrderedJson& result : json["results"]) {
    page.heading(fmt::format("Kernels of {}", result["name"].get<std::string>()));
    page.table(objects_table(result["kernels"], {"name", "stream", "start_us", "time_us"}));
  }
  return page.render();
}

std::string comparison_html(const ComparedRows& rows, const ComparisonSummary& summary,
                            const std::string& measured_path, const std::string& hardware) {
  // Ordered, so that the row tables keep the report's column order.
  const OrderedJson json =
      OrderedJson::parse(comparison_json(rows, summary, measured_path, hardware).dump());
  HtmlPage page("tilesim compare: " + measured_path);
  page.paragraph(fmt::format("hardware: {}; {} GEMM and {} attention rows re-simulated", hardware,
                             rows.gemms.size(), rows.attention.size()));
  if (json.contains("metrics")) {
    page.heading("GEMM accuracy per kernel class");
    page.table(metrics_table(json["metrics"]));
  }
  if (json.contains("attention")) {
    page.heading("Attention accuracy per implementation");
    OrderedJson metrics = json["attention"]["by_implementation"];
    metrics["all"] = json["attention"]["all"];
    page.table(metrics_table(metrics));
  }
  page.heading("Predicted vs measured");
  page.svg(comparison_scatter_svg(rows, "predicted vs measured, " + measured_path));
  page.heading("Rows, worst first (click a header to sort)");
  std::vector<OrderedJson> worst(json["rows"].begin(), json["rows"].end());
  std::stable_sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) {
    return std::abs(a["error_percent"].template get<double>()) >
           std::abs(b["error_percent"].template get<double>());
  });
  page.table(objects_table(OrderedJson(worst), {"kind", "name", "kernel", "measured_us",
                                                "predicted_us", "error_percent"}));
  if (json.contains("schedule_choice")) {
    page.heading("GEMM schedule choice: is the predicted fastest the measured fastest?");
    page.table(objects_table(json["schedule_choice"]["outcomes"]));
  }
  if (json.contains("attention")) {
    page.heading("Fused (flash) over unfused attention, predicted and measured");
    page.table(objects_table(json["attention"]["fused_unfused"]));
    page.heading("Decode: is the predicted fastest variant the measured fastest?");
    page.table(objects_table(json["attention"]["decode_choice"]["outcomes"]));
  }
  return page.render();
}

std::string sweep_html(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                       const std::string& sweep_path) {
  HtmlPage page("tilesim sweep: " + sweep_path);
  page.svg(sweep_plot_svg(spec, result));
  page.heading("Points (click a header to sort)");
  CsvTable rows = sweep_table(spec, result);
  page.table(HtmlTable{std::move(rows.header), std::move(rows.rows)});
  return page.render();
}

}  // namespace tilesim::report
