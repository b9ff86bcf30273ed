#include "app/report/sweep_csv.hpp"

#include <fmt/format.h>

#include "app/report/csv_report.hpp"
#include "app/report/csv_table.hpp"
#include "workloads/measurement/csv_fields.hpp"

namespace tilesim::report {
namespace {

// The columns before the run's: `job` in a shard's table, then the varied keys.
std::vector<std::string> leading_keys(const workloads::SweepSpec& spec, JobColumn job_column) {
  std::vector<std::string> keys;
  if (job_column == JobColumn::yes) keys.emplace_back(kSweepJobColumn);
  for (const workloads::SweepAxis& axis : spec.axes) keys.push_back(axis.key);
  return keys;
}

std::vector<std::string> leading_values(const workloads::SweepSpec& spec, JobColumn job_column,
                                        const workloads::SweepJob& job) {
  std::vector<std::string> values;
  if (job_column == JobColumn::yes) values.push_back(fmt::format("{}", job.number));
  const std::vector<std::size_t> indices = spec.value_indices(job.point);
  for (std::size_t axis = 0; axis < spec.axes.size(); ++axis) {
    values.push_back(spec.axes[axis].values[indices[axis]].text);
  }
  return values;
}

}  // namespace

bool SweepCsvTable::add(const workloads::RunSummary& run, const workloads::SweepJob& job) {
  runs_.push_back(run);
  jobs_.push_back(&job);
  return add_parameter_columns(run, parameter_columns_);
}

std::vector<std::string> SweepCsvTable::header() const {
  std::vector<std::string> header = leading_keys(*spec_, job_column_);
  const std::vector<std::string> columns = csv_header(parameter_columns_);
  header.insert(header.end(), columns.begin(), columns.end());
  return header;
}

std::vector<std::string> SweepCsvTable::row(std::size_t row) const {
  std::vector<std::string> fields = leading_values(*spec_, job_column_, *jobs_[row]);
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
    const workloads::SweepSpec& spec, JobColumn job_column, const std::string& text,
    const std::string& origin, const std::vector<std::size_t>& jobs) {
  config::Loaded<std::vector<workloads::RunSummary>> loaded;
  const std::vector<std::string> lines = workloads::split_csv_lines(text);
  const std::vector<std::string> keys = leading_keys(spec, job_column);
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
  if (lines.size() - 1 < jobs.size()) {
    loaded.diagnostics.add(
        {origin, static_cast<int>(lines.size()), 1}, "row",
        fmt::format("{} rows, but {} are expected", lines.size() - 1, jobs.size()));
    return loaded;
  }
  std::vector<workloads::RunSummary> runs;
  for (std::size_t row = 0; row < jobs.size(); ++row) {
    const int line = static_cast<int>(row) + 2;
    const std::vector<std::string> fields = workloads::split_csv_fields(lines[row + 1]);
    const workloads::SweepJob& job = spec.jobs[jobs[row]];
    const std::vector<std::string> expected = leading_values(spec, job_column, job);
    const bool same_point = fields.size() >= keys.size() &&
                            std::equal(expected.begin(), expected.end(), fields.begin());
    const std::optional<workloads::RunSummary> run =
        same_point
            ? read_csv_row(columns, {fields.begin() + static_cast<long>(keys.size()), fields.end()})
            : std::nullopt;
    if (!run) {
      loaded.diagnostics.add({origin, line, 1}, "row",
                             job_column == JobColumn::yes
                                 ? fmt::format("not a row of this sweep's job {} (point {})",
                                               job.number, spec.point_description(job.point))
                                 : fmt::format("not a row of this sweep's point {}",
                                               spec.point_description(job.point)));
      return loaded;
    }
    runs.push_back(*run);
  }
  loaded.value = std::move(runs);
  return loaded;
}

CsvTable sweep_table(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                     JobColumn job_column) {
  SweepCsvTable table(spec, job_column);
  for (std::size_t i = 0; i < result.runs.size(); ++i) {
    table.add(result.runs[i], spec.jobs[result.run_jobs[i]]);
  }
  return table.table();
}

std::string sweep_csv(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                      JobColumn job_column) {
  return sweep_table(spec, result, job_column).text();
}

}  // namespace tilesim::report
