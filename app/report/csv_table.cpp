#include "app/report/csv_table.hpp"

namespace tilesim::report {

namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted(1, '"');
  for (char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

}  // namespace

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += csv_field(fields[i]);
  }
  out.push_back('\n');
  return out;
}

std::string CsvTable::text() const {
  std::string out = csv_line(header);
  for (const std::vector<std::string>& row : rows) out += csv_line(row);
  return out;
}

}  // namespace tilesim::report
