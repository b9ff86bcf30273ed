#pragma once
// "Did you mean ...?" suggestions for misspelt keys, units and names.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tilesim::config {

// Optimal-string-alignment distance: insertions, deletions, substitutions and
// swaps of two neighbouring characters each cost 1 ("capactiy" -> "capacity" is 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible typo:
// equal ignoring case, or within max(1, size/3) edits. Ties go to the earlier one.
std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string> candidates);

// "a, b, c" for messages.
std::string join_names(std::span<const std::string> names, std::string_view separator = ", ");

}  // namespace tilesim::config
