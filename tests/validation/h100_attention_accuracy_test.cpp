// Accuracy guard for attention (docs/validation.md, "Attention"): re-simulates
// the committed measurements of the held-out attention validation study --
// PyTorch SDPA's backends and our own kernels -- on the calibrated hardware
// file, the way `tilesim compare` does.
//
// Each implementation runs with the attention profile of its class
// (configs/attention/, mapped by workloads/attention/attention_implementations.cpp),
// fitted on microbenchmarks and the named calibration cases only
// (kernels/studies/attention_calibration.yaml). The limits below hold today's
// accuracy with a little room, so a change that makes predictions worse fails
// here; the targets are written beside each, and where one is not met
// docs/validation.md says why. The whole comparison is printed, so a failure
// shows which rows moved.

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
// held-out set (kernels/studies/attention_validation_2.yaml is the next one).
constexpr int kMinSdpaCases = 57;
constexpr double kMaxSdpaFlashMapePercent = 18.6;  // today 18.1 (was 22.8); target 15 (not met)
constexpr double kMaxSdpaCudnnMapePercent = 7.6;   // today 7.1; target 15
// Today 15.8 (10.7 before the board power law: the memory-efficient profile
// was fitted under the old busy-SM clock law; refit pending); no target.
constexpr double kMaxSdpaEfficientMapePercent = 16.3;
constexpr double kMaxSdpaMathMapePercent = 9.6;    // today 9.1; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent = 37.5;  // today 37.0 (sdpa_flash p512 b16; was 93.4)
constexpr double kMinSdpaPearsonLogR = 0.995;      // today 0.997, all rows
// Today 47.5 (FA2 p512 causal, was 52.1): without the fitted 33.5 us per CTA the
// FA2 causal rows are ~20% fast, so math / FA2 comes out high; 6 of 16 shapes
// within 15% (was 8). Target 15 on every shape.
constexpr double kMaxSdpaFusedUnfusedErrorPercent = 48;

// Our own kernels (64 rows).
constexpr int kMinOwnCases = 64;
constexpr double kMaxOwnPrefillMapePercent = 13.9;  // today 13.4 (was 17.3)
constexpr double kMaxOwnMapePercent = 12.3;         // today 11.8 (was 25.2); target 10 (not met)
constexpr double kMaxOwnCaseErrorPercent = 35.2;  // today 34.7 (paged_v2 MQA; was 457.7); target 25
// Today 37.5 (fp16 d64 2k b8, was 63.2); 4 of 7 shapes within 15%, as before,
// but the worst moved from -63% to within 6% (p512 b16). Target 15 on every shape.
constexpr double kMaxOwnFusedUnfusedErrorPercent = 38;
constexpr double kMinOwnDecodeTop1Share = 0.9;  // today 10 of 11 (0.91, was 0.82); target 0.85

TEST(H100AttentionAccuracy, SdpaBackends) {
  const report::ComparedRows rows = compare_file(kSdpaMeasured);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);

  EXPECT_GE(summary.attention.all.cases, kMinSdpaCases);
  EXPECT_LE(metrics(summary, "sdpa_flash").mape_percent, kMaxSdpaFlashMapePercent);
  EXPECT_LE(metrics(summary, "sdpa_cudnn").mape_percent, kMaxSdpaCudnnMapePercent);
  EXPECT_LE(metrics(summary, "sdpa_efficient").mape_percent, kMaxSdpaEfficientMapePercent);
  EXPECT_LE(metrics(summary, "sdpa_math").mape_percent, kMaxSdpaMathMapePercent);
  for (const workloads::ComparedAttention& row : rows.attention) {
    EXPECT_LE(std::abs(error_percent(row)), kMaxSdpaCaseErrorPercent)
        << row.measured.workload.name << " (" << row.simulated << "): measured "
        << row.measured.time_us << " us, predicted " << row.predicted_us;
  }
  EXPECT_GE(summary.attention.all.pearson_log_r, kMinSdpaPearsonLogR);
  expect_ratios_within(summary, kMaxSdpaFusedUnfusedErrorPercent);
}

TEST(H100AttentionAccuracy, OwnKernels) {
  const report::ComparedRows rows = compare_file(kOwnMeasured);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);

  EXPECT_GE(summary.attention.all.cases, kMinOwnCases);
  EXPECT_LE(summary.attention.all.mape_percent, kMaxOwnMapePercent);
  EXPECT_LE(metrics(summary, "tilesim_ref prefill").mape_percent, kMaxOwnPrefillMapePercent);
  for (const workloads::ComparedAttention& row : rows.attention) {
    EXPECT_LE(std::abs(error_percent(row)), kMaxOwnCaseErrorPercent)
        << row.measured.workload.name << " (" << row.simulated << "): measured "
        << row.measured.time_us << " us, predicted " << row.predicted_us;
  }
  expect_ratios_within(summary, kMaxOwnFusedUnfusedErrorPercent);
  EXPECT_GT(summary.attention.decode_choice.groups.size(), 0u);
  EXPECT_GE(summary.attention.decode_choice.top1_share(), kMinOwnDecodeTop1Share);
}

}  // namespace
}  // namespace tilesim::validation
