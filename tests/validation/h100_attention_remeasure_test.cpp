// Accuracy guard for attention rows timed again on later kernels (round 7's
// partition rule, round 8's host-search fix, round 9's paged address path,
// round 10's unfused re-measure, validation 10 timed again in round 11): re-simulates each
// committed file on the calibrated hardware file, the way `tilesim compare` does. The validation
// studies as first measured are guarded in h100_attention_accuracy_test.cpp.
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

#include <string_view>

#include "tests/validation/attention_accuracy_checks.hpp"

namespace tilesim::validation {
namespace {

// Validation 5's 57 decode rows re-measured on round 7's kernels (the fused
// split-KV merge and paged address path of round 6); 37 fitted in the call's
// time. Seen.
constexpr const char* kOwnMeasured5Round7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_5_round7_ref.csv";
constexpr int kMinOwnCases5Round7 = 25;                  // today, paged rows left out
constexpr double kMaxOwnMapePercent5Round7 = 3.8;        // 3.3 (round 5's kernels: 5.9)
constexpr double kMaxOwnCaseErrorPercent5Round7 = 12.4;  // 11.9 (paged v1 page 32, 9k b12 d64)
constexpr double kMinOwnDecodeTop1Share5Round7 = 1.0;    // 13 of 13

// Round 7's paged v2 rows re-measured on the final partition rule (78cbc6a),
// with validation 7's 7 own rows its call did not reach and validation 6's
// 12 x 9.5k paged v2 rows (kernels/studies/attention_round7_remeasure.yaml).
// Seen but for those 7. Its paged rows (a superseded kernel) are left out since round 11 part 2,
// among them the two that timed the host's partition search (round 8 part 2); the ring kernel's
// re-measures of the same studies are guarded in kDecodeRemeasureFiles.
constexpr const char* kOwnRemeasured7 =
    "bench/measurements/h100_sxm_2026-11-27_attention_round7_remeasure_ref.csv";
constexpr int kMinOwnCasesRemeasured7 = 10;            // today, paged rows left out
constexpr double kMaxOwnMapePercentRemeasured7 = 4.1;  // 3.6 (6.9 with the two); target 10 (met)
// 14.5 (66.6 with the two); target 25 (met).
constexpr double kMaxOwnCaseErrorPercentRemeasured7 = 15.0;
constexpr double kMinOwnDecodeTop1ShareRemeasured7 = 1.0;  // 6 of 6

// The decode files timed again on later kernels, each with its figures and half a point of room.
// Round 11 part 2 (bench/measurements/h100_sxm_2026-11-27_attention_round11_ring_NOTES.md): the
// five paged files re-measured on the page-number ring kernel in one call, where paged rows run
// 0.69-0.98x of round 9's at page 16, and decode_turn.per_page and page_hbm refitted on the round
// 11 A/B rows (kernels/microbench/fit_decode_page_costs.py). Round 9's files of the same studies
// (..._round9_*_final_ref.csv) timed the superseded paged kernel and are no longer guarded.
struct DecodeFile {
  const char* file;
  int min_cases;
  double mape, case_error, min_decode_top1_share;
};
constexpr DecodeFile kDecodeRemeasureFiles[] = {
    // Validation 8 (seen since round 8): 1.7, worst -5.6 (paged v2 p16, 1 x 56000 fp16).
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_8_round11_ring_ref.csv", 16, 2.2,
     6.1, 1.0},
    // Round 8's A/B study: 2.5, worst +5.0 (split-KV 12 splits, 120000 + 23 x 2000).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_ab8_round11_ring_ref.csv", 21, 3.0,
     5.5, 1.0},
    // Validation 7's paged rows and their split-KV controls: 2.8, worst -10.8 (paged v1 p64, 8 x
    // 26k d 64).
    {"bench/measurements/"
     "h100_sxm_2026-11-27_attention_round9_paged_remeasure_v7_round11_ring_ref.csv",
     24, 3.3, 11.3, 1.0},
    // Validation 6's paged rows: 3.6, worst -12.0 (paged v1 p32, 48 x 3k d 64 fp16).
    {"bench/measurements/"
     "h100_sxm_2026-11-27_attention_round9_paged_remeasure_v6_round11_ring_ref.csv",
     23, 4.1, 12.5, 1.0},
    // Validation 5's paged rows: 3.0, worst -20.2 (paged v2 p32, geometric 3 to 50k, d 64).
    {"bench/measurements/"
     "h100_sxm_2026-11-27_attention_round9_paged_remeasure_v5_round11_ring_ref.csv",
     24, 3.5, 20.7, 1.0},
    // Round 9's other five page-16 problems beside split-KV (kernel development, seen): 2.9,
    // worst -7.0 (paged v2 p16, 1 x 56000 fp16).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round11_ring_page16_ref.csv", 10, 3.4, 7.5,
     1.0},
    // The varlen flash_decoding rows on round 8's default split count (no variant pairs; round 9's
    // final kernel, contiguous only): 5.8, worst -35.8 (4 x 24576 + 92 x 384 d 64 at 22 splits,
    // whose median moves between calls: 49.6, 54.0, 46.8 us, its minimum 33-34; docs/validation.md,
    // "Round 9").
    {"bench/measurements/h100_sxm_2026-11-27_attention_round9_varlen_default_final_ref.csv", 23,
     6.3, 36.3, 1.0},
};

// Validation 12 (kernels/studies/attention_validation_12.yaml): held out, ten decode problems
// (17 rows) measured once on the ring kernel, committed before it was timed and before the page
// costs were refitted: 3.1 (9.4 with round 9's page costs), worst -11.2 (paged v1 p16, 24 x 3300 d
// 64).
constexpr DecodeFile kValidation12 = {
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_12_ref.csv", 17, 3.6, 11.7, 1.0};

constexpr PrefillFile kUnfusedRemeasure10 =
    // The own unfused rows of validations 4-7 and calibrations 4-5 with their flash partners,
    // timed again in the same call: MAPE 11.6%, worst -31.2% (64 x 112 keys unfused), ratios
    // 17 of 27 within 15%, worst +48.9% (40 x 256 keys d64 fp16 causal).
    {"bench/measurements/h100_sxm_2026-11-27_attention_round10_unfused_remeasure_ref.csv",
     54,
     12.2,
     32.0,
     50.0,
     17};

constexpr PrefillFile kValidation10Round11 =
    // Validation 10's own rows timed again in round 11's call, beside validation 11: MAPE 12.3%,
    // worst -29.0% (32 x 288 keys d64 causal unfused), ratios 6 of 14 within 15% (9 of 14 as
    // first measured), worst +37.6%: host-bound unfused rows moved -36% to +61% between the two
    // leases, GPU-bound rows and every flash row within 3% (docs/validation.md, "Round 11").
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_10_round11_ref.csv", 28, 12.8,
     29.5, 38.1,
     // 5 since round 19's softmax as launched (its unfused rows right, the mma.sync flash rows
     // they are divided by read fast; docs/validation.md, round 19).
     5};

constexpr PrefillFile kValidation10Round16 =
    // Validation 10's own rows timed a third time (round 16), unfused rows with the host's enqueue
    // of a run measured right after them and simulated on it: MAPE 9.3% (12.2% on the hardware
    // file's host), worst +20.7% (56 x 128 keys d64 MHA flash), ratios 8 of 14 within 15% (6 on the
    // hardware file's host), worst +36.5% (64 x 176 keys: 1088 launches a run fill the launch
    // queue, so no host was measured) (docs/validation.md, round 16).
    {"bench/measurements/h100_sxm_2026-11-28_attention_validation_10_round16_ref.csv", 28, 9.8,
     21.2, 37.0,
     // 7 since round 19's softmax as launched (MAPE 8.6%: its unfused rows right, the mma.sync
     // flash rows they are divided by read fast; docs/validation.md, round 19).
     7};

constexpr PrefillFile kValidation11Round16 =
    // Validation 11's own rows timed again (2026-11-28, after round 16), unfused rows with the
    // host's enqueue measured right after them and simulated on it: MAPE 9.1% (9.3% as first
    // measured), worst +23.4% (24.5%), ratios 20 of 36 within 15% (23), worst +47.3% (49.0%). The
    // ratio misses are GPU-side (the softmax kernel's spilled wave at 768-1472 keys, round 16's ncu
    // times; the wgmma kernel's short rows), not the host.
    {"bench/measurements/h100_sxm_2026-11-28_attention_validation_11_round16_ref.csv",
     54,
     9.6,
     23.9,
     47.8,
     20};

TEST(H100AttentionAccuracy, OwnKernelsValidation5Round7) {
  expect_decode_within(kOwnMeasured5Round7,
                       {kMinOwnCases5Round7, kMaxOwnMapePercent5Round7,
                        kMaxOwnCaseErrorPercent5Round7, kMinOwnDecodeTop1Share5Round7});
}

TEST(H100AttentionAccuracy, OwnKernelsRound7Remeasure) {
  expect_decode_within(kOwnRemeasured7,
                       {kMinOwnCasesRemeasured7, kMaxOwnMapePercentRemeasured7,
                        kMaxOwnCaseErrorPercentRemeasured7, kMinOwnDecodeTop1ShareRemeasured7});
}

TEST(H100AttentionAccuracy, OwnKernelsValidation12) {
  expect_decode_within(kValidation12.file,
                       {kValidation12.min_cases, kValidation12.mape, kValidation12.case_error,
                        kValidation12.min_decode_top1_share});
}

TEST(H100AttentionAccuracy, OwnKernelsDecodeRemeasures) {
  for (const DecodeFile& f : kDecodeRemeasureFiles) {
    SCOPED_TRACE(f.file);
    expect_decode_within(f.file, {f.min_cases, f.mape, f.case_error, f.min_decode_top1_share});
  }
}

TEST(H100AttentionAccuracy, OwnUnfusedRound10Remeasure) {
  expect_prefill_within(kUnfusedRemeasure10);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation10Round11) {
  expect_prefill_within(kValidation10Round11);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation10Round16) {
  expect_prefill_within(kValidation10Round16);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation11Round16) {
  expect_prefill_within(kValidation11Round16);
}

}  // namespace
}  // namespace tilesim::validation
