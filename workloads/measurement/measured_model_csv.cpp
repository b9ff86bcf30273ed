#include "workloads/measurement/measured_model_csv.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "workloads/measurement/csv_fields.hpp"
#include "workloads/measurement/measured_csv_row.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {
namespace {

// CSV column -> key of the study's `model:` map.
const std::vector<std::pair<std::string, std::string>> kModelStudyKeys = {
    {"phase", "model.phase"},       {"hidden", "model.hidden"},
    {"heads", "model.heads"},       {"kv_heads", "model.kv_heads"},
    {"head_dim", "model.head_dim"}, {"intermediate", "model.intermediate"},
    {"layers", "model.layers"},     {"vocab", "model.vocab"},
    {"tokens", "model.tokens"},     {"context", "model.context"},
    {"dtype", "model.dtype"},       {"fused", "model.fused"},
    {"launch", "model.launch"},
};
const std::vector<std::string> kRequiredColumns = {"name",  "kind",  "split",
                                                   "phase", "batch", "time_us"};

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

CsvHeader header_of(const std::string& line) {
  CsvHeader header;
  header.names = split_csv_fields(line);
  for (std::size_t i = 0; i < header.names.size(); ++i) {
    header.column_of.emplace(header.names[i], static_cast<int>(i));
  }
  return header;
}

}  // namespace

bool is_model_csv(const std::filesystem::path& path) {
  const std::vector<std::string> lines = split_csv_lines(read_text(path));
  if (lines.size() < 2) return false;
  const CsvHeader header = header_of(lines[0]);
  const CsvRow row(header, split_csv_fields(lines[1]), 2);
  return header.has("kind") && row.cell("kind") == "model";
}

config::Loaded<std::vector<MeasuredModel>> read_measured_model_csv(
    const std::filesystem::path& path, const std::vector<std::string>& gemm_schedules) {
  return read_measured_model_csv_text(read_text(path), path.string(), gemm_schedules);
}

config::Loaded<std::vector<MeasuredModel>> read_measured_model_csv_text(
    const std::string& text, const std::string& origin,
    const std::vector<std::string>& gemm_schedules) {
  config::Loaded<std::vector<MeasuredModel>> loaded;
  CsvProblems problems(origin, loaded.diagnostics);
  const std::vector<std::string> lines = split_csv_lines(text);
  if (lines.empty()) {
    problems.add(1, 1, "", "empty file; expected a header and one row per measured forward");
    return loaded;
  }
  const CsvHeader header = header_of(lines[0]);
  for (const std::string& column : kRequiredColumns) {
    if (!header.has(column)) problems.add(1, 1, column, "missing column `" + column + "`");
  }
  if (!loaded.diagnostics.empty()) return loaded;
  std::vector<MeasuredModel> rows;
  std::string study = "{hardware: unused, workloads: [\n";
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const CsvRow row(header, split_csv_fields(lines[i]), static_cast<int>(i + 1));
    MeasuredModel measured;
    measured.name = row.cell("name");
    measured.line = row.line();
    measured.split = row.cell("split");
    if (row.cell("kind") != "model") {
      problems.at(row, "kind",
                  fmt::format("\"{}\": every row of a model CSV is `model`", row.cell("kind")));
    }
    if (measured.split != "calibration" && measured.split != "validation") {
      problems.at(row, "split",
                  fmt::format("\"{}\": expected `calibration` or `validation`", measured.split));
    }
    const bool prefill = row.cell("phase") == "prefill";
    if (prefill && row.cell("batch") != "1") {
      problems.at(row, "batch",
                  fmt::format("\"{}\": a prefill row is one prompt (batch 1)", row.cell("batch")));
    }
    if (const auto time = parse_positive(row.cell("time_us"))) {
      measured.time_us = *time;
    } else {
      problems.at(row, "time_us",
                  fmt::format("expected a positive number of microseconds, got "
                              "\"{}\"",
                              row.cell("time_us")));
    }
    measured.time_us_p90 = parse_positive(row.cell("time_us_p90"));
    if (!row.cell("dispatch_probe_us").empty()) {
      measured.dispatch_probe_us = parse_positive(row.cell("dispatch_probe_us"));
      if (!measured.dispatch_probe_us) {
        problems.at(row, "dispatch_probe_us",
                    fmt::format("expected a positive number of microseconds (host time per kernel "
                                "of the dispatch probe) or an empty cell, got \"{}\"",
                                row.cell("dispatch_probe_us")));
      }
    }
    std::vector<std::pair<std::string, std::string>> values = {
        {"name", fmt::format("row{}", row.line())}};
    for (const auto& [column, key] : kModelStudyKeys) {
      if (!row.cell(column).empty()) values.emplace_back(key, yaml_quoted(row.cell(column)));
    }
    if (!prefill) values.emplace_back("model.batch", yaml_quoted(row.cell("batch")));
    study += study_entry(values) + ",\n";
    rows.push_back(std::move(measured));
  }
  if (rows.empty()) {
    problems.add(2, 1, "row", "no measured rows; expected one forward per line after the header");
    return loaded;
  }
  const config::Loaded<Study> workloads = load_study_text(study + "]}\n", origin, gemm_schedules);
  for (const config::Diagnostic& diagnostic : workloads.diagnostics.items()) {
    // "workloads[3].model.hidden" -> row 3, column `hidden`.
    const std::string& key = diagnostic.key_path;
    const std::size_t index = key.starts_with("workloads[") ? std::stoul(key.substr(10)) : 0;
    const std::size_t dot = key.rfind('.');
    const std::string column = dot == std::string::npos ? key : key.substr(dot + 1);
    const int line = index < rows.size() ? rows[index].line : 1;
    const auto found = header.column_of.find(column);
    problems.add(line, found == header.column_of.end() ? 1 : found->second + 1, column,
                 diagnostic.message);
  }
  if (!loaded.diagnostics.empty()) return loaded;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].workload = std::get<ModelWorkload>(workloads.value->workloads[i]);
  }
  loaded.value = std::move(rows);
  return loaded;
}

}  // namespace tilesim::workloads
