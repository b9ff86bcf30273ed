#include "hwmodels/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>

namespace tilesim::config {

void Diagnostics::add(SourceLocation where, std::string key_path, std::string message) {
  items_.push_back({std::move(where), std::move(key_path), std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

void Diagnostics::sort_by_location() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.where.file, a.where.line, a.where.column) <
           std::tie(b.where.file, b.where.line, b.where.column);
  });
}

std::string Diagnostics::format() const {
  std::string text;
  for (const Diagnostic& item : items_) {
    // Editors and terminals jump to "file:line:col:"; without a line the file alone.
    if (item.where.line > 0) {
      text += fmt::format("{}:{}:{}: ", item.where.file, item.where.line, item.where.column);
    } else if (!item.where.file.empty()) {
      text += fmt::format("{}: ", item.where.file);
    }
    text += "error: ";
    if (!item.key_path.empty()) {
      text += fmt::format("{}: ", item.key_path);
    }
    text += item.message;
    text += '\n';
  }
  return text;
}

}  // namespace tilesim::config
