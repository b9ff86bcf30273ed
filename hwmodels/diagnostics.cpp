#include "hwmodels/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <utility>

namespace tilesim::config {

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 32;  // characters kept at each end of a long value
  if (text.size() <= 3 * kShown) return fmt::format("\"{}\"", text);
  return fmt::format("\"{}...{}\" ({} bytes)", text.substr(0, kShown),
                     text.substr(text.size() - kShown), text.size());
}

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
    // A message quoting a huge value (a 10 MB line) is cut short.
    constexpr std::size_t kMaxMessage = 1000;
    if (item.message.size() <= kMaxMessage) {
      text += item.message;
    } else {
      text += fmt::format("{}... ({} more bytes)", item.message.substr(0, kMaxMessage),
                          item.message.size() - kMaxMessage);
    }
    text += '\n';
  }
  return text;
}

}  // namespace tilesim::config
