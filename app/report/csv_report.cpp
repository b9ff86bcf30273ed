#include "app/report/csv_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sim/gpu/gpu_idle_time.hpp"

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

// Parameter columns in order of first appearance over all rows.
std::vector<std::string> parameter_columns(std::span<const workloads::WorkloadRun> runs) {
  std::vector<std::string> columns;
  for (const workloads::WorkloadRun& run : runs) {
    for (const workloads::WorkloadParameter& parameter : run.parameters) {
      if (std::find(columns.begin(), columns.end(), parameter.key) == columns.end()) {
        columns.push_back(parameter.key);
      }
    }
  }
  return columns;
}

}  // namespace

CsvTable csv_table(std::span<const workloads::WorkloadRun> runs) {
  const std::vector<std::string> columns = parameter_columns(runs);
  CsvTable table;
  table.header = {"name", "kind", "schedule", "kernel"};
  table.header.insert(table.header.end(), columns.begin(), columns.end());
  for (const char* metric :
       {"time_us", "tflops", "sm_utilization", "l2_read_bytes", "hbm_read_bytes", "hbm_write_bytes",
        "launch_gap_us", "sm_idle_us", "kernels"}) {
    table.header.emplace_back(metric);
  }
  for (const workloads::WorkloadRun& run : runs) {
    std::map<std::string, std::string> values;
    for (const workloads::WorkloadParameter& parameter : run.parameters) {
      values[parameter.key] = value_text(parameter.value);
    }
    std::vector<std::string> row = {run.name, run.kind, run.schedule, run.kernel};
    for (const std::string& column : columns) row.push_back(values[column]);
    const gpu::MemoryTraffic traffic = run.result.traffic();
    for (const double metric :
         {run.result.time_us(), run.tflops_per_s(), run.result.sm_utilization(),
          traffic.l2_read_bytes, traffic.hbm_read_bytes, traffic.write_bytes,
          gpu::launch_gaps(run.result).us(), gpu::sm_idle_us(run.result)}) {
      row.push_back(fmt::format("{}", metric));
    }
    row.push_back(fmt::format("{}", run.result.kernels.size()));
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string csv_report(const StudyReport& report) {
  return csv_table(report.runs).text();
}

}  // namespace tilesim::report
