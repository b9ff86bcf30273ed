#pragma once
// Internals of the measurement CSV reader shared by its GEMM and attention
// rows: the header, one row's cells by column name, where a problem goes, and
// how a row becomes a study entry (a YAML flow map the study reader checks).

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hwmodels/diagnostics.hpp"

namespace tilesim::workloads {

struct CsvHeader {
  std::map<std::string, int> column_of;  // 0-based
  std::vector<std::string> names;
  bool has(const std::string& column) const { return column_of.contains(column); }
};

// One data row; cells are found by column name.
class CsvRow {
 public:
  CsvRow(const CsvHeader& header, std::vector<std::string> fields, int line)
      : header_(header), fields_(std::move(fields)), line_(line) {}
  // The cell's text; empty when the header lacks the column.
  const std::string& cell(const std::string& column) const;
  // 1-based column of a CSV cell, for diagnostics; 1 when the header lacks it.
  int column_number(const std::string& column) const;
  int line() const { return line_; }

 private:
  const CsvHeader& header_;
  std::vector<std::string> fields_;
  int line_;
};

// Collects problems of one CSV file at line:column with the column's name.
class CsvProblems {
 public:
  CsvProblems(std::string origin, config::Diagnostics& diagnostics)
      : origin_(std::move(origin)), diagnostics_(diagnostics) {}
  void add(int line, int column, const std::string& key, std::string message) {
    diagnostics_.add({origin_, line, column}, key, std::move(message));
  }
  void at(const CsvRow& row, const std::string& column, std::string message) {
    add(row.line(), row.column_number(column), column, std::move(message));
  }

 private:
  std::string origin_;
  config::Diagnostics& diagnostics_;
};

// (study key, YAML value) pairs -> "{name: "a", gemm: {m: "1", ...}, ...}"; keys
// with a dot are grouped under their first part. Values are YAML as given.
std::string study_entry(const std::vector<std::pair<std::string, std::string>>& values);

// A cell as a double-quoted YAML scalar.
std::string yaml_quoted(const std::string& text);

std::optional<double> parse_positive(const std::string& text);
std::optional<int> parse_positive_int(const std::string& text);

}  // namespace tilesim::workloads
