#pragma once
// `tilesim sweep --csv`: one row per run (a grid point with a schedule), in grid
// order: the varied keys' values as set, then the columns of
// `tilesim simulate --csv` (schedule, shape, tile, time, throughput, bytes).
//
// The table grows run by run, so a sweep can write its rows as its points
// finish, and reads its own text back, so a stopped sweep can resume.
//
// A shard's table (docs/sweeps.md) leads each row with a `job` column, the
// job's number in the whole sweep, so that shards can be merged.

#include <string>
#include <string_view>
#include <vector>

#include "app/report/csv_table.hpp"
#include "hwmodels/diagnostics.hpp"
#include "workloads/run_summary.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

enum class JobColumn { no, yes };
inline constexpr std::string_view kSweepJobColumn = "job";

class SweepCsvTable {
 public:
  explicit SweepCsvTable(const workloads::SweepSpec& spec, JobColumn job_column = JobColumn::no)
      : spec_(&spec), job_column_(job_column) {}

  // Adds a run of `job`. True when it brings a parameter column the rows so
  // far lack: their lines change, and the text must be rewritten.
  bool add(const workloads::RunSummary& run, const workloads::SweepJob& job);
  std::size_t rows() const { return runs_.size(); }
  const workloads::RunSummary& run(std::size_t row) const { return runs_[row]; }

  std::vector<std::string> header() const;
  std::vector<std::string> row(std::size_t row) const;
  std::string header_line() const;
  std::string row_line(std::size_t row) const;
  CsvTable table() const;
  std::string text() const;  // the header and every row

  // The runs of the rows of `text` (written by text() with `job_column`),
  // which must be the runs of `jobs` (indices into spec.jobs, one per row),
  // in order; a problem at `origin`:line:col when the text is not that.
  static config::Loaded<std::vector<workloads::RunSummary>> read(
      const workloads::SweepSpec& spec, JobColumn job_column, const std::string& text,
      const std::string& origin, const std::vector<std::size_t>& jobs);

 private:
  const workloads::SweepSpec* spec_;
  JobColumn job_column_;
  std::vector<std::string> parameter_columns_;
  std::vector<workloads::RunSummary> runs_;
  std::vector<const workloads::SweepJob*> jobs_;
};

CsvTable sweep_table(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                     JobColumn job_column = JobColumn::no);
std::string sweep_csv(const workloads::SweepSpec& spec, const workloads::SweepResult& result,
                      JobColumn job_column = JobColumn::no);

}  // namespace tilesim::report
