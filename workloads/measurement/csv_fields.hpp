#pragma once
// Splitting CSV text (RFC 4180) into lines and fields, for the files tilesim
// reads back: measurement CSVs and a sweep's partial CSV.

#include <string>
#include <vector>

namespace tilesim::workloads {

// The fields of one line: quotes around a field, "" for a quote inside one.
std::vector<std::string> split_csv_fields(const std::string& line);

// Lines without their "\n" or "\r\n"; a last line without a line end is kept.
std::vector<std::string> split_csv_lines(const std::string& text);

}  // namespace tilesim::workloads
