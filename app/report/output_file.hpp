#pragma once
// How every report reaches the disk without ever leaving half a file: the
// text is written to a temporary file beside the target (the same directory,
// so that the rename cannot cross file systems) and renamed over it, so the
// target holds the old bytes or the new ones, never a mix or a truncation.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tilesim::report {

// Nothing on success; otherwise what went wrong ("cannot write: No space left
// on device"), with the target untouched and no temporary file left behind.
std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::string_view text);

// Appends `text` with one write and flushes it, so that a run killed after it
// returns keeps whole lines (a sweep's partial CSV grows this way).
std::optional<std::string> append_to_file(const std::filesystem::path& path, std::string_view text);

}  // namespace tilesim::report
