#pragma once
// A CSV table held as fields, so that reports can share columns (a sweep puts
// its varied keys in front of `simulate --csv`'s columns) before writing it.

#include <string>
#include <vector>

namespace tilesim::report {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  // RFC 4180: comma-separated, "\n" line ends, a field quoted only when it needs it.
  std::string text() const;
};

// One line of CsvTable::text(), "\n" included.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace tilesim::report
