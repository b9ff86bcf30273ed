#include "kernels/microbench/microbench_table.hpp"

#include <fmt/format.h>

namespace tilesim::microbench {
namespace {

// RFC 4180: quoted, inner quotes doubled.
std::string quoted(const std::string& text) {
  std::string result = "\"";
  for (const char c : text) result += c == '"' ? std::string("\"\"") : std::string(1, c);
  return result + "\"";
}

}  // namespace

std::string microbench_table_header() {
  return fmt::format("{:<28} {:>12} {:<9} {:>12} {:>12} {:>5}", "microbenchmark", "median", "unit",
                     "lowest", "highest", "runs");
}

std::string microbench_table_row(const MicrobenchResult& result) {
  return fmt::format("{:<28} {:>12.4g} {:<9} {:>12.4g} {:>12.4g} {:>5}", result.name, result.value,
                     result.unit, result.lowest, result.highest, result.runs);
}

std::string microbench_csv(const std::vector<MicrobenchResult>& results) {
  std::string csv = "name,value,unit,lowest,highest,runs,method\n";
  for (const MicrobenchResult& r : results) {
    csv += fmt::format("{},{:.6g},{},{:.6g},{:.6g},{},{}\n", r.name, r.value, r.unit, r.lowest,
                       r.highest, r.runs, quoted(r.method));
  }
  return csv;
}

nlohmann::json microbench_json(const std::vector<MicrobenchResult>& results) {
  nlohmann::json list = nlohmann::json::array();
  for (const MicrobenchResult& r : results) {
    list.push_back({{"name", r.name},
                    {"value", r.value},
                    {"unit", r.unit},
                    {"lowest", r.lowest},
                    {"highest", r.highest},
                    {"runs", r.runs},
                    {"method", r.method}});
  }
  return list;
}

std::vector<MicrobenchResult> microbench_results_from_json(const nlohmann::json& list) {
  std::vector<MicrobenchResult> results;
  for (const nlohmann::json& r : list) {
    results.push_back({r.at("name").get<std::string>(), r.at("value").get<double>(),
                       r.at("lowest").get<double>(), r.at("highest").get<double>(),
                       r.at("unit").get<std::string>(), r.at("runs").get<int>(),
                       r.at("method").get<std::string>()});
  }
  return results;
}

}  // namespace tilesim::microbench
