#include "hwmodels/closest_match.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tilesim::config {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Full table rather than two rows: the swap rule looks two rows back.
  const std::size_t rows = a.size() + 1;
  const std::size_t cols = b.size() + 1;
  std::vector<std::size_t> d(rows * cols, 0);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * cols + j]; };
  for (std::size_t i = 0; i < rows; ++i) {
    at(i, 0) = i;
  }
  for (std::size_t j = 0; j < cols; ++j) {
    at(0, j) = j;
  }
  for (std::size_t i = 1; i < rows; ++i) {
    for (std::size_t j = 1; j < cols; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
      }
    }
  }
  return at(rows - 1, cols - 1);
}

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string> candidates) {
  for (const std::string& candidate : candidates) {
    if (equal_ignoring_case(word, candidate)) {
      return candidate;
    }
  }
  // A third of the word may be wrong; beyond that a suggestion is more confusing
  // than helpful ("x" should not suggest "m").
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance < best_distance && distance < word.size()) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string join_names(std::span<const std::string> names, std::string_view separator) {
  std::string joined;
  for (const std::string& name : names) {
    if (!joined.empty()) {
      joined += separator;
    }
    joined += name;
  }
  return joined;
}

}  // namespace tilesim::config
