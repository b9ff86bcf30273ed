// Accuracy guard for attention (docs/validation.md, "Attention"): re-simulates
// the committed measurements of the attention validation studies 1, 3, 4, 5,
// 6 and 7 (seen) and 10 (held out) -- PyTorch SDPA's backends and our own
// kernels -- on the calibrated hardware file, the way `tilesim compare` does.
//
// Each implementation runs with the attention profile of its class
// (configs/attention/, mapped by workloads/attention/attention_implementations.cpp),
// fitted on microbenchmarks and the named calibration cases only
// (kernels/studies/attention_calibration{,_2,_3,_4,_5}.yaml, round 6's A/B rows and round 7's
// profiler study kernels/studies/ncu_attention_unfused.yaml). The limits
// below hold today's accuracy with a little room, so a change that makes predictions worse fails
// here; the targets are written beside each, and where one is not met docs/validation.md
// says why. The whole comparison is printed, so a failure shows which rows moved.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <span>
#include <string_view>

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
constexpr double kMaxSdpaFlashMapePercent =
    9.3;  // today 9.2 (9.1 before l2.reader_drift; was 18.1); target 15
constexpr double kMaxSdpaCudnnMapePercent = 5.3;  // today 4.7 (round 4: 6.9); target 15
constexpr double kMaxSdpaEfficientMapePercent =
    14.6;  // today 14.1 (refitted under the power law); no target
constexpr double kMaxSdpaMathMapePercent = 9.2;  // today 8.7; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent =
    24;  // today 23.5 (sdpa_efficient decode 16k b8; was 37.0)
constexpr double kMinSdpaPearsonLogR = 0.995;  // today 0.998, all rows
// Today 15.1, 15 of 16 shapes within 15% (round 4: 23.6, 11). Target 15 on every shape.
constexpr double kMaxSdpaFusedUnfusedErrorPercent = 15.7;

// Our own kernels (64 rows). Their decode rows were measured with the
// pre-round-4 decode CTA, whose lone CTAs stream ~25% slower than today's
// (bench/measurements/h100_sxm_2026-11-26_attention_paged_v2_ab_{old,new}.csv)
// and whose paged_v2 cut 512-key partitions: the model of today runs today's
// kernels, so those rows read fast (round 4: 11.4%, was 7.3%; round 5: 8.4%;
// round 6, whose decode kernels stream lone and paged CTAs faster still: 10.1%).
constexpr int kMinOwnCases = 64;
constexpr double kMaxOwnPrefillMapePercent = 7.2;  // today 6.7 (6.2 before GEMM round 4)
constexpr double kMaxOwnMapePercent = 10.6;        // today 10.1 (round 5: 8.4); target 10
// Today 40.8 (paged_v2 64k b4 MQA, old 512-key partitions); target 25 (not met).
constexpr double kMaxOwnCaseErrorPercent = 41.3;
// Today 26.2 (unfused 512 b16), 5 of 7 shapes within 15%. Target 15 on every shape.
constexpr double kMaxOwnFusedUnfusedErrorPercent = 26.7;
// Today 9 of 11 (round 5: 10; round 4: 8): Stream-K predicted at 64 x 8k and
// 256 x 1k, where split-KV with one split measured 2% faster. Target 0.85.
constexpr double kMinOwnDecodeTop1Share = 0.81;

// Validation 3 (kernels/studies/attention_validation_3.yaml): measured once
// with the model of 5769d03, held out until round 4 read it ("seen" now); the
// limits hold its figures with half a point of room.
constexpr const char* kSdpaMeasured3 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_3_sdpa.csv";
// Our kernels' rows of validation 3 as the round-4 kernels run them: the
// prefill and unfused rows of the original file and the 29 of its 59 decode
// rows re-measured with the round-4 decode kernels (the JSON sidecar lists the
// 30 left out); seen, no longer held out.
constexpr const char* kOwnMeasured3 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_3_round4_ref.csv";
constexpr int kMinSdpaCases3 = 53;
constexpr double kMaxSdpaFlashMapePercent3 = 12.9;      // today 12.4; target 15
constexpr double kMaxSdpaCudnnMapePercent3 = 7.8;       // today 7.2; target 15
constexpr double kMaxSdpaEfficientMapePercent3 = 13.2;  // today 12.7; no target
constexpr double kMaxSdpaMathMapePercent3 = 9.9;        // today 9.4; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent3 = 40.8;      // today 40.3 (FA2 decode 64k b1 fp16)
constexpr double kMinSdpaPearsonLogR3 = 0.995;          // today 0.997
// Today 46.8 (cuDNN d64 3500 MHA), 9 of 13 within 15%. Target 15 on every shape (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent3 = 47.4;
constexpr int kMinOwnCases3 = 59;
// Today 7.3 (round 5: 6.7; round 4: 9.2); its decode rows ran the round-4
// kernels, slower than round 6's, so they read fast. Target 10.
constexpr double kMaxOwnMapePercent3 = 7.8;
// Today 8.8, mma.sync flash and unfused (8.1 before GEMM round 4).
constexpr double kMaxOwnPrefillMapePercent3 = 9.3;
// Today 37.1 (unfused fp16 d64 640 b16); target 25 (not met).
constexpr double kMaxOwnCaseErrorPercent3 = 37.6;
// Today 35.5 (fp16 d64 640 b16), 7 of 12 within 15%. Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent3 = 36;
constexpr double kMinOwnDecodeTop1Share3 = 0.74;  // today 6 of 8 (0.75); target 0.85 (not met)

// Validation 4 (kernels/studies/attention_validation_4.yaml): committed
// before round 4's kernel and model changes, measured once with the model of
// 043142a, held out until round 5 read it ("seen" now); today's figures with
// half a point of room (round 4's figures in parentheses).
constexpr const char* kSdpaMeasured4 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_4_sdpa.csv";
constexpr const char* kOwnMeasured4 =
    "bench/measurements/h100_sxm_2026-11-26_attention_validation_4_ref.csv";
constexpr int kMinSdpaCases4 = 37;
constexpr double kMaxSdpaFlashMapePercent4 = 14.8;      // today 14.3 (12.5); target 15
constexpr double kMaxSdpaCudnnMapePercent4 = 10.2;      // today 9.6 (16.9); target 15
constexpr double kMaxSdpaEfficientMapePercent4 = 15.2;  // today 14.7 (14.6); no target
constexpr double kMaxSdpaMathMapePercent4 = 9.7;        // today 9.2; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent4 =
    42.1;                                       // today 41.5 (82.2, cuDNN d64 fp16 128 keys b64)
constexpr double kMinSdpaPearsonLogR4 = 0.990;  // today 0.992
// Today 75.2 (62.8), FA2 vs math at 200 keys causal d64. Target 15 (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent4 = 75.7;
constexpr int kMinOwnCases4 = 75;
// Today 8.4 (round 5: 6.2; round 4: 11.9): the round-5 decode kernels' rows
// against round 6's faster kernels, as the case error below. Target 10.
constexpr double kMaxOwnMapePercent4 = 8.9;
constexpr double kMaxOwnPrefillMapePercent4 = 9.1;  // today 8.6 (7.2), mma.sync flash and unfused
// Today 31.3 (round 5: 22.1): paged_v1 at page 64 (lone CTAs, 5k b16 and a
// varlen batch), whose round-6 address path is 1.2-1.4x faster than the
// round-5 kernel these rows were measured with. Target 25.
constexpr double kMaxOwnCaseErrorPercent4 = 31.8;
// Today 29.5 (26.3), fp16 d64 128 keys b64. Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent4 = 30.0;
constexpr double kMinOwnDecodeTop1Share4 = 0.76;  // today 13 of 17; target 0.85 (not met)

// Validation 5 (kernels/studies/attention_validation_5.yaml): committed
// (40e8298) before round 5's kernel experiments and model changes, measured
// once with the final model of round 5 (452cf8d), held out until round 6 read
// it ("seen" now; nothing was fitted on it); today's figures with half a point
// of room. Its decode rows ran round 5's kernels, slower than round 6's.
constexpr const char* kSdpaMeasured5 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_5_sdpa.csv";
constexpr const char* kOwnMeasured5 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_5_ref.csv";
constexpr int kMinSdpaCases5 = 34;
constexpr double kMaxSdpaFlashMapePercent5 = 14.5;      // 14.0; target 15
constexpr double kMaxSdpaCudnnMapePercent5 = 6.1;       // 5.6; target 15
constexpr double kMaxSdpaEfficientMapePercent5 = 19.4;  // 18.9 (2 rows); no target
constexpr double kMaxSdpaMathMapePercent5 = 11.7;       // 11.2; target 15 (unfused)
constexpr double kMaxSdpaCaseErrorPercent5 = 41.4;      // 40.9 (FA2 split-KV decode 2.5k b48 d64)
constexpr double kMinSdpaPearsonLogR5 = 0.990;          // 0.992
// 54.2 (FA2 vs math at 448 keys causal), 7 of 11 within 15%. Target 15 (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent5 = 54.7;
constexpr int kMinOwnCases5 = 79;
// 5.4 with round 5's model; 7.3 with round 6's and 6.9 with round 7's, whose
// decode kernels (faster) these rows did not run. Target 10 (met).
constexpr double kMaxOwnMapePercent5 = 7.5;
constexpr double kMaxOwnPrefillMapePercent5 = 9.9;  // 9.4, mma.sync flash and unfused
// 34.0 (paged v1 page 128, 7k b16, round 5's kernel); target 25 (not met).
constexpr double kMaxOwnCaseErrorPercent5 = 34.5;
// 34.4 (144 keys b56), 3 of 5 within 15%. Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent5 = 34.9;

// Validation 5's 57 decode rows re-measured on round 7's kernels (the fused
// split-KV merge and paged address path of round 6); 37 fitted in the call's
// time. Seen.
constexpr const char* kOwnMeasured5Round7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_5_round7_ref.csv";
constexpr int kMinOwnCases5Round7 = 37;
constexpr double kMaxOwnMapePercent5Round7 = 3.8;        // 3.3 (round 5's kernels: 5.9)
constexpr double kMaxOwnCaseErrorPercent5Round7 = 12.4;  // 11.9 (paged v1 page 32, 9k b12 d64)
constexpr double kMinOwnDecodeTop1Share5Round7 = 1.0;    // 13 of 13
constexpr double kMinOwnDecodeTop1Share5 = 0.94;         // 16 of 17 (0.941); target 0.85 (met)

// Validation 6 (kernels/studies/attention_validation_6.yaml): committed
// (b89ed7c) before round 6's kernel and model changes, measured once with
// round 6's kernels and final model (a5aa54a), held out until round 7 read it
// ("seen" now; nothing was fitted on it); today's figures with half a point
// of room.
constexpr const char* kSdpaMeasured6 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_6_sdpa.csv";
constexpr const char* kOwnMeasured6 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_6_ref.csv";
constexpr int kMinSdpaCases6 = 34;
constexpr double kMaxSdpaFlashMapePercent6 = 12.3;      // 11.8; target 15 (met)
constexpr double kMaxSdpaCudnnMapePercent6 = 7.5;       // 7.0; target 15 (met)
constexpr double kMaxSdpaEfficientMapePercent6 = 18.0;  // 17.5 (2 rows); no target
constexpr double kMaxSdpaMathMapePercent6 = 7.4;        // 6.9; target 15 (unfused, met)
constexpr double kMaxSdpaCaseErrorPercent6 = 50.4;      // 49.9 (FA2 at 192 keys causal d64)
constexpr double kMinSdpaPearsonLogR6 = 0.985;          // 0.989
// 82.1 (FA2 vs math at 192 keys causal d64), 5 of 11 within 15%. Target 15 (not met).
// Round 8's L2 slice bandwidth (fills charged beside hits) moved it to 83.8.
constexpr double kMaxSdpaFusedUnfusedErrorPercent6 = 84.3;
constexpr int kMinOwnCases6 = 70;
// 6.1 with round 6's model; 6.9 with round 7's: its 12 x 9.5k paged v2 rows ran
// the two-wave partition plan (3 partitions) that round 7's kernel replaced
// (2, one wave; the model follows the kernel). Target 10 (met).
constexpr double kMaxOwnMapePercent6 = 7.4;
constexpr double kMaxOwnPrefillMapePercent6 = 8.3;  // 7.8, mma.sync flash and unfused
// 25.0 (paged v2 page 16, 12 x 9.5k, the old plan); target 25.
constexpr double kMaxOwnCaseErrorPercent6 = 25.5;
// 23.3 (192 keys causal d64), 2 of 5 within 15%; 24.6 (512 keys causal d64) since the
// unfused path's library GEMMs each pay ramp_and_drain (0.9 us). Target 15 on every
// shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent6 = 25.1;
constexpr double kMinOwnDecodeTop1Share6 = 0.85;  // 12 of 14 (0.857); target 0.85 (met)

// Validation 7 (kernels/studies/attention_validation_7.yaml): HELD OUT,
// committed (c165e52) before round 7's kernel and model changes, measured once
// with round 7's kernels and model (e902bc6; 61 of 68 own rows in the call's
// time) and not fitted on; its figures with half a point of room.
constexpr const char* kSdpaMeasured7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_7_sdpa.csv";
constexpr const char* kOwnMeasured7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_7_ref.csv";
// Known outlier: measured with round 7's first paged v2 partition rule, which
// gave the 120000-key sequence one partition per KV head (1633 us); the rule
// was replaced after the measurement (78cbc6a) and the model follows today's
// kernel, so this row no longer describes the kernel it predicts. Re-measured
// on the final rule in kOwnRemeasured7 below.
constexpr std::string_view kOutliers7[] = {"ref_paged_v2_p32_v120000_and_23x2000_h32kv8_d128"};
constexpr int kMinSdpaCases7 = 35;
constexpr double kMaxSdpaFlashMapePercent7 = 14.2;      // 13.7; target 15 (met)
constexpr double kMaxSdpaCudnnMapePercent7 = 6.7;       // 6.2; target 15 (met)
constexpr double kMaxSdpaEfficientMapePercent7 = 20.9;  // 20.4 (3 rows); no target
constexpr double kMaxSdpaMathMapePercent7 = 10.8;       // 10.3; target 15 (unfused, met)
constexpr double kMaxSdpaCaseErrorPercent7 = 51.9;      // 51.4 (FA2 at 288 keys causal d64)
constexpr double kMinSdpaPearsonLogR7 = 0.985;          // 0.989
// 92.7 (FA2 vs math at 288 keys causal d64), 8 of 12 within 15%. Target 15 (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent7 = 93.2;
constexpr int kMinOwnCases7 = 60;
constexpr double kMaxOwnMapePercent7 = 5.7;         // 5.2; target 10 (met)
constexpr double kMaxOwnPrefillMapePercent7 = 9.3;  // 8.8, mma.sync flash and unfused
// 22.5 (our Hopper kernel, 2688 keys causal d64 fp16); target 25 (met).
constexpr double kMaxOwnCaseErrorPercent7 = 23.0;
// 35.1 (1088 keys causal MHA d64), 3 of 5 within 15%; 36.0 since the unfused path's
// library GEMMs each pay ramp_and_drain (0.9 us). Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent7 = 36.5;
constexpr double kMinOwnDecodeTop1Share7 = 0.90;  // 10 of 11 (0.909); target 0.85 (met)

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

// Round 7's paged v2 rows re-measured on the final partition rule (78cbc6a),
// with validation 7's 7 own rows its call did not reach and validation 6's
// 12 x 9.5k paged v2 rows (kernels/studies/attention_round7_remeasure.yaml).
// Seen but for those 7. Known outliers: the two paged v2 rows whose launch searched 202 / 216
// partition candidates on the host (decode_plan.cu before makespan_lower_bound, round 8 part 2):
// the search outlasted the kernel, so they timed the host (133.5 / 771.7 us); measured again
// after the fix in kOwnRemeasured7HostFix below (93.6 / 241.3 us).
constexpr const char* kOwnRemeasured7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_round7_remeasure_ref.csv";
constexpr std::string_view kOutliersRemeasured7[] = {
    "ref_paged_v2_p32_d104k_b1_h32kv4_d128", "ref_paged_v2_p32_v120000_and_23x2000_h32kv8_d128"};
constexpr int kMinOwnCasesRemeasured7 = 28;
constexpr double kMaxOwnMapePercentRemeasured7 = 4.1;  // 3.6 (6.9 with the two); target 10 (met)
// 14.5 (66.6 with the two); target 25 (met).
constexpr double kMaxOwnCaseErrorPercentRemeasured7 = 15.0;
constexpr double kMinOwnDecodeTop1ShareRemeasured7 = 1.0;  // 6 of 6

// Those two rows after the host-search fix (round 8 part 3's device call,
// kernels/studies/attention_round7_remeasure_hostfix.yaml; the same kernel and plans).
constexpr const char* kOwnRemeasured7HostFix =
    "bench/measurements/h100_sxm_2026-11-27_attention_round7_remeasure_hostfix_ref.csv";
constexpr int kMinOwnCasesRemeasured7HostFix = 2;
constexpr double kMaxOwnMapePercentRemeasured7HostFix = 5.6;       // 5.1
constexpr double kMaxOwnCaseErrorPercentRemeasured7HostFix = 7.5;  // 7.0, 120000 + 23 x 2000

// Validation 8 (kernels/studies/attention_validation_8.yaml): held out, 16 decode rows measured
// once (device call 1 of round 8, on the build with five K/V stages at d 128, which round 8 then
// reverted: the same call's A/B puts it within 0-3% of today's kernel), with the final model; its
// figures with half a point of room.
constexpr const char* kOwnMeasured8 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_8_ref.csv";
constexpr int kMinOwnCases8 = 16;
constexpr double kMaxOwnMapePercent8 = 10.6;  // 10.1; target 10 (not met)
// 67.2: paged v2 page 32 on 90000 + 15 x 3100 (670 us; split-KV 197 on the same cut): the
// launch's host-side partition search timed, not the kernel (measured again after the fix in
// kOwnMeasured8Final below: 202.2 us).
constexpr double kMaxOwnCaseErrorPercent8 = 67.7;
constexpr double kMinOwnDecodeTop1Share8 = 0.8;  // 4 of 5; target 0.85 (not met)

// Validation 8 again on the final kernel (four K/V stages) after the host-side partition search
// was fixed (decode_plan.cu's makespan_lower_bound; round 8 part 3's device call): every row is
// the kernel's time now, none left out. Before the fix (round 8 part 2,
// ..._validation_8_final_ref.csv) five paged v2 rows timed the host's search (15.4% MAPE, worst
// -69.8%). Its figures with half a point of room.
constexpr const char* kOwnMeasured8Final =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_8_hostfix_ref.csv";
constexpr int kMinOwnCases8Final = 16;
constexpr double kMaxOwnMapePercent8Final = 4.6;        // 4.1; target 10 (met)
constexpr double kMaxOwnCaseErrorPercent8Final = 16.8;  // 16.3: paged v2 p16, 16 x 5500 d 64
constexpr double kMinOwnDecodeTop1Share8Final = 1.0;    // 5 of 5; target 0.85 (met)

// Round 8's A/B study (kernels/studies/attention_decode_ab_8.yaml) on the final kernel after the
// host-search fix (the same call): 21 decode rows, seen; its figures with half a point of room.
constexpr const char* kOwnMeasuredAb8 =
    "bench/measurements/h100_sxm_2026-11-27_attention_round8_ab_hostfix.csv";
constexpr int kMinOwnCasesAb8 = 21;
constexpr double kMaxOwnMapePercentAb8 = 3.0;       // 2.5
constexpr double kMaxOwnCaseErrorPercentAb8 = 7.5;  // 7.0: paged v2 p32, 120000 + 23 x 2000
constexpr double kMinOwnDecodeTop1ShareAb8 = 1.0;   // 6 of 6

// Round 9's paged address path (one vector load of a block's pages, the address math deferred
// to the copies; timed on 4f6fa8e, whose only difference to today's kernel is a block-table load
// for a cursor past the batch): the files that time paged v1/v2, re-measured in the same device
// calls (bench/measurements/h100_sxm_2026-11-27_attention_round9_NOTES.md). Paged rows now run
// 3-9% faster than the rows above measured, the model is unchanged, so paged rows read slow
// (bias +1 to +4%). Each with half a point of room.
struct DecodeFile {
  const char* file;
  int min_cases;
  double mape, case_error, min_decode_top1_share;
};
constexpr DecodeFile kRound9Files[] = {
    // Every file again on the final kernel (372fb74: no block-table load past the batch), in
    // attn10's and the lead's device calls: the rows repeat 4f6fa8e's within -2.3 to +1.7%
    // (paged) and -1.5 to +0.9% (varlen, but for two bimodal d 64 rows);
    // bench/measurements/h100_sxm_2026-11-27_attention_round9_NOTES.md, "Final kernel".
    // Validation 8 (seen since round 8): 5.3, worst +12.5 (paged v2 p16, 90000 + 15 x 3100).
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_8_round9_final_ref.csv", 16, 5.8,
     13.0, 1.0},
    // Round 8's A/B study: 3.4, worst +8.7 (paged v2 p32, 120000 + 23 x 2000).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_ab8_final_ref.csv", 21, 3.9, 9.2,
     1.0},
    // Validation 7's paged rows and their split-KV controls: 4.3, worst +15.5 (paged v1 p16,
    // 96 x 2688).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_paged_remeasure_v7_final_ref.csv", 24,
     4.8, 16.0, 1.0},
    // Validation 6's paged rows: 4.9, worst +14.7 (paged v2 p16, 96k + 15 x 1536).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_paged_remeasure_v6_final_ref.csv", 23,
     5.4, 15.2, 1.0},
    // Validation 5's paged rows: 5.3, worst -15.8 (paged v2 p32, geometric 3 to 50k, d 64).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_paged_remeasure_v5_final_ref.csv", 24,
     5.8, 16.3, 1.0},
    // The varlen flash_decoding rows on round 8's default split count (no variant pairs): 5.8,
    // worst -35.8 (4 x 24576 + 92 x 384 d 64 at 22 splits, whose median moves between calls:
    // 49.6, 54.0, 46.8 us, its minimum 33-34; docs/validation.md, "Round 9").
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_varlen_default_final_ref.csv", 23,
     6.3, 36.3, 1.0},
};

struct OwnLimits {
  int min_cases;
  double mape, prefill_mape, case_error, fused_unfused_error, min_decode_top1_share;
};

// The file's rows compared, less `known_outliers`, each named in the output
// (and why, beside the list).
report::ComparedRows compare_file_without(const char* file,
                                          std::span<const std::string_view> known_outliers) {
  report::ComparedRows rows = compare_file(file);
  std::erase_if(rows.attention, [&](const workloads::ComparedAttention& row) {
    const bool outlier = std::find(known_outliers.begin(), known_outliers.end(),
                                   row.measured.workload.name) != known_outliers.end();
    if (outlier) std::cout << "known outlier, left out: " << row.measured.workload.name << "\n";
    return outlier;
  });
  return rows;
}

void expect_own_within(const char* file, const OwnLimits& limit,
                       std::span<const std::string_view> known_outliers = {}) {
  const report::ComparedRows rows = compare_file_without(file, known_outliers);
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

// Prefill files of our kernels alone (flash and unfused rows of the same
// shapes, no decode rows): round 10's held-out validation 10 and its
// re-measure of the seen unfused rows. The target for the ratio is
// every case within 15%; the guard holds how many are today.
struct PrefillFile {
  const char* file;
  int min_cases;
  double mape, case_error, fused_unfused_error;
  int min_ratios_within_15;
};

constexpr PrefillFile kRound10Files[] = {
    // Held out (14 new shapes, 10 with a host-bound unfused path): MAPE 12.7%, worst -23.1%
    // (88 x 112 keys unfused: the host's cost per call), ratios 9 of 14 within 15%, worst
    // +32.4%; a per-row cuBLAS call probe was tried on it and reverted (docs/validation.md,
    // round 10).
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_10_ref.csv", 28, 13.3, 24.0, 33.5,
     9},
    // The own unfused rows of validations 4-7 and calibrations 4-5 with their flash partners,
    // timed again in the same call: MAPE 11.6%, worst -31.2% (64 x 112 keys unfused), ratios
    // 17 of 27 within 15%, worst +48.9% (40 x 256 keys d64 fp16 causal).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round10_unfused_remeasure_ref.csv", 54, 12.2,
     32.0, 50.0, 17},
};

void expect_prefill_within(const PrefillFile& limit) {
  const report::ComparedRows rows = compare_file(limit.file);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);
  EXPECT_GE(summary.attention.all.cases, limit.min_cases);
  EXPECT_LE(summary.attention.all.mape_percent, limit.mape);
  for (const workloads::ComparedAttention& row : rows.attention) {
    EXPECT_LE(std::abs(error_percent(row)), limit.case_error)
        << row.measured.workload.name << ": measured " << row.measured.time_us << " us, predicted "
        << row.predicted_us;
  }
  expect_ratios_within(summary, limit.fused_unfused_error);
  const auto within =
      std::count_if(summary.attention.fused_unfused.begin(), summary.attention.fused_unfused.end(),
                    [](const report::FusedUnfusedRatio& r) {
                      return 100 * std::abs(r.predicted / r.measured - 1) <= 15;
                    });
  EXPECT_GE(within, limit.min_ratios_within_15);
}

TEST(H100AttentionAccuracy, OwnPrefillRound10) {
  for (const PrefillFile& f : kRound10Files) {
    SCOPED_TRACE(f.file);
    expect_prefill_within(f);
  }
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

TEST(H100AttentionAccuracy, SdpaBackendsValidation4) {
  expect_sdpa_within(kSdpaMeasured4, {kMinSdpaCases4, kMaxSdpaFlashMapePercent4,
                                      kMaxSdpaCudnnMapePercent4, kMaxSdpaEfficientMapePercent4,
                                      kMaxSdpaMathMapePercent4, kMaxSdpaCaseErrorPercent4,
                                      kMinSdpaPearsonLogR4, kMaxSdpaFusedUnfusedErrorPercent4});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation4) {
  expect_own_within(kOwnMeasured4, {kMinOwnCases4, kMaxOwnMapePercent4, kMaxOwnPrefillMapePercent4,
                                    kMaxOwnCaseErrorPercent4, kMaxOwnFusedUnfusedErrorPercent4,
                                    kMinOwnDecodeTop1Share4});
}

TEST(H100AttentionAccuracy, SdpaBackendsValidation5) {
  expect_sdpa_within(kSdpaMeasured5, {kMinSdpaCases5, kMaxSdpaFlashMapePercent5,
                                      kMaxSdpaCudnnMapePercent5, kMaxSdpaEfficientMapePercent5,
                                      kMaxSdpaMathMapePercent5, kMaxSdpaCaseErrorPercent5,
                                      kMinSdpaPearsonLogR5, kMaxSdpaFusedUnfusedErrorPercent5});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation5) {
  expect_own_within(kOwnMeasured5, {kMinOwnCases5, kMaxOwnMapePercent5, kMaxOwnPrefillMapePercent5,
                                    kMaxOwnCaseErrorPercent5, kMaxOwnFusedUnfusedErrorPercent5,
                                    kMinOwnDecodeTop1Share5});
}

TEST(H100AttentionAccuracy, SdpaBackendsValidation6) {
  expect_sdpa_within(kSdpaMeasured6, {kMinSdpaCases6, kMaxSdpaFlashMapePercent6,
                                      kMaxSdpaCudnnMapePercent6, kMaxSdpaEfficientMapePercent6,
                                      kMaxSdpaMathMapePercent6, kMaxSdpaCaseErrorPercent6,
                                      kMinSdpaPearsonLogR6, kMaxSdpaFusedUnfusedErrorPercent6});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation6) {
  expect_own_within(kOwnMeasured6, {kMinOwnCases6, kMaxOwnMapePercent6, kMaxOwnPrefillMapePercent6,
                                    kMaxOwnCaseErrorPercent6, kMaxOwnFusedUnfusedErrorPercent6,
                                    kMinOwnDecodeTop1Share6});
}

struct DecodeLimits {
  int min_cases;
  double mape, case_error, min_decode_top1_share;
};

// Files of our decode kernels alone (no prefill rows, no fused/unfused pairs).
void expect_decode_within(const char* file, const DecodeLimits& limit,
                          std::span<const std::string_view> known_outliers = {}) {
  const report::ComparedRows rows = compare_file_without(file, known_outliers);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);
  EXPECT_GE(summary.attention.all.cases, limit.min_cases);
  EXPECT_LE(summary.attention.all.mape_percent, limit.mape);
  EXPECT_LE(summary.attention.all.max_ape_percent, limit.case_error);
  EXPECT_GE(summary.attention.decode_choice.top1_share(), limit.min_decode_top1_share);
}

TEST(H100AttentionAccuracy, OwnKernelsValidation5Round7) {
  expect_decode_within(kOwnMeasured5Round7,
                       {kMinOwnCases5Round7, kMaxOwnMapePercent5Round7,
                        kMaxOwnCaseErrorPercent5Round7, kMinOwnDecodeTop1Share5Round7});
}

TEST(H100AttentionAccuracy, OwnKernelsRound7Remeasure) {
  expect_decode_within(kOwnRemeasured7,
                       {kMinOwnCasesRemeasured7, kMaxOwnMapePercentRemeasured7,
                        kMaxOwnCaseErrorPercentRemeasured7, kMinOwnDecodeTop1ShareRemeasured7},
                       kOutliersRemeasured7);
}

TEST(H100AttentionAccuracy, OwnKernelsRound7RemeasureHostFix) {
  expect_decode_within(kOwnRemeasured7HostFix,
                       {kMinOwnCasesRemeasured7HostFix, kMaxOwnMapePercentRemeasured7HostFix,
                        kMaxOwnCaseErrorPercentRemeasured7HostFix, 1.0});  // no variant pair
}

TEST(H100AttentionAccuracy, OwnKernelsValidation8) {
  expect_decode_within(kOwnMeasured8, {kMinOwnCases8, kMaxOwnMapePercent8, kMaxOwnCaseErrorPercent8,
                                       kMinOwnDecodeTop1Share8});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation8Final) {
  expect_decode_within(kOwnMeasured8Final,
                       {kMinOwnCases8Final, kMaxOwnMapePercent8Final, kMaxOwnCaseErrorPercent8Final,
                        kMinOwnDecodeTop1Share8Final});
}

TEST(H100AttentionAccuracy, OwnKernelsRound8AbHostFix) {
  expect_decode_within(kOwnMeasuredAb8, {kMinOwnCasesAb8, kMaxOwnMapePercentAb8,
                                         kMaxOwnCaseErrorPercentAb8, kMinOwnDecodeTop1ShareAb8});
}

TEST(H100AttentionAccuracy, OwnKernelsRound9Remeasures) {
  for (const DecodeFile& f : kRound9Files) {
    SCOPED_TRACE(f.file);
    expect_decode_within(f.file, {f.min_cases, f.mape, f.case_error, f.min_decode_top1_share});
  }
}
TEST(H100AttentionAccuracy, SdpaBackendsValidation7) {
  expect_sdpa_within(kSdpaMeasured7, {kMinSdpaCases7, kMaxSdpaFlashMapePercent7,
                                      kMaxSdpaCudnnMapePercent7, kMaxSdpaEfficientMapePercent7,
                                      kMaxSdpaMathMapePercent7, kMaxSdpaCaseErrorPercent7,
                                      kMinSdpaPearsonLogR7, kMaxSdpaFusedUnfusedErrorPercent7});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation7) {
  expect_own_within(
      kOwnMeasured7,
      {kMinOwnCases7, kMaxOwnMapePercent7, kMaxOwnPrefillMapePercent7, kMaxOwnCaseErrorPercent7,
       kMaxOwnFusedUnfusedErrorPercent7, kMinOwnDecodeTop1Share7},
      kOutliers7);
}

}  // namespace
}  // namespace tilesim::validation
