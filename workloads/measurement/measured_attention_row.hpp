#pragma once
// One attention row of a measurement CSV (columns in kernels/README.md, "The
// attention measurement CSV"): the checks between its cells that the study
// reader cannot make (the implementation and the variants it runs, kv_len or
// kv_lens, which variants take `splits` and `page_size`), and its study entry.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "workloads/measurement/measured_csv_row.hpp"

namespace tilesim::workloads {

// The columns an attention row needs in the header, in the CSV's order.
const std::vector<std::string>& attention_required_columns();
// Columns only attention rows fill; a GEMM row leaves them empty.
const std::vector<std::string>& attention_only_columns();
// CSV column -> study key, to lay the study reader's problems on the right cell.
const std::vector<std::pair<std::string, std::string>>& attention_study_keys();

struct AttentionRowEntry {
  std::string
      study_entry;  // "{name: ..., attention: {...}, variant: ..., kernel: <implementation>}"
  std::string implementation;  // the `kernel` cell
  std::optional<int> measured_splits;
  std::optional<double> host_enqueue_us;  // unfused rows: the host us to enqueue a run
};

// Every problem of the row's cells goes to `problems`; the entry is built
// from the cells that passed, so the study reader adds no second report.
AttentionRowEntry attention_row_entry(const CsvRow& row, CsvProblems& problems);

}  // namespace tilesim::workloads
