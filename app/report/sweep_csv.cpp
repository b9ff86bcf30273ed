#include "app/report/sweep_csv.hpp"

#include <fmt/format.h>

#include "app/report/csv_report.hpp"
#include "app/report/csv_table.hpp"
#include "workloads/measurement/csv_fields.hpp"

namespace tilesim::report {
namespace {

std::vector<std::string> axis_keys(const workloads::SweepSpec& spec) {
  std::vector<std::string> keys;
  for (const workloads::SweepAxis& axis : spec.axes) keys.push_back(axis.key);
  return keys;
}

std::vector<std::string> axis_values(const workloads::SweepSpec& spec, std::size_t point) {
  const std::vector<std::size_t> indices = spec.value_indices(point);
  std::vector<std::string> values;
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    values.push_back(spec.axes[axis].values[indices[axis]].text);
  }
  return values;
}

}  // namespace

bool SweepCsvTable::add(const workloads::RunSummary& run, std::size_t point) {
  runs_.push_back(run);
  points_.push_back(point);
  return add_parameter_columns(run, parameter_columns_);
}

std::vector<std::string> SweepCsvTable::header() const {
  std::vector<std::string> header = axis_keys(*spec_);
  const std::vector<std::string> columns = csv_header(parameter_columns_);
  header.insert(header.end(), columns.begin(), columns.end());
  return header;
}

std::vector<std::string> SweepCsvTable::row(std::size_t row) const {
  std::vector<std::string> fields = axis_values(*spec_, points_[row]);
  const std::vector<std::string> columns = csv_row(runs_[row], parameter_columns_);
  fields.insert(fields.end(), columns.begin(), columns.end());
  return fields;
}

std::string SweepCsvTable::header_line() const {
  return csv_line(header());
}

std::string SweepCsvTable::row_line(std::size_t row) const {
  return csv_line(this->row(row));
}

CsvTable SweepCsvTable::table() const {
  CsvTable table;
  table.header = header();
  for (std::size_t i = 0; i < runs_.size(); ++i) table.rows.push_back(row(i));
  return table;
}

std::string SweepCsvTable::text() const {
  return table().text();
}

config::Loaded<std::vector<workloads::RunSummary>> SweepCsvTable::read(
    const workloads::SweepSpec& spec, const std::string& text, const std::string& origin,
    const std::vector<std::size_t>& points) {
  config::Loaded<std::vector<workloads::RunSummary>> loaded;
  const std::vector<std::string> lines = workloads::split_csv_lines(text);
  const std::vector<std::string> keys = axis_keys(spec);
  const std::vector<std::string> header =
      lines.empty() ? std::vector<std::string>{} : workloads::split_csv_fields(lines.front());
  if (header.size() < keys.size() || !std::equal(keys.begin(), keys.end(), header.begin())) {
    loaded.diagnostics.add({origin, 1, 1}, "header",
                           fmt::format("not the CSV of this sweep: expected the columns {} first",
                                       fmt::join(keys, ", ")));
    return loaded;
  }
  const std::vector<std::string> columns(header.begin() + static_cast<long>(keys.size()),
                                         header.end());
  if (lines.size() - 1 < points.size()) {
    loaded.diagnostics.add({origin, static_cast<int>(lines.size()), 1}, "row",
                           fmt::format("{} rows, but the sweep's progress file counts {}",
                                       lines.size() - 1, points.size()));
    return loaded;
  }
  std::vector<workloads::RunSummary> runs;
  for (std::size_t row = 0; row < points.size(); ++row) {
    const int line = static_cast<int>(row) + 2;
    const std::vector<std::string> fields = workloads::split_csv_fields(lines[row + 1]);
    const std::vector<std::string> expected = axis_values(spec, points[row]);
    const bool same_point = fields.size() >= keys.size() &&
                            std::equal(expected.begin(), expected.end(), fields.begin());
    const std::optional<workloads::RunSummary> run =
        same_point
            ? read_csv_row(columns, {fields.begin() + static_cast<long>(keys.size()), fields.end()})
            : std::nullopt;
    if (!run) {
      loaded.diagnostics.add(
          {origin, line, 1}, "row",
          fmt::format("not a row of this sweep's point {}", spec.point_description(points[row])));
      return loaded;
    }
    runs.push_back(*run);
  }
  loaded.value = std::move(runs);
  return loaded;
}

CsvTable sweep_table(const workloads::SweepSpec& spec, const workloads::SweepResult& result) {
  SweepCsvTable table(spec);
  for (std::size_t i = 0; i < result.runs.size(); ++i)
    table.add(result.runs[i], result.run_points[i]);
  return table.table();
}

std::string sweep_csv(const workloads::SweepSpec& spec, const workloads::SweepResult& result) {
  return sweep_table(spec, result).text();
}

}  // namespace tilesim::report
