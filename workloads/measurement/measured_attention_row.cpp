#include "workloads/measurement/measured_attention_row.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "workloads/attention/attention_implementations.hpp"

namespace tilesim::workloads {
namespace {

// Cells every attention row fills (kv_len or kv_lens, splits and page_size
// depend on the row; time_us is checked with the results).
const std::vector<std::string> kRequiredCells = {"name",   "kernel",   "variant", "batch",
                                                 "heads",  "kv_heads", "q_len",   "head_dim",
                                                 "causal", "dtype"};

bool is_paged(const std::string& variant) {
  return variant == "paged_v1" || variant == "paged_v2";
}

// "131072;1024" -> ["131072", "1024"], each quoted for the study reader.
std::string yaml_list(const std::string& cell) {
  std::vector<std::string> items;
  std::istringstream stream(cell);
  for (std::string item; std::getline(stream, item, ';');) items.push_back(yaml_quoted(item));
  if (!cell.empty() && cell.back() == ';') items.push_back(yaml_quoted(""));
  return fmt::format("[{}]", fmt::join(items, ", "));
}

// The `host_enqueue_us` cell: a positive number of microseconds, on unfused
// rows only (`variant` empty when the row's variant is itself wrong).
std::optional<double> host_enqueue_cell(const CsvRow& row, const std::string& variant,
                                        CsvProblems& problems) {
  const std::string& cell = row.cell("host_enqueue_us");
  if (cell.empty()) return std::nullopt;
  const std::optional<double> us = parse_positive(cell);
  if (!us) {
    problems.at(row, "host_enqueue_us",
                fmt::format("expected a positive number of microseconds, got \"{}\"", cell));
  } else if (!variant.empty() && variant != "unfused") {
    problems.at(row, "host_enqueue_us",
                fmt::format("the host's time to enqueue an unfused row's run; {} rows leave it "
                            "empty",
                            variant));
  }
  return us;
}

}  // namespace

const std::vector<std::string>& attention_required_columns() {
  static const std::vector<std::string> columns = {
      "name",    "kernel",   "variant", "batch", "heads",  "kv_heads",  "q_len",  "kv_len",
      "kv_lens", "head_dim", "causal",  "dtype", "splits", "page_size", "time_us"};
  return columns;
}

const std::vector<std::string>& attention_only_columns() {
  static const std::vector<std::string> columns = {
      "variant", "batch",    "heads",  "kv_heads",  "q_len", "kv_len",
      "kv_lens", "head_dim", "causal", "page_size", "gbps",  "host_enqueue_us"};
  return columns;
}

const std::vector<std::pair<std::string, std::string>>& attention_study_keys() {
  static const std::vector<std::pair<std::string, std::string>> keys = {
      {"name", "name"},
      {"kernel", "kernel"},
      {"variant", "variant"},
      {"batch", "attention.batch"},
      {"heads", "attention.heads"},
      {"kv_heads", "attention.kv_heads"},
      {"q_len", "attention.q_len"},
      {"kv_len", "attention.kv_len"},
      {"kv_lens", "attention.kv_lens"},
      {"head_dim", "attention.head_dim"},
      {"causal", "attention.causal"},
      {"dtype", "attention.dtype"},
      {"page_size", "attention.page_size"},
      {"splits", "splits"},
  };
  return keys;
}

AttentionRowEntry attention_row_entry(const CsvRow& row, CsvProblems& problems) {
  AttentionRowEntry result;
  std::vector<std::pair<std::string, std::string>> values;
  for (const std::string& column : kRequiredCells) {
    if (!row.cell(column).empty()) continue;
    problems.at(row, column, "empty; every attention row gives its value");
  }
  result.implementation = row.cell("kernel");
  const std::optional<AttentionImplementation> implementation =
      find_attention_implementation(result.implementation);
  if (!implementation && !result.implementation.empty()) {
    problems.at(
        row, "kernel",
        fmt::format("unknown attention implementation `{}`; allowed: {}", result.implementation,
                    fmt::join(attention_implementation_names(), ", ")));
  }
  const std::string& variant = row.cell("variant");
  const bool variant_ok =
      implementation && std::find(implementation->variants.begin(), implementation->variants.end(),
                                  variant) != implementation->variants.end();
  if (implementation && !variant.empty() && !variant_ok) {
    problems.at(row, "variant",
                fmt::format("`{}` is not a variant {} runs; allowed: {}", variant,
                            implementation->name, fmt::join(implementation->variants, ", ")));
  }
  const std::string& kv_len = row.cell("kv_len");
  const std::string& kv_lens = row.cell("kv_lens");
  if (kv_len.empty() == kv_lens.empty()) {
    problems.at(row, "kv_len",
                kv_len.empty()
                    ? "empty, and so is kv_lens; give kv_len (every sequence) or kv_lens (the "
                      "lengths separated by `;`)"
                    : "give kv_len or kv_lens, not both");
  }
  // With kv_lens the batch is their count; checked here on the cell's text, so a
  // bad length does not also shorten the list the study reader counts.
  const std::string& batch = row.cell("batch");
  const std::size_t lengths =
      static_cast<std::size_t>(std::count(kv_lens.begin(), kv_lens.end(), ';')) + 1;
  if (kv_len.empty() && !kv_lens.empty() && !batch.empty() && batch != std::to_string(lengths)) {
    problems.at(row, "batch",
                fmt::format("\"{}\", but kv_lens gives {} lengths; the batch is their count", batch,
                            lengths));
  }
  const std::string& splits = row.cell("splits");
  if (!splits.empty()) {
    if (variant == "paged_v2") {
      result.measured_splits = parse_positive_int(splits);
      if (!result.measured_splits) {
        problems.at(row, "splits",
                    fmt::format("expected a positive number of partitions, got \"{}\"", splits));
      }
    } else if (variant != "flash_decoding" && variant_ok) {
      problems.at(row, "splits",
                  fmt::format("applies to flash_decoding and paged_v2 rows, not {}; leave it "
                              "empty",
                              variant));
    }
  }
  result.host_enqueue_us = host_enqueue_cell(row, variant_ok ? variant : "", problems);
  const std::string& page_size = row.cell("page_size");
  if (variant_ok && is_paged(variant) && page_size.empty()) {
    problems.at(row, "page_size", "empty; a paged row gives its tokens per KV page");
  } else if (variant_ok && !is_paged(variant) && !page_size.empty()) {
    problems.at(
        row, "page_size",
        fmt::format("applies to paged_v1 and paged_v2 rows, not {}; leave it empty", variant));
  }
  for (const auto& [column, key] : attention_study_keys()) {
    const std::string& cell = row.cell(column);
    if (cell.empty()) continue;
    if (column == "kernel") {
      if (implementation) values.emplace_back(key, yaml_quoted(implementation->name));
    } else if (column == "variant") {
      if (variant_ok) values.emplace_back(key, yaml_quoted(cell));
    } else if (column == "kv_lens") {
      if (kv_len.empty()) values.emplace_back(key, yaml_list(cell));
    } else if (column == "batch") {
      if (kv_lens.empty()) values.emplace_back(key, yaml_quoted(cell));
    } else if (column == "splits") {
      if (variant == "flash_decoding") values.emplace_back(key, yaml_quoted(cell));
    } else if (column != "page_size" || (variant_ok && is_paged(variant))) {
      values.emplace_back(key, yaml_quoted(cell));
    }
  }
  result.study_entry = study_entry(values);
  return result;
}

}  // namespace tilesim::workloads
