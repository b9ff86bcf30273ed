// Every committed GEMM measurement file (bench/measurements/*_gemm*.csv) is
// re-simulated the way `tilesim compare` does, on the calibrated H100 file:
// it must compare (each row names a kernel profile: its `profile` column, or
// for older files the compiled tile its tile columns name), and its MAPE must
// stay within the limit listed here (today's figure plus 0.5 points), so a
// change that makes any file worse fails. A new GEMM file fails until it is
// listed. docs/validation.md has the table with what each file measured.
//
// The target is own-kernel MAPE <= 10% on every file. Missed today:
// dataset_profile_m128n128k32w8 (18.1%: the 128x128 tile, two CTAs per SM),
// 2026-11-21 stream_k_waves (16.2%), gemm_wgmma (11.9%) and
// gemm_wgmma_stream_k_fixups (11.0%; both ran the wgmma kernel's tail-first
// Stream-K order, which no longer exists), validation_2 (10.0%). Files
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
    {"h100_sxm_2026-11-21_gemm_dataset.csv", 6.1, 6.8},                         // 5.60 / 6.30
    {"h100_sxm_2026-11-21_gemm_dataset_profile_m128n128k32w8.csv", 18.6, 5.6},  // 18.07 / 5.10
    {"h100_sxm_2026-11-21_gemm_fixup_calibration.csv", 5.0, 0},                 // 4.50
    // Worse since the per-kernel / per-unit split (issue 13; was 8.3 / 7.0,
    // 14.7 / 4.3, 7.9 / 5.9, 9.6): their errors are Stream-K rows predicted too
    // fast. The old 8.5 us per unit, charged to every Stream-K segment, covered
    // what Stream-K loses to L2 misses at scattered k offsets; split into what
    // a launch and a unit pay (fitted on data-parallel rows), Stream-K keeps
    // only its modelled costs, and the L2 gap shows (docs/validation.md).
    {"h100_sxm_2026-11-21_gemm_ref_vs_cublas.csv", 10.4, 8.1},           // 9.90 / 7.60
    {"h100_sxm_2026-11-21_gemm_stream_k_waves.csv", 16.7, 7.3},          // 16.20 / 6.80
    {"h100_sxm_2026-11-22_gemm_stream_k_waves.csv", 8.9, 7.0},           // 8.40 / 6.50
    {"h100_sxm_2026-11-22_gemm_wgmma_stream_k_fixups.csv", 11.5, 0},     // 11.00
    {"h100_sxm_2026-11-22_gemm_wgmma.csv", 12.4, 7.1},                   // 11.90 / 6.60
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first.csv", 5.8, 6.3},         // 5.30 / 5.80
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_rounds_a.csv", 5.0, 0},  // 4.50
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_study.csv", 7.9, 6.2},   // 7.40 / 5.70
    {"h100_sxm_2026-11-22_gemm_wgmma_mma_sync_baseline.csv", 6.0, 6.9},  // 5.50 / 6.40
    {"h100_sxm_2026-11-22_gemm_wgmma_repeats.csv", 7.1, 2.3},            // 6.60 / 1.80
    // The held-out study (kernels/studies/gemm_validation_2.yaml), never fitted
    // on; measured 2026-11-25 (13.02 / 12.32 before the issue-13 refit; targets:
    // own <= 7%, cuBLAS <= 8%), and 70 of its rows again on 2026-11-26.
    {"h100_sxm_2026-11-25_gemm_validation_2.csv", 10.5, 7.2},        // 10.00 / 6.70
    {"h100_sxm_2026-11-26_gemm_validation_2_repeat.csv", 7.5, 4.9},  // 7.00 / 4.40
    // The mechanism calibration (kernels/studies/gemm_mechanism_calibration.yaml):
    // its named rows are fitted on (kernels/microbench/fit_kernel_profiles.py).
    {"h100_sxm_2026-11-26_gemm_mechanism_calibration.csv", 3.5, 8.9},  // 3.00 / 8.40
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
