// Runs a fuzz target once on each file given (or each file in each folder
// given), the way a libFuzzer binary replays a corpus: for compilers without
// libFuzzer (g++), so that the default and sanitize presets replay the seeds
// and every crash's regression input too.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path given = argv[i];
    if (!std::filesystem::is_directory(given)) {
      files.push_back(given);
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(given)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s FILE|DIR...: no input files found\n", argv[0]);
    return 1;
  }
  for (const auto& file : files) replay(file);
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
