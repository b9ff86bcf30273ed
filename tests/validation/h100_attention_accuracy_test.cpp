// Accuracy guard for attention (docs/validation.md, "Attention"): re-simulates
// the committed PyTorch SDPA measurements of the held-out attention validation
// study on the calibrated hardware file, the way `tilesim compare` does.
//
// The targets are NOT met yet. They are those every comparison here is
// held to (issue 5's, for GEMMs): MAPE <= 20% for library-class rows and <= 10%
// for our kernels over enough cases, no case worse than 30%, the fastest
// variant picked in >= 90% of problems. Today, on these rows, the model has one
// profile (`library`) for every SDPA backend and simulates each row's variant
// as written: FlashAttention-2 (mma.sync) runs ~30% slower than it predicts,
// cuDNN (wgmma) ~20% faster, the eager math path (seven kernels over the score
// matrix) ~3x slower, and at decode FA2 and cuDNN split the KV cache where the
// model's `flash` variant does not (up to 19x). The per-class attention
// profiles are the next step (docs/validation.md lists each miss and its cause).
//
// So the assertions hold today's accuracy with a little room: a change that
// makes predictions worse fails here; one that makes them better should
// tighten these limits toward the targets. The whole comparison is printed, so
// a failure shows which rows moved.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "app/report/comparison_report.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::validation {
namespace {

// Today's accuracy on h100_sxm.measured (2026-11-25), with a little room.
constexpr int kMinCases = 57;
// sdpa_flash prefill: 29.2 until the `library` GEMM profile was refitted on
// named calibration rows (issue 13: tensor_efficiency 0.683 -> 0.743); FA2
// rows use that profile as a stand-in and were already predicted fast (mma.sync
// code), so they moved to 33.2 until the per-class attention profiles land.
constexpr double kMaxSdpaFlashPrefillMapePercent = 34;      // today 33.2
constexpr double kMaxSdpaCudnnPrefillMapePercent = 23;      // today 20.3
constexpr double kMaxSdpaEfficientPrefillMapePercent = 65;  // today 61.4
constexpr double kMaxSdpaMathMapePercent = 70;              // today 66.9
constexpr double kMaxPrefillCaseErrorPercent = 74;          // today 70.3 (sdpa_math, 8k d64)
constexpr double kMaxDecodeMapePercent = 560;               // today 541.7
constexpr double kMinPrefillPearsonLogR = 0.99;             // today 0.996 (flash), 0.997 (cuDNN)
constexpr double kMinAllPearsonLogR = 0.78;                 // today 0.797
constexpr double kMaxFusedUnfusedRatioErrorPercent = 76;    // today 73.0

constexpr const char* kMeasured =
    "bench/measurements/h100_sxm_2026-11-25_attention_validation_sdpa.csv";

class H100AttentionAccuracy : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
    const auto rows = workloads::read_measured_csv(
        std::filesystem::path(TILESIM_SOURCE_DIR) / kMeasured, schedules.names());
    ASSERT_TRUE(rows.ok()) << rows.diagnostics.format();
    const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm.measured");
    auto compared = workloads::simulate_measured_attention(rows.value->attention, spec, schedules);
    ASSERT_TRUE(compared.ok()) << compared.diagnostics.format();
    rows_.attention = std::move(*compared.value);
    summary_ = report::summarize_comparison(rows_);
    std::cout << report::comparison_table(rows_, summary_);
  }

  static report::AccuracyMetrics metrics(const std::string& label) {
    for (const report::LabeledMetrics& m : summary_.attention.implementations) {
      if (m.label == label) return m.metrics;
    }
    ADD_FAILURE() << "no rows for " << label;
    return {};
  }

  static report::AccuracyMetrics metrics_where(bool decode) {
    std::vector<double> measured;
    std::vector<double> predicted;
    for (const workloads::ComparedAttention& row : rows_.attention) {
      if (report::is_decode(row.measured.workload.shape) != decode) continue;
      measured.push_back(row.measured.time_us);
      predicted.push_back(row.predicted_us);
    }
    return report::accuracy_metrics(measured, predicted);
  }

  static report::ComparedRows rows_;
  static report::ComparisonSummary summary_;
};

report::ComparedRows H100AttentionAccuracy::rows_;
report::ComparisonSummary H100AttentionAccuracy::summary_;

// One test, so the rows (about 25 s of simulation) are simulated once; every
// check below is reported, not only the first that fails.
TEST_F(H100AttentionAccuracy, HoldsTodaysAccuracy) {
  EXPECT_GE(summary_.attention.all.cases, kMinCases);

  EXPECT_LE(metrics("sdpa_flash prefill").mape_percent, kMaxSdpaFlashPrefillMapePercent);
  EXPECT_LE(metrics("sdpa_cudnn prefill").mape_percent, kMaxSdpaCudnnPrefillMapePercent);
  EXPECT_LE(metrics("sdpa_efficient prefill").mape_percent, kMaxSdpaEfficientPrefillMapePercent);
  EXPECT_LE(metrics("sdpa_math").mape_percent, kMaxSdpaMathMapePercent);

  for (const workloads::ComparedAttention& row : rows_.attention) {
    if (report::is_decode(row.measured.workload.shape)) continue;
    const double error = 100 * (row.predicted_us - row.measured.time_us) / row.measured.time_us;
    EXPECT_LE(std::abs(error), kMaxPrefillCaseErrorPercent)
        << row.measured.workload.name << " (" << row.simulated << "): measured "
        << row.measured.time_us << " us, predicted " << row.predicted_us;
  }

  EXPECT_GE(metrics("sdpa_flash prefill").pearson_log_r, kMinPrefillPearsonLogR);
  EXPECT_GE(metrics("sdpa_cudnn prefill").pearson_log_r, kMinPrefillPearsonLogR);
  EXPECT_GE(summary_.attention.all.pearson_log_r, kMinAllPearsonLogR);

  const report::AccuracyMetrics decode = metrics_where(true);
  EXPECT_GT(decode.cases, 0);
  EXPECT_LE(decode.mape_percent, kMaxDecodeMapePercent);

  EXPECT_FALSE(summary_.attention.fused_unfused.empty());
  for (const report::FusedUnfusedRatio& r : summary_.attention.fused_unfused) {
    EXPECT_LE(100 * std::abs(r.predicted / r.measured - 1), kMaxFusedUnfusedRatioErrorPercent)
        << r.shape << " " << r.fused << " / " << r.unfused << ": measured " << r.measured
        << ", predicted " << r.predicted;
  }
}

}  // namespace
}  // namespace tilesim::validation
