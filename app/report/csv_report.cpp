#include "app/report/csv_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

namespace tilesim::report {
namespace {

std::string value_text(const std::variant<std::int64_t, double, std::string>& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>) {
          return v;
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

}  // namespace

bool add_parameter_columns(const workloads::RunSummary& run, std::vector<std::string>& columns) {
  bool added = false;
  for (const workloads::WorkloadParameter& parameter : run.parameters) {
    if (std::find(columns.begin(), columns.end(), parameter.key) == columns.end()) {
      columns.push_back(parameter.key);
      added = true;
    }
  }
  return added;
}

std::vector<std::string> csv_header(const std::vector<std::string>& parameter_columns) {
  std::vector<std::string> header = {"name", "kind", "schedule", "kernel"};
  header.insert(header.end(), parameter_columns.begin(), parameter_columns.end());
  header.insert(header.end(), kMetricColumns.begin(), kMetricColumns.end());
  return header;
}

std::vector<std::string> csv_row(const workloads::RunSummary& run,
                                 const std::vector<std::string>& parameter_columns) {
  std::map<std::string, std::string> values;
  for (const workloads::WorkloadParameter& parameter : run.parameters) {
    values[parameter.key] = value_text(parameter.value);
  }
  std::vector<std::string> row = {run.name, run.kind, run.schedule, run.kernel};
  for (const std::string& column : parameter_columns) row.push_back(values[column]);
  for (const double metric :
       {run.time_us, run.tflops, run.sm_utilization, run.l2_read_bytes, run.hbm_read_bytes,
        run.hbm_write_bytes, run.launch_gap_us, run.sm_idle_us}) {
    row.push_back(fmt::format("{}", metric));
  }
  row.push_back(fmt::format("{}", run.kernels));
  return row;
}

std::optional<workloads::RunSummary> read_csv_row(const std::vector<std::string>& header,
                                                  const std::vector<std::string>& row) {
  constexpr std::size_t kDescribing = 4;  // name, kind, schedule, kernel
  if (header.size() != row.size() || header.size() < kDescribing + kMetricColumns.size()) {
    return std::nullopt;
  }
  const std::size_t first_metric = header.size() - kMetricColumns.size();
  for (std::size_t i = 0; i < kMetricColumns.size(); ++i) {
    if (header[first_metric + i] != kMetricColumns[i]) return std::nullopt;
  }
  workloads::RunSummary run;
  run.name = row[0];
  run.kind = row[1];
  run.schedule = row[2];
  run.kernel = row[3];
  for (std::size_t i = kDescribing; i < first_metric; ++i) {
    // An empty field is a parameter this run does not have.
    if (!row[i].empty()) run.parameters.push_back({header[i], row[i]});
  }
  std::vector<double> metrics;
  for (std::size_t i = first_metric; i < row.size(); ++i) {
    double value = 0;
    const char* end = row[i].data() + row[i].size();
    const auto [last, error] = std::from_chars(row[i].data(), end, value);
    if (error != std::errc() || last != end) return std::nullopt;
    metrics.push_back(value);
  }
  run.time_us = metrics[0];
  run.tflops = metrics[1];
  run.sm_utilization = metrics[2];
  run.l2_read_bytes = metrics[3];
  run.hbm_read_bytes = metrics[4];
  run.hbm_write_bytes = metrics[5];
  run.launch_gap_us = metrics[6];
  run.sm_idle_us = metrics[7];
  run.kernels = static_cast<std::int64_t>(metrics[8]);
  return run;
}

CsvTable csv_table(std::span<const workloads::RunSummary> runs) {
  std::vector<std::string> columns;
  for (const workloads::RunSummary& run : runs) add_parameter_columns(run, columns);
  CsvTable table;
  table.header = csv_header(columns);
  for (const workloads::RunSummary& run : runs) table.rows.push_back(csv_row(run, columns));
  return table;
}

std::string csv_report(const StudyReport& report) {
  std::vector<workloads::RunSummary> runs;
  for (const workloads::WorkloadRun& run : report.runs) runs.push_back(workloads::summarize(run));
  return csv_table(runs).text();
}

}  // namespace tilesim::report
