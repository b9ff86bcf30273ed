#include "app/report/sweep_shard_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "app/report/sweep_csv.hpp"
#include "workloads/measurement/csv_fields.hpp"

namespace tilesim::report {
namespace {

constexpr std::string_view kClosingStart = "# tilesim sweep shard ";

struct ClosingLine {
  workloads::SweepShard shard;
  std::string fingerprint;
  std::size_t jobs = 0;
  std::size_t rows = 0;
};

// The closing line as written by shard_closing_line (without its "\n"), or nothing.
std::optional<ClosingLine> read_closing_line(const std::string& line) {
  std::size_t index = 0;
  std::size_t count = 0;
  std::size_t jobs = 0;
  std::size_t rows = 0;
  char fingerprint[17] = {};
  const std::string format =
      std::string(kClosingStart) + "%zu/%zu of sweep %16[0-9a-f]: %zu jobs, %zu rows";
  if (std::sscanf(line.c_str(), format.c_str(), &index, &count, fingerprint, &jobs, &rows) != 5) {
    return std::nullopt;
  }
  const workloads::ParsedSweepShard shard =
      workloads::parse_sweep_shard(fmt::format("{}/{}", index, count));
  // Read back exactly: nothing before, between or after the fields.
  if (!shard.shard || line + "\n" != shard_closing_line(*shard.shard, fingerprint, jobs, rows)) {
    return std::nullopt;
  }
  return ClosingLine{*shard.shard, fingerprint, jobs, rows};
}

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos;
       start = end + 1, end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

std::optional<std::size_t> job_number(const std::string& row) {
  const std::string field = workloads::split_csv_fields(row).front();
  std::size_t number = 0;
  const auto [last, error] = std::from_chars(field.data(), field.data() + field.size(), number);
  if (field.empty() || error != std::errc() || last != field.data() + field.size()) {
    return std::nullopt;
  }
  return number;
}

struct ShardFile {
  std::string path;
  int closing_line = 0;
  workloads::SweepShard shard;
  std::vector<workloads::SweepJobRuns> jobs;  // the shard's, in order, numbered in the sweep
};

class ShardFileReader {
 public:
  ShardFileReader(const workloads::SweepSpec& spec, const std::string& fingerprint,
                  config::Diagnostics& problems)
      : spec_(spec), fingerprint_(fingerprint), problems_(problems) {}

  std::optional<ShardFile> read(const std::string& path) {
    const std::optional<std::string> text = read_text(path);
    if (!text) return fail({path, 0, 0}, "cannot read file");
    const std::vector<std::string> lines = lines_of(*text);
    const int last = static_cast<int>(lines.size());
    if (lines.empty()) {
      return fail({path, 1, 1},
                  "empty file; expected the CSV of a shard (`tilesim sweep --shard "
                  "I/N --csv PATH`)");
    }
    if (workloads::split_csv_fields(lines.front()).front() != kSweepJobColumn) {
      return fail({path, 1, 1}, fmt::format("not a shard's file: a shard's CSV (`tilesim sweep "
                                            "--shard I/N --csv PATH`) starts with the column `{}`",
                                            kSweepJobColumn));
    }
    if (text->back() != '\n') {
      return fail({path, last, 1},
                  "cut short: the last line has no line end (a write or a copy was interrupted)");
    }
    if (!lines.back().starts_with(kClosingStart)) {
      return fail({path, last, 1},
                  fmt::format("cut short: no closing line `{}I/N of sweep ...` after the last row, "
                              "which a shard writes when all its jobs are done{}",
                              kClosingStart,
                              path.ends_with(".partial")
                                  ? "; this is the partial file of a stopped shard: finish it "
                                    "with --resume"
                                  : ""));
    }
    const std::optional<ClosingLine> closing = read_closing_line(lines.back());
    if (!closing) {
      return fail({path, last, 1}, fmt::format("closing line: expected `{}I/N of sweep "
                                               "FINGERPRINT: J jobs, R rows`",
                                               kClosingStart));
    }
    if (closing->fingerprint != fingerprint_) {
      return fail({path, last, 1},
                  fmt::format("a shard of another sweep: its fingerprint is {}, this sweep's is {} "
                              "(the sweep file, --hw, --set, the hardware files or the tilesim "
                              "build differ); shards and the merge need the same inputs and build",
                              closing->fingerprint, fingerprint_));
    }
    const std::size_t expected_jobs = closing->shard.job_count(spec_.jobs.size());
    if (closing->jobs != expected_jobs || closing->rows + 2 != lines.size()) {
      return fail({path, last, 1},
                  fmt::format("the closing line counts {} jobs and {} rows, but shard {} of this "
                              "sweep has {} jobs and the file {} rows: rows were lost or added",
                              closing->jobs, closing->rows, closing->shard.text(), expected_jobs,
                              lines.size() - 2));
    }
    ShardFile file{path, last, closing->shard, {}};
    const std::optional<std::vector<std::size_t>> row_jobs = read_job_column(file, lines);
    if (!row_jobs) return std::nullopt;
    const std::string rows_text = text->substr(0, text->size() - lines.back().size() - 1);
    const config::Loaded<std::vector<workloads::RunSummary>> runs =
        SweepCsvTable::read(spec_, JobColumn::yes, rows_text, path, *row_jobs);
    problems_.append(runs.diagnostics);
    if (!runs.ok()) return std::nullopt;
    for (std::size_t row = 0; row < row_jobs->size(); ++row) {
      if (file.jobs.empty() || file.jobs.back().job != (*row_jobs)[row]) {
        file.jobs.push_back({(*row_jobs)[row], {}, {}});
      }
      file.jobs.back().runs.push_back((*runs.value)[row]);
    }
    for (workloads::SweepJobRuns& job : file.jobs) {
      for (const workloads::RunSummary& run : job.runs) {
        job.series.push_back(
            workloads::sweep_run_series(spec_.jobs[job.job], run.schedule, job.runs.size()));
      }
    }
    return file;
  }

 private:
  std::nullopt_t fail(config::SourceLocation where, std::string message) {
    problems_.add(std::move(where), "", std::move(message));
    return std::nullopt;
  }

  // The job of each row: the shard's jobs in order, each on one or more rows.
  std::optional<std::vector<std::size_t>> read_job_column(const ShardFile& file,
                                                          const std::vector<std::string>& lines) {
    const workloads::SweepShard shard = file.shard;
    const std::size_t jobs = shard.job_count(spec_.jobs.size());
    std::vector<std::size_t> row_jobs;
    std::size_t next = 0;  // the shard's next job, counted within the shard
    for (std::size_t line = 1; line + 1 < lines.size(); ++line) {
      const std::optional<std::size_t> number = job_number(lines[line]);
      const int line_number = static_cast<int>(line) + 1;
      const bool same_job = number && !row_jobs.empty() && *number == row_jobs.back();
      if (!same_job && (!number || next >= jobs || *number != shard.index + next * shard.count)) {
        problems_.add(
            {file.path, line_number, 1}, "job",
            fmt::format("{}: expected {}: shard {} holds the sweep's jobs {}, {}, {}, ... in "
                        "order, each on one or more rows; a row is missing, repeated or moved",
                        number ? fmt::format("{}", *number) : "not a job number",
                        next < jobs ? fmt::format("job {}", shard.index + next * shard.count)
                                    : fmt::format("no more jobs after {}", row_jobs.back()),
                        shard.text(), shard.index, shard.index + shard.count,
                        shard.index + 2 * shard.count));
        return std::nullopt;
      }
      if (!same_job) ++next;
      row_jobs.push_back(*number);
    }
    if (next != jobs) {
      problems_.add({file.path, file.closing_line, 1}, "",
                    fmt::format("the rows hold {} of the shard's {} jobs", next, jobs));
      return std::nullopt;
    }
    return row_jobs;
  }

  const workloads::SweepSpec& spec_;
  const std::string& fingerprint_;
  config::Diagnostics& problems_;
};

// "0/7, 3/7 and 5/7", at most ten of them.
std::string shard_list(const std::vector<std::size_t>& indices, std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < indices.size() && i < 10; ++i) {
    names.push_back(fmt::format("{}/{}", indices[i], count));
  }
  if (indices.size() > 10) names.push_back(fmt::format("{} more", indices.size() - 10));
  if (names.size() == 1) return names.front();
  const std::string last = names.back();
  names.pop_back();
  return fmt::format("{} and {}", fmt::join(names, ", "), last);
}

}  // namespace

std::string shard_closing_line(workloads::SweepShard shard, const std::string& fingerprint,
                               std::size_t jobs, std::size_t rows) {
  return fmt::format("{}{} of sweep {}: {} jobs, {} rows\n", kClosingStart, shard.text(),
                     fingerprint, jobs, rows);
}

config::Loaded<workloads::SweepResult> merge_sweep_shards(const workloads::SweepSpec& spec,
                                                          const std::string& fingerprint,
                                                          const std::vector<std::string>& paths) {
  config::Loaded<workloads::SweepResult> merged;
  config::Diagnostics& problems = merged.diagnostics;
  ShardFileReader reader(spec, fingerprint, problems);
  std::vector<ShardFile> files;
  for (const std::string& path : paths) {
    if (std::optional<ShardFile> file = reader.read(path)) files.push_back(std::move(*file));
  }
  if (files.empty()) {
    if (problems.empty()) problems.add({"--merge", 0, 0}, "", "no shard files given");
    return merged;
  }
  // One split: every shard of the same N, each once, none missing.
  const std::size_t count = files.front().shard.count;
  std::vector<const ShardFile*> by_index(count, nullptr);
  for (const ShardFile& file : files) {
    const workloads::SweepShard shard = file.shard;
    if (shard.count != count) {
      problems.add(
          {file.path, file.closing_line, 1}, "",
          fmt::format("shard {} of a split into {}, but {} is shard {}: merge the shards "
                      "of one split",
                      shard.text(), shard.count, files.front().path, files.front().shard.text()));
    } else if (by_index[shard.index] != nullptr) {
      problems.add({file.path, file.closing_line, 1}, "",
                   fmt::format("shard {} is given twice: {} is shard {} too", shard.text(),
                               by_index[shard.index]->path, shard.text()));
    } else {
      by_index[shard.index] = &file;
    }
  }
  if (problems.empty()) {
    std::vector<std::size_t> missing;
    for (std::size_t index = 0; index < count; ++index) {
      if (by_index[index] == nullptr) missing.push_back(index);
    }
    if (!missing.empty()) {
      problems.add({"--merge", 0, 0}, "",
                   fmt::format("shard{} {} missing: the merge needs the files of all {} shards, "
                               "0/{} to {}/{}",
                               missing.size() == 1 ? "" : "s", shard_list(missing, count), count,
                               count, count - 1, count));
    }
  }
  if (!problems.empty()) return merged;
  workloads::SweepResult result;
  for (std::size_t job = 0; job < spec.jobs.size(); ++job) {
    result.add(by_index[job % count]->jobs[job / count], spec.jobs[job].point);
  }
  result.jobs_done = spec.jobs.size();
  merged.value = std::move(result);
  return merged;
}

}  // namespace tilesim::report
