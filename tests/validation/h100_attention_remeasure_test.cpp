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
constexpr int kMinOwnCases5Round7 = 37;
constexpr double kMaxOwnMapePercent5Round7 = 3.8;        // 3.3 (round 5's kernels: 5.9)
constexpr double kMaxOwnCaseErrorPercent5Round7 = 12.4;  // 11.9 (paged v1 page 32, 9k b12 d64)
constexpr double kMinOwnDecodeTop1Share5Round7 = 1.0;    // 13 of 13

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
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_10_round11_ref.csv",
     28,
     12.8,
     29.5,
     38.1,
     6};

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

TEST(H100AttentionAccuracy, OwnUnfusedRound10Remeasure) {
  expect_prefill_within(kUnfusedRemeasure10);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation10Round11) {
  expect_prefill_within(kValidation10Round11);
}

}  // namespace
}  // namespace tilesim::validation
