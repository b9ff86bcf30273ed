#include "app/report/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace tilesim::report {
namespace {

std::string failure(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// A hidden name beside the target, unique to this process.
std::filesystem::path temporary_beside(const std::filesystem::path& path) {
  std::filesystem::path temporary = path;
  temporary.replace_filename(fmt::format(".{}.tmp{}", path.filename().string(), getpid()));
  return temporary;
}

}  // namespace

std::optional<std::string> write_file_atomically(const std::filesystem::path& path,
                                                 std::string_view text) {
  if (path.filename().empty()) return "cannot write: not a file name";
  const std::filesystem::path temporary = temporary_beside(path);
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) return failure("cannot write");
    file.write(text.data(), static_cast<std::streamsize>(text.size()));
    file.flush();
    if (!file) {
      const std::string problem = failure("cannot write");
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return problem;
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return "cannot write: " + error.message();
  }
  return std::nullopt;
}

std::optional<std::string> append_to_file(const std::filesystem::path& path,
                                          std::string_view text) {
  const int file = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
  if (file < 0) return failure("cannot append");
  std::optional<std::string> problem;
  while (!text.empty() && !problem) {
    const ssize_t written = write(file, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      problem = failure("cannot append");
    } else {
      text.remove_prefix(static_cast<std::size_t>(written));
    }
  }
  if (close(file) != 0 && !problem) problem = failure("cannot append");
  return problem;
}

}  // namespace tilesim::report
