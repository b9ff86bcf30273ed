#pragma once
// The frame every config loader shares: run the reader, turn an exception that
// escapes it (a bug, or yaml-cpp misbehaving) into one diagnostic instead of a
// crash, report problems in file order, and keep the value only if there were
// none.

#include <fmt/format.h>

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "hwmodels/diagnostics.hpp"

namespace tilesim::config {

// `read(diagnostics)` returns the value it could build (or nothing) and adds
// every problem it finds to `diagnostics`.
template <typename T, typename Read>
Loaded<T> guarded_read(const std::string& file, Diagnostics diagnostics, Read&& read) {
  Loaded<T> result;
  try {
    std::optional<T> value = std::forward<Read>(read)(diagnostics);
    if (diagnostics.empty()) result.value = std::move(value);
  } catch (const std::exception& e) {
    diagnostics.add({file, 0, 0}, "", fmt::format("internal error while reading: {}", e.what()));
  }
  diagnostics.sort_by_location();
  result.diagnostics = std::move(diagnostics);
  return result;
}

}  // namespace tilesim::config
