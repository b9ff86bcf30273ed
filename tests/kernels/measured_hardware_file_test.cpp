// Every committed calibrated hardware file (configs/hw/*.measured.yaml) is
// exactly what `tilesim-measure calibrate` writes from its committed raw
// results and today's base file. A key added to the base (e.g.
// launch.framework_dispatch) must reach the calibrated copy: a stale copy
// silently predicts with the loader's default instead.
// TILESIM_UPDATE_GOLDEN=1 rewrites the files.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "kernels/microbench/calibrated_hardware_file.hpp"
#include "kernels/microbench/microbench_table.hpp"

namespace tilesim::microbench {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The header names the base file and the raw results it was written from.
std::string header_field(const std::string& text, const std::string& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(pattern))) return {};
  return match[1];
}

std::vector<fs::path> calibrated_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(TILESIM_CONFIG_DIR) / "hw")) {
    if (entry.path().string().ends_with(".measured.yaml")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(MeasuredHardwareFile, AtLeastOneIsCommitted) {
  EXPECT_FALSE(calibrated_files().empty());
}

TEST(MeasuredHardwareFile, EqualsTheCalibrationOfItsBaseAndRawResults) {
  for (const fs::path& path : calibrated_files()) {
    SCOPED_TRACE(path.string());
    const std::string committed = read_text(path);
    const std::string base = header_field(committed, R"(comment is the base file's \(([^)]+)\))");
    const std::string raw_csv = header_field(committed, R"(\(raw results: ([^)]+)\))");
    ASSERT_FALSE(base.empty()) << "the header names no base file";
    ASSERT_FALSE(raw_csv.empty()) << "the header names no raw results";

    const fs::path sidecar = fs::path(TILESIM_SOURCE_DIR) / "bench" / "microbenchmarks" /
                             fs::path(raw_csv).replace_extension(".json");
    const nlohmann::json raw = nlohmann::json::parse(read_text(sidecar));
    const nlohmann::json& environment = raw.at("environment");
    const CalibrationProvenance provenance{
        environment.at("gpu"), environment.at("sm_count"), environment.at("driver_version"),
        environment.at("cuda_runtime"), environment.at("date_utc")};
    const CalibratedFileSources sources{(path.parent_path() / base).string(), raw_csv,
                                        path.stem().string()};
    const config::Loaded<std::string> rebuilt = calibrated_hardware_yaml(
        sources, TILESIM_CONFIG_DIR, microbench_results_from_json(raw.at("results")), provenance);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.diagnostics.format();

    if (std::getenv("TILESIM_UPDATE_GOLDEN")) {
      std::ofstream(path, std::ios::binary) << *rebuilt.value;
      continue;
    }
    EXPECT_EQ(committed, *rebuilt.value)
        << "stale: rebuild with TILESIM_UPDATE_GOLDEN=1 ctest -R MeasuredHardwareFile";
  }
}

}  // namespace
}  // namespace tilesim::microbench
