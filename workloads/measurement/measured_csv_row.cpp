#include "workloads/measurement/measured_csv_row.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace tilesim::workloads {
namespace {

const std::string kNoCell;

}  // namespace

const std::string& CsvRow::cell(const std::string& column) const {
  const auto found = header_.column_of.find(column);
  return found == header_.column_of.end() ? kNoCell
                                          : fields_[static_cast<std::size_t>(found->second)];
}

int CsvRow::column_number(const std::string& column) const {
  const auto found = header_.column_of.find(column);
  return found == header_.column_of.end() ? 1 : found->second + 1;
}

std::string study_entry(const std::vector<std::pair<std::string, std::string>>& values) {
  std::vector<std::string> top;
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // in first-seen order
  for (const auto& [key, value] : values) {
    const std::size_t dot = key.find('.');
    if (dot == std::string::npos) {
      top.push_back(fmt::format("{}: {}", key, value));
      continue;
    }
    const std::string group = key.substr(0, dot);
    auto found = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& entry) { return entry.first == group; });
    if (found == groups.end()) found = groups.insert(groups.end(), {group, {}});
    found->second.push_back(fmt::format("{}: {}", key.substr(dot + 1), value));
  }
  for (const auto& [group, entries] : groups) {
    top.push_back(fmt::format("{}: {{{}}}", group, fmt::join(entries, ", ")));
  }
  return fmt::format("{{{}}}", fmt::join(top, ", "));
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

std::optional<int> parse_positive_int(const std::string& text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace tilesim::workloads
