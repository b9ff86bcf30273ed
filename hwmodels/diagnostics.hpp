#pragma once
// Errors found while reading configuration files, as values. Loaders collect
// every problem they find and hand them back together; nothing in the config
// layer throws to the user or exits.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::config {

// 1-based line and column; 0 when the position is unknown (e.g. a missing file).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

struct Diagnostic {
  SourceLocation where;
  std::string key_path;  // e.g. "sm.shared_memory.capacity" or "workloads[2].gemm.m"
  std::string message;   // what is wrong, then what is allowed
};

class Diagnostics {
 public:
  void add(SourceLocation where, std::string key_path, std::string message);
  void append(const Diagnostics& other);
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  // Orders problems by file, line and column (stable), so they read top to bottom.
  void sort_by_location();
  // One line per problem: "file:line:col: error: key.path: message".
  std::string format() const;

 private:
  std::vector<Diagnostic> items_;
};

// `text` in double quotes for a message, cut short when long (a 10 MB value
// is not echoed back): "aaaa...aaaa" (10485760 bytes).
std::string quoted(std::string_view text);

// The outcome of a load: a value, or the problems that prevented it.
template <typename T>
struct Loaded {
  std::optional<T> value;
  Diagnostics diagnostics;
  bool ok() const { return value.has_value(); }
};

}  // namespace tilesim::config
