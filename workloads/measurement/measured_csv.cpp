#include "workloads/measurement/measured_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "workloads/measurement/measured_kernel_profile.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {
namespace {

const std::vector<std::string> kRequiredColumns = {"name", "kernel", "schedule", "m",
                                                   "n",    "k",      "dtype",    "time_us"};

// Study keys of the columns that describe the workload (the rest are results).
const std::map<std::string, std::string> kStudyKeyOfColumn = {
    {"name", "name"},
    {"kernel", "kernel"},
    {"schedule", "schedule"},
    {"m", "gemm.m"},
    {"n", "gemm.n"},
    {"k", "gemm.k"},
    {"dtype", "gemm.dtype"},
    {"out_dtype", "gemm.out_dtype"},
    {"tile_m", "tile.m"},
    {"tile_n", "tile.n"},
    {"tile_k", "tile.k"},
    {"warps", "tile.warps"},
    {"stages", "tile.stages"},
    {"swizzle", "tile.swizzle"},
    {"splits", "splits"},
    {"reduction", "reduction"},
    {"stream_k_mode", "stream_k_mode"},
    {"fixup", "fixup"},
};

// RFC 4180 fields of one line (quotes around a field, "" inside one).
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::string yaml_quoted(const std::string& text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::optional<double> parse_positive(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
      value <= 0) {
    return std::nullopt;
  }
  return value;
}

struct Header {
  std::map<std::string, int> column_of;  // 0-based
  std::vector<std::string> names;
};

class CsvReader {
 public:
  CsvReader(std::string origin, config::Diagnostics& diagnostics)
      : origin_(std::move(origin)), diagnostics_(diagnostics) {}

  std::optional<Header> read_header(const std::vector<std::string>& lines) {
    if (lines.empty() ||
        std::all_of(lines.begin(), lines.end(), [](const std::string& l) { return l.empty(); })) {
      problem(1, 1, "header",
              fmt::format("empty file; expected a header naming the columns, at "
                          "least: {}",
                          fmt::join(kRequiredColumns, ", ")));
      return std::nullopt;
    }
    Header header;
    header.names = split_fields(lines.front());
    for (std::size_t i = 0; i < header.names.size(); ++i) {
      header.column_of.emplace(header.names[i], static_cast<int>(i));
    }
    bool complete = true;
    for (const std::string& column : kRequiredColumns) {
      if (header.column_of.contains(column)) continue;
      problem(1, 1, "header",
              fmt::format("missing column `{}`; required columns: {}", column,
                          fmt::join(kRequiredColumns, ", ")));
      complete = false;
    }
    if (!complete) return std::nullopt;
    return header;
  }

  // One YAML flow map per data row, on the same line number as the row, so
  // diagnostics of the study reader point at the CSV line.
  std::string study_text(const std::vector<std::string>& lines, const Header& header,
                         std::vector<MeasuredGemm>& rows) {
    std::string text = "{hardware: unused, workloads: [\n";
    std::vector<std::string> entries(lines.size());
    for (std::size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].empty()) continue;
      const int line = static_cast<int>(i) + 1;
      const std::vector<std::string> fields = split_fields(lines[i]);
      if (fields.size() != header.names.size()) {
        problem(line, 1, "row",
                fmt::format("{} fields, but the header names {} columns", fields.size(),
                            header.names.size()));
        continue;
      }
      // Simulated as the kernel profile the row measured (measured_kernel_profile.hpp).
      const MeasuredProfile profile = measured_kernel_profile(header.column_of, fields);
      if (!profile.profile) {
        const auto column = header.column_of.find(profile.column);
        problem(line, column == header.column_of.end() ? 1 : column->second + 1, profile.column,
                profile.problem);
        continue;
      }
      std::vector<std::string> row = fields;
      row[static_cast<std::size_t>(header.column_of.at("kernel"))] = *profile.profile;
      entries[i] = workload_entry(row, header);
      rows.push_back(measured_times(fields, header, line));
    }
    std::size_t last = 0;
    for (std::size_t i = 1; i < entries.size(); ++i) {
      if (!entries[i].empty()) last = i;
    }
    for (std::size_t i = 1; i < entries.size(); ++i) {
      text += entries[i] + (i < last && !entries[i].empty() ? "," : "") + "\n";
    }
    return text + "]}\n";
  }

  // A study diagnostic, moved onto the CSV column it is about.
  void add_study_problem(const config::Diagnostic& diagnostic, const Header& header) {
    std::string key = diagnostic.key_path;
    if (const std::size_t dot = key.find("]."); key.starts_with("workloads[") && dot != key.npos) {
      key = key.substr(dot + 2);
    }
    for (const auto& [column, study_key] : kStudyKeyOfColumn) {
      const auto found = header.column_of.find(column);
      if (study_key != key || found == header.column_of.end()) continue;
      problem(diagnostic.where.line, found->second + 1, column, diagnostic.message);
      return;
    }
    problem(diagnostic.where.line, 1, key, diagnostic.message);
  }

 private:
  std::string workload_entry(const std::vector<std::string>& fields, const Header& header) const {
    std::map<std::string, std::vector<std::string>> groups;  // "gemm" -> "m: 1", ...
    std::vector<std::string> top;
    for (const auto& [column, study_key] : kStudyKeyOfColumn) {
      const auto found = header.column_of.find(column);
      if (found == header.column_of.end()) continue;
      const std::string& value = fields[static_cast<std::size_t>(found->second)];
      if (value.empty()) continue;
      const std::size_t dot = study_key.find('.');
      if (dot == std::string::npos) {
        top.push_back(fmt::format("{}: {}", study_key, yaml_quoted(value)));
      } else {
        groups[study_key.substr(0, dot)].push_back(
            fmt::format("{}: {}", study_key.substr(dot + 1), yaml_quoted(value)));
      }
    }
    for (const auto& [group, entries] : groups) {
      top.push_back(fmt::format("{}: {{{}}}", group, fmt::join(entries, ", ")));
    }
    return fmt::format("{{{}}}", fmt::join(top, ", "));
  }

  MeasuredGemm measured_times(const std::vector<std::string>& fields, const Header& header,
                              int line) {
    MeasuredGemm row;
    row.line = line;
    const int time_column = header.column_of.at("time_us");
    const std::string& time = fields[static_cast<std::size_t>(time_column)];
    if (const auto value = parse_positive(time)) {
      row.time_us = *value;
    } else {
      problem(line, time_column + 1, "time_us",
              fmt::format("expected a positive number of microseconds, got \"{}\"", time));
    }
    if (const auto p90 = header.column_of.find("time_us_p90"); p90 != header.column_of.end()) {
      row.time_us_p90 = parse_positive(fields[static_cast<std::size_t>(p90->second)]);
    }
    return row;
  }

  void problem(int line, int column, const std::string& key, std::string message) {
    diagnostics_.add({origin_, line, column}, key, std::move(message));
  }

  std::string origin_;
  config::Diagnostics& diagnostics_;
};

}  // namespace

config::Loaded<std::vector<MeasuredGemm>> read_measured_csv_text(
    const std::string& text, const std::string& origin,
    const std::vector<std::string>& gemm_schedules) {
  config::Loaded<std::vector<MeasuredGemm>> loaded;
  CsvReader reader(origin, loaded.diagnostics);
  const std::vector<std::string> lines = split_lines(text);
  const std::optional<Header> header = reader.read_header(lines);
  if (!header) return loaded;
  std::vector<MeasuredGemm> rows;
  const std::string study = reader.study_text(lines, *header, rows);
  if (rows.empty() && loaded.diagnostics.empty()) {
    loaded.diagnostics.add({origin, 2, 1}, "row",
                           "no measured rows; expected one workload per line after the header");
  }
  if (rows.empty()) return loaded;
  // Checked even after a bad time or row, so that every problem is reported at once.
  const config::Loaded<Study> workloads = load_study_text(study, origin, gemm_schedules);
  for (const config::Diagnostic& diagnostic : workloads.diagnostics.items()) {
    reader.add_study_problem(diagnostic, *header);
  }
  loaded.diagnostics.sort_by_location();
  if (!loaded.diagnostics.empty()) return loaded;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].workload = std::get<GemmWorkload>(workloads.value->workloads[i]);
  }
  loaded.value = std::move(rows);
  return loaded;
}

config::Loaded<std::vector<MeasuredGemm>> read_measured_csv(
    const std::filesystem::path& path, const std::vector<std::string>& gemm_schedules) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    config::Loaded<std::vector<MeasuredGemm>> loaded;
    loaded.diagnostics.add({path.string(), 0, 0}, "",
                           "cannot read the measurement CSV (no such file, or not readable)");
    return loaded;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return read_measured_csv_text(text.str(), path.string(), gemm_schedules);
}

}  // namespace tilesim::workloads
