#include "sim/report/csv_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tilesim::report {
namespace {

// Quotes a field only when it needs it (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted(1, '"');
  for (char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

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
std::vector<std::string> parameter_columns(const StudyReport& report) {
  std::vector<std::string> columns;
  for (const workloads::WorkloadRun& run : report.runs) {
    for (const workloads::WorkloadParameter& parameter : run.parameters) {
      if (std::find(columns.begin(), columns.end(), parameter.key) == columns.end()) {
        columns.push_back(parameter.key);
      }
    }
  }
  return columns;
}

}  // namespace

std::string csv_report(const StudyReport& report) {
  const std::vector<std::string> columns = parameter_columns(report);
  std::string out = "name,kind,schedule,kernel";
  for (const std::string& column : columns) {
    out.push_back(',');
    out += column;
  }
  out += ",time_us,tflops,sm_utilization,l2_read_bytes,hbm_read_bytes,hbm_write_bytes,kernels\n";
  for (const workloads::WorkloadRun& run : report.runs) {
    std::map<std::string, std::string> values;
    for (const workloads::WorkloadParameter& parameter : run.parameters) {
      values[parameter.key] = value_text(parameter.value);
    }
    out += fmt::format("{},{},{},{}", csv_field(run.name), run.kind, run.schedule,
                       csv_field(run.kernel));
    for (const std::string& column : columns) {
      out.push_back(',');
      out += csv_field(values[column]);
    }
    const gpu::MemoryTraffic traffic = run.result.traffic();
    out += fmt::format(",{},{},{},{},{},{},{}\n", run.result.time_us(), run.tflops_per_s(),
                       run.result.sm_utilization(), traffic.l2_read_bytes, traffic.hbm_read_bytes,
                       traffic.write_bytes, run.result.kernels.size());
  }
  return out;
}

}  // namespace tilesim::report
