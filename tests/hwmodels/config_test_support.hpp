#pragma once
// Helpers for config-loader tests: inline YAML fixtures written to a temp dir, and
// assertions on diagnostics that print every diagnostic when they fail.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "hwmodels/diagnostics.hpp"

namespace tilesim::testing {

// The directory of the running test's fixtures.
inline std::filesystem::path temp_test_dir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::filesystem::path(::testing::TempDir()) / "tilesim_config_tests" /
         (std::string(test->test_suite_name()) + "." + test->name());
}

// Writes `text` to `name` (a path relative to temp_test_dir()).
inline std::filesystem::path write_temp_file(const std::string& name, std::string_view text) {
  const std::filesystem::path path = temp_test_dir() / name;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// `text` with its 1-based line `line` replaced by `replacement` ("" removes nothing:
// the line becomes empty).
inline std::string replace_line(std::string_view text, int line, std::string_view replacement) {
  std::istringstream in{std::string(text)};
  std::string result;
  std::string current;
  for (int number = 1; std::getline(in, current); ++number) {
    result += number == line ? std::string(replacement) : current;
    result += '\n';
  }
  return result;
}

// 1-based column of `needle` in `line`, so that tests state which token they mean.
inline int column_of(std::string_view line, std::string_view needle) {
  return static_cast<int>(line.find(needle)) + 1;
}

// True when a diagnostic has exactly this line, column and key path, and its
// message contains `message_part`.
inline ::testing::AssertionResult HasDiagnostic(const config::Diagnostics& diagnostics, int line,
                                                int column, std::string_view key_path,
                                                std::string_view message_part) {
  for (const config::Diagnostic& item : diagnostics.items()) {
    if (item.where.line == line && item.where.column == column && item.key_path == key_path &&
        item.message.find(message_part) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure()
         << "no diagnostic at " << line << ":" << column << " for `" << key_path
         << "` containing \"" << message_part << "\"; got:\n"
         << diagnostics.format();
}

}  // namespace tilesim::testing
