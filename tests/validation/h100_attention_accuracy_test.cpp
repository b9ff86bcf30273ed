// Accuracy guard for attention (docs/validation.md, "Attention"): re-simulates
// the committed measurements of the attention validation studies 1 (seen) and
// 3 (held out) -- PyTorch SDPA's backends and our own kernels -- on the
// calibrated hardware file, the way `tilesim compare` does.
//
// Each implementation runs with the attention profile of its class
// (configs/attention/, mapped by workloads/attention/attention_implementations.cpp),
// fitted on microbenchmarks and the named calibration cases only
// (kernels/studies/attention_calibration.yaml, attention_calibration_2.yaml). The limits below hold
// today's accuracy with a little room, so a change that makes predictions worse fails here; the
// issue's targets are written beside each, and where one is not met docs/validation.md says why.
// The whole comparison is printed, so a failure shows which rows moved.

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

constexpr const char* kSdpaMeasured =
    "bench/measurements/h100_sxm_2026-11-25_attention_validation_sdpa.csv";
constexpr const char* kOwnMeasured =
    "bench/measurements/h100_sxm_2026-11-25_attention_validation_ref.csv";

report::ComparedRows compare_file(const char* file) {
  const workloads::GemmScheduleRegistry schedules = workloads::builtin_gemm_schedules();
  const auto rows = workloads::read_measured_csv(std::filesystem::path(TILESIM_SOURCE_DIR) / file,
                                                 schedules.names());
  EXPECT_TRUE(rows.ok()) << rows.diagnostics.format();
  if (!rows.ok()) return {};
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm.measured");
  auto compared = workloads::simulate_measured_attention(rows.value->attention, spec, schedules);
  EXPECT_TRUE(compared.ok()) << compared.diagnostics.format();
  report::ComparedRows result;
  if (!compared.ok()) return result;
  EXPECT_TRUE(compared.value->skipped.empty()) << "every row is within the cost budget";
  result.attention = std::move(compared.value->compared);
  return result;
}

report::AccuracyMetrics metrics(const report::ComparisonSummary& summary,
                                const std::string& label) {
  for (const report::LabeledMetrics& m : summary.attention.implementations) {
    if (m.label == label) return m.metrics;
  }
  for (const report::LabeledMetrics& m : summary.attention.classes) {
    if (m.label == label) return m.metrics;
  }
  ADD_FAILURE() << "no rows for " << label;
  return {};
}

double error_percent(const workloads::ComparedAttention& row) {
  return 100 * (row.predicted_us - row.measured.time_us) / row.measured.time_us;
}

void expect_ratios_within(const report::ComparisonSummary& summary, double limit_percent) {
  EXPECT_FALSE(summary.attention.fused_unfused.empty());
  for (const report::FusedUnfusedRatio& r : summary.attention.fused_unfused) {
    EXPECT_LE(100 * std::abs(r.predicted / r.measured - 1), limit_percent)
        << r.shape << " " << r.fused << " / " << r.unfused << ": measured " << r.measured
        << ", predicted " << r.predicted;
  }
}

// PyTorch SDPA's four backends (57 rows), today on h100_sxm.measured. These
// rows were read while the model was built: they are "seen", no longer a
// held-out set (validation 3 below is the held-out one).
constexpr int kMinSdpaCases = 57;
constexpr double kMaxSdpaFlashMapePercent = 9.1;  // today 8.6 (was 18.1); target 15
constexpr double kMaxSdpaCudnnMapePercent = 7.4;  // today 6.9; target 15
constexpr double kMaxSdpaEfficientMapePercent =
    14.6;  // today 14.1 (refitted under the power law); no target
constexpr double kMaxSdpaMathMapePercent = 9.2;  // today 8.7; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent =
    24;  // today 23.5 (sdpa_efficient decode 16k b8; was 37.0)
constexpr double kMinSdpaPearsonLogR = 0.995;  // today 0.998, all rows
// Today 23.6, 11 of 16 shapes within 15% (was 6). Target 15 on every shape.
constexpr double kMaxSdpaFusedUnfusedErrorPercent = 24.1;

// Our own kernels (64 rows).
constexpr int kMinOwnCases = 64;
constexpr double kMaxOwnPrefillMapePercent =
    7.5;  // today 7.0 (6.5 before GEMM round 4: exact-LRU L2, power law; was 13.4)
constexpr double kMaxOwnMapePercent = 7.8;        // today 7.3 (was 11.8); target 10
constexpr double kMaxOwnCaseErrorPercent = 32.8;  // today 32.3 (unfused 1k b8); target 25 (not met)
// Today 31.6 (unfused 1k b8); 5 of 7 shapes within 15%. Target 15 on every shape.
constexpr double kMaxOwnFusedUnfusedErrorPercent = 32.1;
constexpr double kMinOwnDecodeTop1Share = 0.9;  // today 10 of 11 (0.91); target 0.85

// Validation 3 (kernels/studies/attention_validation_3.yaml): HELD OUT,
// measured once with the model of 5769d03 and not fitted on; the limits hold
// its figures with half a point of room.
constexpr const char* kSdpaMeasured3 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_3_sdpa.csv";
constexpr const char* kOwnMeasured3 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_3_ref.csv";
constexpr int kMinSdpaCases3 = 53;
constexpr double kMaxSdpaFlashMapePercent3 = 12.9;      // today 12.4; target 15
constexpr double kMaxSdpaCudnnMapePercent3 = 8.7;       // today 8.2; target 15
constexpr double kMaxSdpaEfficientMapePercent3 = 13.2;  // today 12.7; no target
constexpr double kMaxSdpaMathMapePercent3 = 9.9;        // today 9.4; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent3 = 40.8;      // today 40.3 (FA2 decode 64k b1 fp16)
constexpr double kMinSdpaPearsonLogR3 = 0.995;          // today 0.997
// Today 46.1 (cuDNN d64 3500 MHA), 7 of 13 within 15%. Target 15 on every shape (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent3 = 46.6;
constexpr int kMinOwnCases3 = 89;
constexpr double kMaxOwnMapePercent3 = 9.9;  // today 9.4; target 10
constexpr double kMaxOwnPrefillMapePercent3 =
    9.2;  // today 8.7, 8.1 before GEMM round 4 (mma.sync flash and unfused)
constexpr double kMaxOwnCaseErrorPercent3 =
    38;  // today 37.5 (paged_v2 64k b1); target 25 (not met)
// Today 23.5 (fp16 d64 640 b16), 10 of 12 within 15%. Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent3 = 24;
constexpr double kMinOwnDecodeTop1Share3 = 0.66;  // today 10 of 15 (0.67); target 0.85 (not met)

struct SdpaLimits {
  int min_cases;
  double flash_mape, cudnn_mape, efficient_mape, math_mape, case_error, min_pearson_log_r,
      fused_unfused_error;
};

void expect_sdpa_within(const char* file, const SdpaLimits& limit) {
  const report::ComparedRows rows = compare_file(file);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);

  EXPECT_GE(summary.attention.all.cases, limit.min_cases);
  EXPECT_LE(metrics(summary, "sdpa_flash").mape_percent, limit.flash_mape);
  EXPECT_LE(metrics(summary, "sdpa_cudnn").mape_percent, limit.cudnn_mape);
  EXPECT_LE(metrics(summary, "sdpa_efficient").mape_percent, limit.efficient_mape);
  EXPECT_LE(metrics(summary, "sdpa_math").mape_percent, limit.math_mape);
  for (const workloads::ComparedAttention& row : rows.attention) {
    EXPECT_LE(std::abs(error_percent(row)), limit.case_error)
        << row.measured.workload.name << " (" << row.simulated << "): measured "
        << row.measured.time_us << " us, predicted " << row.predicted_us;
  }
  EXPECT_GE(summary.attention.all.pearson_log_r, limit.min_pearson_log_r);
  expect_ratios_within(summary, limit.fused_unfused_error);
}

struct OwnLimits {
  int min_cases;
  double mape, prefill_mape, case_error, fused_unfused_error, min_decode_top1_share;
};

void expect_own_within(const char* file, const OwnLimits& limit) {
  const report::ComparedRows rows = compare_file(file);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);

  EXPECT_GE(summary.attention.all.cases, limit.min_cases);
  EXPECT_LE(summary.attention.all.mape_percent, limit.mape);
  EXPECT_LE(metrics(summary, "tilesim_ref prefill").mape_percent, limit.prefill_mape);
  for (const workloads::ComparedAttention& row : rows.attention) {
    EXPECT_LE(std::abs(error_percent(row)), limit.case_error)
        << row.measured.workload.name << " (" << row.simulated << "): measured "
        << row.measured.time_us << " us, predicted " << row.predicted_us;
  }
  expect_ratios_within(summary, limit.fused_unfused_error);
  EXPECT_GT(summary.attention.decode_choice.groups.size(), 0u);
  EXPECT_GE(summary.attention.decode_choice.top1_share(), limit.min_decode_top1_share);
}

TEST(H100AttentionAccuracy, SdpaBackends) {
  expect_sdpa_within(kSdpaMeasured, {kMinSdpaCases, kMaxSdpaFlashMapePercent,
                                     kMaxSdpaCudnnMapePercent, kMaxSdpaEfficientMapePercent,
                                     kMaxSdpaMathMapePercent, kMaxSdpaCaseErrorPercent,
                                     kMinSdpaPearsonLogR, kMaxSdpaFusedUnfusedErrorPercent});
}

TEST(H100AttentionAccuracy, OwnKernels) {
  expect_own_within(kOwnMeasured, {kMinOwnCases, kMaxOwnMapePercent, kMaxOwnPrefillMapePercent,
                                   kMaxOwnCaseErrorPercent, kMaxOwnFusedUnfusedErrorPercent,
                                   kMinOwnDecodeTop1Share});
}

TEST(H100AttentionAccuracy, SdpaBackendsValidation3) {
  expect_sdpa_within(kSdpaMeasured3, {kMinSdpaCases3, kMaxSdpaFlashMapePercent3,
                                      kMaxSdpaCudnnMapePercent3, kMaxSdpaEfficientMapePercent3,
                                      kMaxSdpaMathMapePercent3, kMaxSdpaCaseErrorPercent3,
                                      kMinSdpaPearsonLogR3, kMaxSdpaFusedUnfusedErrorPercent3});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation3) {
  expect_own_within(kOwnMeasured3, {kMinOwnCases3, kMaxOwnMapePercent3, kMaxOwnPrefillMapePercent3,
                                    kMaxOwnCaseErrorPercent3, kMaxOwnFusedUnfusedErrorPercent3,
                                    kMinOwnDecodeTop1Share3});
}

}  // namespace
}  // namespace tilesim::validation
