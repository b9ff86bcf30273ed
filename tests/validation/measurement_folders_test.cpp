// bench/measurements/ holds workload timings only: every CSV there is a file
// `tilesim compare --measured FILE` takes as it stands, with no flag (rows it
// can re-simulate, and a JSON sidecar naming the study's hardware).
// Microbenchmark and calibration data (bench/microbenchmarks/) and profiler
// exports (bench/profiles/) are not workload files; a file committed to the
// wrong folder fails here, so "compare works on every measurement file" stays
// a property of the folder, not of a list.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/hardware_loader.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measured_model_csv.hpp"
#include "workloads/measurement/measurement_sidecar.hpp"

namespace tilesim {
namespace {

namespace fs = std::filesystem;

const fs::path kBench = fs::path(TILESIM_SOURCE_DIR) / "bench";

std::vector<fs::path> csv_files(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// What `tilesim compare` reads the file as (model rows or GEMM/attention
// rows): its diagnostics, and how many rows it found.
struct ReadResult {
  bool loaded = false;
  config::Diagnostics diagnostics;
  size_t rows = 0;
};

ReadResult read_rows(const fs::path& csv) {
  const std::vector<std::string> schedules = workloads::builtin_gemm_schedules().names();
  if (workloads::is_model_csv(csv)) {
    auto models = workloads::read_measured_model_csv(csv, schedules);
    return {models.ok(), models.diagnostics, models.ok() ? models.value->size() : 0};
  }
  auto rows = workloads::read_measured_csv(csv, schedules);
  return {rows.ok(), rows.diagnostics,
          rows.ok() ? rows.value->gemms.size() + rows.value->attention.size() : 0};
}

TEST(MeasurementFolders, EveryMeasurementCsvIsAWorkloadFileCompareTakesWithoutFlags) {
  const std::vector<fs::path> files = csv_files(kBench / "measurements");
  ASSERT_GT(files.size(), 100u) << "the committed measurements are found";
  for (const fs::path& csv : files) {
    const ReadResult read = read_rows(csv);
    ASSERT_TRUE(read.loaded) << csv.filename() << " is not a workload file; move it "
                             << "to bench/microbenchmarks/ or bench/profiles/:\n"
                             << read.diagnostics.format();
    EXPECT_GT(read.rows, 0u) << csv.filename();
    const std::optional<std::string> hardware = workloads::sidecar_study_hardware(csv);
    ASSERT_TRUE(hardware.has_value()) << csv.filename() << ": its JSON sidecar names no "
                                      << "`study_hardware`, so compare would need --hw";
    EXPECT_TRUE(hw::resolve_hardware_path(*hardware, TILESIM_CONFIG_DIR).ok())
        << csv.filename() << ": `study_hardware: " << *hardware << "` is not a shipped file";
  }
}

TEST(MeasurementFolders, MicrobenchmarkAndProfilerCsvsAreNotWorkloadFiles) {
  for (const char* folder : {"microbenchmarks", "profiles"}) {
    const std::vector<fs::path> files = csv_files(kBench / folder);
    ASSERT_FALSE(files.empty()) << folder;
    for (const fs::path& csv : files) {
      EXPECT_FALSE(read_rows(csv).loaded)
          << csv.filename() << " reads as workload rows: it belongs in bench/measurements/";
    }
  }
}

}  // namespace
}  // namespace tilesim
