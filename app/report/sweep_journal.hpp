#pragma once
// A sweep's CSV written as its jobs finish, so that a stopped sweep (Ctrl-C,
// a crash, a full disk) keeps what it finished and can resume:
//
// - `<csv>.partial` holds the rows so far, in job order: a valid CSV, grown a
//   job at a time with whole lines, and rewritten whole (atomically) when a
//   run brings a column the rows before it lack;
// - `<csv>.progress` names the sweep (a fingerprint of its inputs) and counts
//   each finished job's rows, so that resuming knows where jobs end.
//
// finish() renames the partial file to the CSV and removes the progress file:
// the CSV itself only ever appears complete, the same bytes as a sweep that
// was never stopped. A shard's journal (the spec holds the shard's jobs only)
// writes the `job` column and ends its file with the shard's closing line.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/report/sweep_csv.hpp"
#include "hwmodels/diagnostics.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

class SweepJournal {
 public:
  // Starts afresh, replacing any partial files of an earlier run.
  static config::Loaded<SweepJournal> start(const workloads::SweepSpec& spec, JobColumn job_column,
                                            std::filesystem::path csv_path,
                                            std::string fingerprint);
  // Continues the partial files of a stopped run of the same sweep (same
  // fingerprint); without them, starts afresh. Rows past the last job the
  // progress file counts (a run killed between the two writes) are dropped.
  static config::Loaded<SweepJournal> resume(const workloads::SweepSpec& spec, JobColumn job_column,
                                             std::filesystem::path csv_path,
                                             std::string fingerprint);

  // The jobs already done (resume), with their runs, in job order.
  const std::vector<workloads::SweepJobRuns>& done() const { return done_; }
  std::size_t jobs_done() const { return done_.size() + added_rows_.size(); }

  // Writes a finished job's rows, then counts it; what went wrong, if anything.
  std::optional<std::string> add(const workloads::SweepJobRuns& job);
  // Appends `last_line` (a shard's closing line; may be empty), moves the
  // complete CSV into place and removes the progress file.
  std::optional<std::string> finish(const std::string& last_line = "");

  std::filesystem::path partial_path() const;
  std::filesystem::path progress_path() const;

 private:
  SweepJournal(const workloads::SweepSpec& spec, JobColumn job_column,
               std::filesystem::path csv_path, std::string fingerprint)
      : spec_(&spec),
        csv_path_(std::move(csv_path)),
        fingerprint_(std::move(fingerprint)),
        table_(spec, job_column) {}
  std::optional<std::string> write_all() const;

  const workloads::SweepSpec* spec_;
  std::filesystem::path csv_path_;
  std::string fingerprint_;
  SweepCsvTable table_;
  std::vector<workloads::SweepJobRuns> done_;  // read back when resuming
  std::vector<std::size_t> added_rows_;        // rows of each job added since
};

// A fingerprint of everything a sweep's rows depend on, for the progress file.
std::string sweep_fingerprint(const std::vector<std::string>& inputs);

}  // namespace tilesim::report
