#include "workloads/measurement/measured_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "hwmodels/yaml_file.hpp"
#include "workloads/measurement/csv_fields.hpp"
#include "workloads/measurement/measured_attention_row.hpp"
#include "workloads/measurement/measured_csv_row.hpp"
#include "workloads/measurement/measured_kernel_profile.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {
namespace {

const std::vector<std::string> kGemmRequiredColumns = {"name", "kernel", "schedule", "m",
                                                       "n",    "k",      "dtype",    "time_us"};

// CSV column -> study key of the columns that describe a GEMM (the rest are results).
const std::vector<std::pair<std::string, std::string>> kGemmStudyKeys = {
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
    {"persistent", "persistent"},
};

// Columns only GEMM rows fill; an attention row leaves them empty.
const std::vector<std::string> kGemmOnlyColumns = {
    "schedule",      "m",      "n",     "k",        "out_dtype", "tile_m",
    "tile_n",        "tile_k", "warps", "stages",   "swizzle",   "reduction",
    "stream_k_mode", "fixup",  "ctas",  "sk_tiles", "sk_ctas",   "persistent"};

// What one data row holds beside its study entry, until the study is read.
struct PendingRow {
  bool attention = false;
  int line = 0;
  double time_us = 0;
  std::optional<double> time_us_p90;
  std::string implementation;
  std::optional<int> measured_splits;
  std::optional<double> host_enqueue_us;
};

class CsvReader {
 public:
  CsvReader(std::string origin, config::Diagnostics& diagnostics)
      : problems_(std::move(origin), diagnostics) {}

  std::optional<CsvHeader> read_header(const std::vector<std::string>& lines) {
    if (lines.empty() ||
        std::all_of(lines.begin(), lines.end(), [](const std::string& l) { return l.empty(); })) {
      problems_.add(1, 1, "header",
                    fmt::format("empty file; expected a header naming the columns, at least: {} "
                                "(GEMM rows) or {} (attention rows)",
                                fmt::join(kGemmRequiredColumns, ", "),
                                fmt::join(attention_required_columns(), ", ")));
      return std::nullopt;
    }
    CsvHeader header;
    header.names = split_csv_fields(lines.front());
    for (std::size_t i = 0; i < header.names.size(); ++i) {
      const auto [first, inserted] = header.column_of.emplace(header.names[i], static_cast<int>(i));
      if (!inserted) {
        problems_.add(1, static_cast<int>(i) + 1, "header",
                      fmt::format("column `{}` appears twice (columns {} and {})", header.names[i],
                                  first->second + 1, i + 1));
        return std::nullopt;
      }
    }
    if (!header.has("schedule") && !header.has("variant")) {
      problems_.add(1, 1, "header",
                    fmt::format("missing column `schedule` (GEMM rows) or `variant` (attention "
                                "rows); GEMM rows need: {}; attention rows need: {}",
                                fmt::join(kGemmRequiredColumns, ", "),
                                fmt::join(attention_required_columns(), ", ")));
      return std::nullopt;
    }
    bool complete = true;
    auto require = [&](const std::vector<std::string>& columns, const char* rows) {
      for (const std::string& column : columns) {
        if (header.has(column)) continue;
        problems_.add(1, 1, "header",
                      fmt::format("missing column `{}`; required columns{}: {}", column, rows,
                                  fmt::join(columns, ", ")));
        complete = false;
      }
    };
    if (header.has("schedule")) require(kGemmRequiredColumns, "");
    if (header.has("variant")) require(attention_required_columns(), " of attention rows");
    if (!complete) return std::nullopt;
    return header;
  }

  // One YAML flow map per data row, on the same line number as the row, so
  // diagnostics of the study reader point at the CSV line.
  std::string study_text(const std::vector<std::string>& lines, const CsvHeader& header,
                         std::vector<PendingRow>& rows) {
    std::vector<std::string> entries(lines.size());
    for (std::size_t i = 1; i < lines.size(); ++i) {
      if (lines[i].empty()) continue;
      const int line = static_cast<int>(i) + 1;
      if (std::count(lines[i].begin(), lines[i].end(), '"') % 2 != 0) {
        problems_.add(line, static_cast<int>(lines[i].find('"')) + 1, "row",
                      "a quoted field is not closed: quotes must come in pairs (\"\" for a "
                      "quote inside one)");
        continue;
      }
      std::vector<std::string> fields = split_csv_fields(lines[i]);
      if (fields.size() != header.names.size()) {
        problems_.add(line, 1, "row",
                      fmt::format("{} fields, but the header names {} columns", fields.size(),
                                  header.names.size()));
        continue;
      }
      const CsvRow row(header, fields, line);  // a copy: the GEMM profile reads the fields
      PendingRow pending = measured_times(row);
      pending.attention = !row.cell("variant").empty();
      if (pending.attention) {
        require_empty(row, kGemmOnlyColumns, "GEMM rows; an attention row leaves it empty");
        AttentionRowEntry entry = attention_row_entry(row, problems_);
        entries[i] = std::move(entry.study_entry);
        pending.implementation = std::move(entry.implementation);
        pending.measured_splits = entry.measured_splits;
        pending.host_enqueue_us = entry.host_enqueue_us;
      } else {
        if (!header.has("schedule")) {
          problems_.at(row, "variant",
                       "empty; this file has no GEMM columns, so every row is an attention row "
                       "and names its variant");
          continue;  // no study entry: the study reader would only repeat it
        }
        require_empty(row, attention_only_columns(),
                      "attention rows (those with a variant); a GEMM row leaves it empty");
        // Simulated as the kernel profile the row measured (measured_kernel_profile.hpp).
        const MeasuredProfile profile = measured_kernel_profile(header.column_of, fields);
        if (!profile.profile) {
          problems_.at(row, profile.column, profile.problem);
          continue;
        }
        entries[i] = gemm_entry(row, *profile.profile);
      }
      rows.push_back(std::move(pending));
    }
    std::string text = "{hardware: unused, workloads: [\n";
    std::size_t last = 0;
    for (std::size_t i = 1; i < entries.size(); ++i) {
      if (!entries[i].empty()) last = i;
    }
    for (std::size_t i = 1; i < entries.size(); ++i) {
      text += entries[i] + (i < last && !entries[i].empty() ? "," : "") + "\n";
    }
    return text + "]}\n";
  }

  // A study diagnostic, moved onto the CSV column it is about; dropped when a
  // check of the row's cells already reported that cell.
  void add_study_problem(const config::Diagnostic& diagnostic, const CsvHeader& header,
                         const std::set<std::pair<int, int>>& reported) {
    std::string key = diagnostic.key_path;
    if (const std::size_t dot = key.find("]."); key.starts_with("workloads[") && dot != key.npos) {
      key = key.substr(dot + 2);
    }
    if (key.ends_with(']')) key = key.substr(0, key.rfind('['));  // attention.kv_lens[2]
    // The study reader's one rule on the attention map as a whole: kv_len or kv_lens.
    if (key == "attention") key = "attention.kv_len";
    for (const auto* keys : {&kGemmStudyKeys, &attention_study_keys()}) {
      for (const auto& [column, study_key] : *keys) {
        const auto found = header.column_of.find(column);
        if (study_key != key || found == header.column_of.end()) continue;
        if (reported.contains({diagnostic.where.line, found->second + 1})) return;
        problems_.add(diagnostic.where.line, found->second + 1, column, diagnostic.message);
        return;
      }
    }
    problems_.add(diagnostic.where.line, 1, key, diagnostic.message);
  }

 private:
  // The row's study entry, simulated with `profile` as its kernel.
  static std::string gemm_entry(const CsvRow& row, const std::string& profile) {
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [column, key] : kGemmStudyKeys) {
      const std::string& cell = column == "kernel" ? profile : row.cell(column);
      if (!cell.empty()) values.emplace_back(key, yaml_quoted(cell));
    }
    return study_entry(values);
  }

  void require_empty(const CsvRow& row, const std::vector<std::string>& columns,
                     const std::string& whose) {
    for (const std::string& column : columns) {
      if (column == "variant" || row.cell(column).empty()) continue;
      problems_.at(row, column,
                   fmt::format("\"{}\": this column belongs to {}", row.cell(column), whose));
    }
  }

  PendingRow measured_times(const CsvRow& row) {
    PendingRow pending;
    pending.line = row.line();
    const std::string& time = row.cell("time_us");
    if (const auto value = parse_positive(time)) {
      pending.time_us = *value;
    } else {
      problems_.at(row, "time_us",
                   fmt::format("expected a positive number of microseconds, got \"{}\"", time));
    }
    pending.time_us_p90 = parse_positive(row.cell("time_us_p90"));
    return pending;
  }

  CsvProblems problems_;
};

// The (line, column) of every problem found so far.
std::set<std::pair<int, int>> reported_cells(const config::Diagnostics& diagnostics) {
  std::set<std::pair<int, int>> cells;
  for (const config::Diagnostic& d : diagnostics.items())
    cells.insert({d.where.line, d.where.column});
  return cells;
}

}  // namespace

config::Loaded<MeasuredRows> read_measured_csv_text(
    const std::string& text, const std::string& origin,
    const std::vector<std::string>& gemm_schedules) {
  config::Loaded<MeasuredRows> loaded;
  // Spreadsheets save CSVs with a byte-order mark; it is not part of the header.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  const std::string_view body = std::string_view(text).starts_with(kByteOrderMark)
                                    ? std::string_view(text).substr(kByteOrderMark.size())
                                    : std::string_view(text);
  if (!config::is_config_text(body, origin, loaded.diagnostics)) return loaded;
  CsvReader reader(origin, loaded.diagnostics);
  const std::vector<std::string> lines = split_csv_lines(std::string(body));
  const std::optional<CsvHeader> header = reader.read_header(lines);
  if (!header) return loaded;
  std::vector<PendingRow> rows;
  const std::string study = reader.study_text(lines, *header, rows);
  if (rows.empty() && loaded.diagnostics.empty()) {
    loaded.diagnostics.add({origin, 2, 1}, "row",
                           "no measured rows; expected one workload per line after the header");
  }
  if (rows.empty()) return loaded;
  // Checked even after a bad time or row, so that every problem is reported at once.
  const config::Loaded<Study> workloads = load_study_text(study, origin, gemm_schedules);
  const std::set<std::pair<int, int>> reported = reported_cells(loaded.diagnostics);
  for (const config::Diagnostic& diagnostic : workloads.diagnostics.items()) {
    reader.add_study_problem(diagnostic, *header, reported);
  }
  loaded.diagnostics.sort_by_location();
  if (!loaded.diagnostics.empty()) return loaded;
  MeasuredRows measured;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PendingRow& row = rows[i];
    const Workload& workload = workloads.value->workloads[i];
    if (row.attention) {
      measured.attention.push_back({std::get<AttentionWorkload>(workload), row.implementation,
                                    row.measured_splits, row.host_enqueue_us, row.time_us,
                                    row.time_us_p90, row.line});
    } else {
      measured.gemms.push_back(
          {std::get<GemmWorkload>(workload), row.time_us, row.time_us_p90, row.line});
    }
  }
  loaded.value = std::move(measured);
  return loaded;
}

config::Loaded<MeasuredRows> read_measured_csv(const std::filesystem::path& path,
                                               const std::vector<std::string>& gemm_schedules) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    config::Loaded<MeasuredRows> loaded;
    loaded.diagnostics.add({path.string(), 0, 0}, "",
                           "cannot read the measurement CSV (no such file, or not readable)");
    return loaded;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return read_measured_csv_text(text.str(), path.string(), gemm_schedules);
}

}  // namespace tilesim::workloads
