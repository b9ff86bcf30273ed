#include "app/report/sweep_journal.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "app/report/output_file.hpp"

namespace tilesim::report {
namespace {

constexpr std::string_view kProgressTitle = "tilesim sweep progress 1 ";

std::filesystem::path with_suffix(std::filesystem::path path, const char* suffix) {
  path += suffix;
  return path;
}

std::optional<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The row counts of the finished jobs; a last line without its "\n" was cut
// short by a kill and does not count.
std::optional<std::vector<std::size_t>> read_row_counts(const std::string& text,
                                                        const std::string& title) {
  if (!text.starts_with(title + "\n")) return std::nullopt;
  std::vector<std::size_t> counts;
  std::size_t start = title.size() + 1;
  for (std::size_t end = text.find('\n', start); end != std::string::npos;
       start = end + 1, end = text.find('\n', start)) {
    std::size_t count = 0;
    const auto [last, error] = std::from_chars(text.data() + start, text.data() + end, count);
    if (error != std::errc() || last != text.data() + end || count == 0) return std::nullopt;
    counts.push_back(count);
  }
  return counts;
}

}  // namespace

std::string sweep_fingerprint(const std::vector<std::string>& inputs) {
  // FNV-1a, 64 bits: stable across runs and builds, unlike std::hash.
  std::uint64_t hash = 14695981039346656037ULL;
  for (const std::string& input : inputs) {
    for (const char c : input + '\0') {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  }
  return fmt::format("{:016x}", hash);
}

std::filesystem::path SweepJournal::partial_path() const {
  return with_suffix(csv_path_, ".partial");
}

std::filesystem::path SweepJournal::progress_path() const {
  return with_suffix(csv_path_, ".progress");
}

std::optional<std::string> SweepJournal::write_all() const {
  if (auto problem = write_file_atomically(partial_path(), table_.text())) return problem;
  std::string progress = std::string(kProgressTitle) + fingerprint_ + "\n";
  for (const workloads::SweepJobRuns& job : done_) progress += fmt::format("{}\n", job.runs.size());
  for (const std::size_t rows : added_rows_) progress += fmt::format("{}\n", rows);
  return write_file_atomically(progress_path(), progress);
}

config::Loaded<SweepJournal> SweepJournal::start(const workloads::SweepSpec& spec,
                                                 JobColumn job_column,
                                                 std::filesystem::path csv_path,
                                                 std::string fingerprint) {
  SweepJournal journal(spec, job_column, std::move(csv_path), std::move(fingerprint));
  config::Loaded<SweepJournal> loaded;
  if (const auto problem = journal.write_all()) {
    loaded.diagnostics.add({journal.partial_path().string(), 0, 0}, "", *problem);
    return loaded;
  }
  loaded.value = std::move(journal);
  return loaded;
}

config::Loaded<SweepJournal> SweepJournal::resume(const workloads::SweepSpec& spec,
                                                  JobColumn job_column,
                                                  std::filesystem::path csv_path,
                                                  std::string fingerprint) {
  SweepJournal journal(spec, job_column, std::move(csv_path), std::move(fingerprint));
  const std::optional<std::string> progress = read_text(journal.progress_path());
  if (!progress) return start(spec, job_column, journal.csv_path_, journal.fingerprint_);
  config::Loaded<SweepJournal> loaded;
  const std::string origin = journal.progress_path().string();
  const std::optional<std::vector<std::size_t>> counts =
      read_row_counts(*progress, std::string(kProgressTitle) + journal.fingerprint_);
  if (!counts || counts->size() > spec.jobs.size()) {
    loaded.diagnostics.add(
        {origin, 1, 1}, "",
        fmt::format("not the progress of this sweep (its file or options changed since); remove "
                    "it and {} to start afresh",
                    journal.partial_path().string()));
    return loaded;
  }
  std::vector<std::size_t> row_jobs;
  for (std::size_t job = 0; job < counts->size(); ++job) {
    row_jobs.insert(row_jobs.end(), (*counts)[job], job);
  }
  const std::string partial_origin = journal.partial_path().string();
  const std::optional<std::string> partial = read_text(journal.partial_path());
  config::Loaded<std::vector<workloads::RunSummary>> runs =
      partial ? SweepCsvTable::read(spec, job_column, *partial, partial_origin, row_jobs)
              : config::Loaded<std::vector<workloads::RunSummary>>{};
  if (!partial) loaded.diagnostics.add({partial_origin, 0, 0}, "", "cannot read file");
  loaded.diagnostics.append(runs.diagnostics);
  if (!loaded.diagnostics.empty()) return loaded;
  std::size_t row = 0;
  for (std::size_t job = 0; job < counts->size(); ++job) {
    workloads::SweepJobRuns done;
    done.job = job;
    for (std::size_t i = 0; i < (*counts)[job]; ++i, ++row) {
      const workloads::RunSummary& run = (*runs.value)[row];
      journal.table_.add(run, spec.jobs[job]);
      done.series.push_back(
          workloads::sweep_run_series(spec.jobs[job], run.schedule, (*counts)[job]));
      done.runs.push_back(run);
    }
    journal.done_.push_back(std::move(done));
  }
  // Rows a kill left past the last counted job go.
  if (const auto problem = journal.write_all()) {
    loaded.diagnostics.add({partial_origin, 0, 0}, "", *problem);
    return loaded;
  }
  loaded.value = std::move(journal);
  return loaded;
}

std::optional<std::string> SweepJournal::add(const workloads::SweepJobRuns& job) {
  const std::size_t first_row = table_.rows();
  bool widened = false;
  for (const workloads::RunSummary& run : job.runs) {
    widened = table_.add(run, spec_->jobs[job.job]) || widened;
  }
  added_rows_.push_back(job.runs.size());
  if (widened) return write_all();
  std::string lines;
  for (std::size_t row = first_row; row < table_.rows(); ++row) lines += table_.row_line(row);
  if (auto problem = append_to_file(partial_path(), lines)) return problem;
  return append_to_file(progress_path(), fmt::format("{}\n", job.runs.size()));
}

std::optional<std::string> SweepJournal::finish(const std::string& last_line) {
  if (!last_line.empty()) {
    if (auto problem = append_to_file(partial_path(), last_line)) return problem;
  }
  std::error_code error;
  std::filesystem::rename(partial_path(), csv_path_, error);
  if (error) return "cannot write: " + error.message();
  std::filesystem::remove(progress_path(), error);
  return std::nullopt;
}

}  // namespace tilesim::report
