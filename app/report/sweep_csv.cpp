#include "app/report/sweep_csv.hpp"

#include "app/report/csv_report.hpp"

namespace tilesim::report {

CsvTable sweep_table(const workloads::SweepSpec& spec, const workloads::SweepResult& result) {
  CsvTable table = csv_table(result.runs);
  std::vector<std::string> keys;
  for (const workloads::SweepAxis& axis : spec.axes) keys.push_back(axis.key);
  table.header.insert(table.header.begin(), keys.begin(), keys.end());
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const std::vector<std::size_t> indices = spec.value_indices(result.run_points.at(i));
    std::vector<std::string> values;
    for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
      values.push_back(spec.axes[axis].values[indices[axis]].text);
    }
    table.rows[i].insert(table.rows[i].begin(), values.begin(), values.end());
  }
  return table;
}

std::string sweep_csv(const workloads::SweepSpec& spec, const workloads::SweepResult& result) {
  return sweep_table(spec, result).text();
}

}  // namespace tilesim::report
