// Every committed GEMM measurement file (bench/measurements/*_gemm*.csv) is
// re-simulated the way `tilesim compare` does, on the calibrated H100 file:
// it must compare (each row names a kernel profile: its `profile` column, or
// for older files the compiled tile its tile columns name), and its MAPE must
// stay within the limit listed here (today's figure plus 0.5 points), so a
// change that makes any file worse fails. A new GEMM file fails until it is
// listed. docs/validation.md has the table with what each file measured.
//
// The target is own-kernel MAPE <= 10% on every file. Missed today:
// dataset_profile_m128n128k32w8 (18.2%: the 128x128 tile, two CTAs per SM),
// 2026-11-21 stream_k_waves (14.2%) and gemm_wgmma (12.0%: its Stream-K rows
// ran the wgmma kernel's tail-first order, which no longer exists). Files
// measured on a kernel version that no longer exists are to be re-measured,
// not dropped: gemm_wgmma, gemm_wgmma_repeats, gemm_wgmma_stream_k_fixups
// (tail-first wgmma Stream-K) and gemm_wgmma_mma_sync_baseline (mma.sync with
// 4 fixup loads in flight).

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "app/report/comparison_report.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::validation {
namespace {

namespace fs = std::filesystem;

const fs::path kMeasurements = fs::path(TILESIM_SOURCE_DIR) / "bench" / "measurements";

struct FileLimit {
  const char* file;
  double own_mape_percent;      // limit for rows of our kernels (every kernel but library)
  double library_mape_percent;  // limit for cuBLAS rows; files without any: 0
};

// Today's figures on h100_sxm.measured (own / library MAPE %) in the comments.
const FileLimit kFiles[] = {
    {"h100_sxm_2026-11-21_gemm_dataset.csv", 6.3, 9.8},                         // 5.77 / 9.27
    {"h100_sxm_2026-11-21_gemm_dataset_profile_m128n128k32w8.csv", 18.8, 9.9},  // 18.24 / 9.32
    {"h100_sxm_2026-11-21_gemm_fixup_calibration.csv", 5.1, 0},                 // 4.53
    {"h100_sxm_2026-11-21_gemm_ref_vs_cublas.csv", 8.3, 7.0},                   // 7.76 / 6.49
    {"h100_sxm_2026-11-21_gemm_stream_k_waves.csv", 14.7, 4.3},                 // 14.20 / 3.73
    {"h100_sxm_2026-11-22_gemm_stream_k_waves.csv", 7.9, 5.9},                  // 7.38 / 5.34
    {"h100_sxm_2026-11-22_gemm_wgmma.csv", 12.5, 8.9},                          // 11.95 / 8.39
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first.csv", 10.5, 6.1},               // 9.94 / 5.60
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_rounds_a.csv", 10.0, 0},        // 9.49
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_study.csv", 10.3, 8.9},         // 9.75 / 8.35
    {"h100_sxm_2026-11-22_gemm_wgmma_mma_sync_baseline.csv", 5.7, 9.1},         // 5.16 / 8.57
    {"h100_sxm_2026-11-22_gemm_wgmma_repeats.csv", 9.9, 6.8},                   // 9.34 / 6.25
    {"h100_sxm_2026-11-22_gemm_wgmma_stream_k_fixups.csv", 9.6, 0},             // 9.02
    // The held-out study (kernels/studies/gemm_validation_2.yaml), measured once
    // before any refit: the "before" of issue 13 (targets: own <= 7%, cuBLAS <= 8%).
    {"h100_sxm_2026-11-25_gemm_validation_2.csv", 13.5, 12.8},  // 13.02 / 12.32
};

// GEMM files that are not tilesim-measure output.
const char* const kNotMeasurements[] = {
    "h100_sxm_2026-11-21_gemm_split_k_parallel_ncu.csv",  // an Nsight Compute metrics export
};

// gtest prints a parameter with this, not as bytes.
void PrintTo(const FileLimit& limit, std::ostream* out) {
  *out << limit.file;
}

class GemmMeasurementFile : public ::testing::TestWithParam<FileLimit> {};

TEST_P(GemmMeasurementFile, ComparesWithinItsLimit) {
  const FileLimit& limit = GetParam();
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  const auto rows = workloads::read_measured_csv(kMeasurements / limit.file, schedules.names());
  ASSERT_TRUE(rows.ok()) << rows.diagnostics.format();
  static const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm.measured");
  auto gemms = workloads::simulate_measured(rows.value->gemms, spec, schedules,
                                            workloads::LibrarySchedule::choose);
  ASSERT_TRUE(gemms.ok()) << gemms.diagnostics.format();
  const report::ComparedRows compared{std::move(*gemms.value), {}};
  const report::ComparisonSummary summary = report::summarize_comparison(compared);
  EXPECT_GT(summary.own_kernels.cases, 0);
  EXPECT_LE(summary.own_kernels.mape_percent, limit.own_mape_percent)
      << report::comparison_table(compared, summary);
  if (limit.library_mape_percent > 0) {
    EXPECT_GT(summary.library.cases, 0);
    EXPECT_LE(summary.library.mape_percent, limit.library_mape_percent);
  } else {
    EXPECT_EQ(summary.library.cases, 0);
  }
}

std::string test_name(const ::testing::TestParamInfo<FileLimit>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Committed, GemmMeasurementFile, ::testing::ValuesIn(kFiles), test_name);

TEST(GemmMeasurementFiles, EveryCommittedGemmFileIsListed) {
  std::vector<std::string> listed;
  for (const FileLimit& limit : kFiles) listed.emplace_back(limit.file);
  listed.insert(listed.end(), std::begin(kNotMeasurements), std::end(kNotMeasurements));
  for (const auto& entry : fs::directory_iterator(kMeasurements)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".csv" || name.find("_gemm") == std::string::npos) continue;
    EXPECT_NE(std::find(listed.begin(), listed.end(), name), listed.end())
        << name << ": list it in " << __FILE__ << " with its MAPE limits";
  }
  for (const std::string& name : listed) {
    EXPECT_TRUE(fs::is_regular_file(kMeasurements / name)) << name << " is listed but missing";
  }
}

}  // namespace
}  // namespace tilesim::validation
