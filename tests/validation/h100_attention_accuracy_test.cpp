// Accuracy guard for attention (docs/validation.md, "Attention"): re-simulates
// the committed measurements of the attention validation studies 1, 3-8 (seen)
// and 10 and 11 (held out) as first measured -- PyTorch SDPA's backends and our own
// kernels -- on the calibrated hardware file, the way `tilesim compare` does.
// The rows timed again on later kernels are guarded in
// h100_attention_remeasure_test.cpp.
//
// Each implementation runs with the attention profile of its class
// (configs/attention/, mapped by workloads/attention/attention_implementations.cpp),
// fitted on microbenchmarks and the named calibration cases only
// (kernels/studies/attention_calibration{,_2,_3,_4,_5}.yaml, round 6's A/B rows and round 7's
// profiler study kernels/studies/ncu_attention_unfused.yaml). The limits
// below hold today's accuracy with a little room, so a change that makes predictions worse fails
// here; the targets are written beside each, and where one is not met docs/validation.md
// says why. The whole comparison is printed, so a failure shows which rows moved.
//
// Since round 11 part 2 the paged rows of these files are left out (attention_accuracy_checks.cpp:
// they timed paged kernels that no longer exist, and the page costs are fitted on today's). The
// case counts and two decode top-1 shares below follow; the other limits, set with those rows in,
// still hold.

#include <gtest/gtest.h>

#include <string_view>

#include "tests/validation/attention_accuracy_checks.hpp"

namespace tilesim::validation {
namespace {

constexpr const char* kSdpaMeasured =
    "bench/measurements/h100_sxm_2026-11-25_attention_validation_sdpa.csv";
constexpr const char* kOwnMeasured =
    "bench/measurements/h100_sxm_2026-11-25_attention_validation_ref.csv";

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
constexpr int kMinOwnCases = 50;                   // today, paged rows left out
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
constexpr int kMinOwnCases3 = 46;  // today, paged rows left out
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
constexpr int kMinOwnCases4 = 55;  // today, paged rows left out
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
constexpr int kMinOwnCases5 = 55;  // today, paged rows left out
// 5.4 with round 5's model; 7.3 with round 6's and 6.9 with round 7's, whose
// decode kernels (faster) these rows did not run. Target 10 (met).
constexpr double kMaxOwnMapePercent5 = 7.5;
constexpr double kMaxOwnPrefillMapePercent5 = 9.9;  // 9.4, mma.sync flash and unfused
// 34.0 (paged v1 page 128, 7k b16, round 5's kernel); target 25 (not met).
constexpr double kMaxOwnCaseErrorPercent5 = 34.5;
// 34.4 (144 keys b56), 3 of 5 within 15%. Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent5 = 34.9;
constexpr double kMinOwnDecodeTop1Share5 = 0.94;  // 16 of 17 (0.941); target 0.85 (met)

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
constexpr int kMinOwnCases6 = 47;  // today, paged rows left out
// 6.1 with round 6's model; 6.9 with round 7's: its 12 x 9.5k paged v2 rows ran
// the two-wave partition plan (3 partitions) that round 7's kernel replaced
// (2, one wave; the model follows the kernel). Target 10 (met).
constexpr double kMaxOwnMapePercent6 = 7.4;
// 7.8, mma.sync flash and unfused; 8.7 since round 19's softmax as launched (512 keys causal d64
// unfused +25%: one-step rows whose fixed warp work the fit on 288-1472 keys sets).
constexpr double kMaxOwnPrefillMapePercent6 = 9.2;
// 25.0 (paged v2 page 16, 12 x 9.5k, the old plan); target 25.
constexpr double kMaxOwnCaseErrorPercent6 = 25.5;
// 23.3 (192 keys causal d64), 2 of 5 within 15%; 24.6 (512 keys causal d64) since the
// unfused path's library GEMMs each pay ramp_and_drain (0.9 us). Target 15 on every
// shape (not met).
// 29.4 since round 19's softmax as launched (the same 512-key row).
constexpr double kMaxOwnFusedUnfusedErrorPercent6 = 29.9;
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
constexpr double kMaxSdpaFlashMapePercent7 = 14.2;  // 13.7; target 15 (met)
constexpr double kMaxSdpaCudnnMapePercent7 = 6.7;   // 6.2; target 15 (met)
constexpr double kMaxSdpaEfficientMapePercent7 =
    21.9;  // 21.4 (3 rows; 20.4 before round 26's lone-CTA chain, which every FA2-class profile
           // pays); no target
constexpr double kMaxSdpaMathMapePercent7 = 10.8;   // 10.3; target 15 (unfused, met)
constexpr double kMaxSdpaCaseErrorPercent7 = 51.9;  // 51.4 (FA2 at 288 keys causal d64)
constexpr double kMinSdpaPearsonLogR7 = 0.985;      // 0.989
// 92.7 (FA2 vs math at 288 keys causal d64), 8 of 12 within 15%. Target 15 (not met).
constexpr double kMaxSdpaFusedUnfusedErrorPercent7 = 93.2;
constexpr int kMinOwnCases7 = 42;                   // today, paged rows left out
constexpr double kMaxOwnMapePercent7 = 5.7;         // 5.2; target 10 (met)
constexpr double kMaxOwnPrefillMapePercent7 = 9.3;  // 8.8, mma.sync flash and unfused
// 22.5 (our Hopper kernel, 2688 keys causal d64 fp16); target 25 (met).
constexpr double kMaxOwnCaseErrorPercent7 = 23.0;
// 35.1 (1088 keys causal MHA d64), 3 of 5 within 15%; 36.0 since the unfused path's
// library GEMMs each pay ramp_and_drain (0.9 us). Target 15 on every shape (not met).
constexpr double kMaxOwnFusedUnfusedErrorPercent7 = 36.5;
// 10 of 11 (0.909) with the paged rows, 7 of 8 (0.875) without; target 0.85 (met).
constexpr double kMinOwnDecodeTop1Share7 = 0.87;

// Validation 8 (kernels/studies/attention_validation_8.yaml): held out, 16 decode rows measured
// once (device call 1 of round 8, on the build with five K/V stages at d 128, which round 8 then
// reverted: the same call's A/B puts it within 0-3% of today's kernel), with the final model; its
// figures with half a point of room.
constexpr const char* kOwnMeasured8 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_8_ref.csv";
constexpr int kMinOwnCases8 = 7;              // today, paged rows left out
constexpr double kMaxOwnMapePercent8 = 10.6;  // 10.1; target 10 (not met)
// 67.2: paged v2 page 32 on 90000 + 15 x 3100 (670 us; split-KV 197 on the same cut): the
// launch's host-side partition search timed, not the kernel (measured again after the fix in
// kOwnMeasured8Final below: 202.2 us).
constexpr double kMaxOwnCaseErrorPercent8 = 67.7;
// 4 of 5 with the paged rows, 1 of 2 without (validation 8 on the ring kernel:
// kRound11RingFiles, h100_attention_remeasure_test.cpp); target 0.85.
constexpr double kMinOwnDecodeTop1Share8 = 0.5;

constexpr PrefillFile kValidation10 =
    // Held out (14 new shapes, 10 with a host-bound unfused path): MAPE 12.7%, worst -23.1%
    // (88 x 112 keys unfused: the host's cost per call), ratios 9 of 14 within 15%, worst
    // +32.4%; a per-row cuBLAS call probe was tried on it and reverted (docs/validation.md,
    // round 10).
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_10_ref.csv", 28, 13.3, 24.0, 33.5,
     // 8 since round 19's softmax as launched (its unfused rows right, the mma.sync flash rows
     // they are divided by read fast; docs/validation.md, round 19); 6 since round 27, whose
     // CTA fixed work puts the mma.sync flash rows right (8.3 -> 3.6%, worst -21.9 -> -9.8%):
     // the ratios now carry the unfused rows' -13 to -23% alone.
     6};

// Validation 11's PyTorch SDPA rows (7 of its shapes, held out, measured once in round 11):
// FA2 19.1%, cuDNN 12.7%, efficient 15.6% (3 rows), math 10.7%, worst +31.6% (FA2 at 1344 keys
// MHA d128), r(log) 0.988; ratios worst 31.1% (FA2 vs math, same shape).
constexpr const char* kSdpaMeasured11 =
    "bench/measurements/h100_sxm_2026-11-27_attention_validation_11_sdpa.csv";
constexpr SdpaLimits kSdpaLimits11{24, 19.6, 13.2, 16.1, 11.2, 32.1, 0.985, 31.6};

constexpr PrefillFile kValidation11 =
    // Held out (18 new prefill shapes, committed before measuring; our mma.sync and wgmma flash
    // kernels and the unfused path on each): MAPE 9.3%, worst +24.5% (2 x 768 keys GQA 8 d64
    // unfused), ratios 23 of 36 within 15% (12 of 18 against the mma.sync kernel), worst +49.0%
    // (the wgmma kernel at 64 x 128 keys causal). Two mechanisms were tried on it and reverted
    // (docs/validation.md, round 11).
    {"bench/measurements/h100_sxm_2026-11-27_attention_validation_11_ref.csv",
     54,
     9.8,
     25.0,
     49.5,
     23};

constexpr PrefillFile kValidation13p =
    // Held out (12 new prefill shapes, committed before measuring, each on both own flash kernels
    // and the unfused path), unfused rows on the host that enqueued them (host_enqueue_us):
    // MAPE 9.7% (15.9% of the unfused rows on the hardware file's host, 8.5% on their own),
    // worst -21.1% (our wgmma kernel at 4 x 1120 keys d64 fp16 causal), ratios 13 of 24 within
    // 15% (8 of 12 against the mma.sync kernel), worst +46.4% (docs/validation.md, round 16).
    // Round 19 (the softmax as launched, our Hopper kernel's first block): MAPE 6.3%, worst
    // +18.0% (44 x 208 keys d128 fp16 unfused), ratios 18 of 24 within 15%, worst 29.5%.
    {"bench/measurements/h100_sxm_2026-11-28_attention_validation_13p_ref.csv",
     36,
     6.8,
     18.5,
     30.0,
     18};

constexpr PrefillFile kValidation14p =
    // Held out (14 new prefill shapes, 640-1400 and 152-448 keys, committed before measuring;
    // both own flash kernels and the unfused path): MAPE 10.2%, worst +55.9% (28 x 330 keys
    // unfused: its measured host enqueue, 3595 us, is longer than the whole row), ratios 17 of
    // 28 within 15%, worst +87.8% (the same row); a CTA-per-row softmax model was measured on it
    // and reverted (docs/validation.md, round 17).
    // Round 19 (the softmax as launched, our Hopper kernel's first block): MAPE 6.5%, worst
    // +54.5% (the same row), ratios 20 of 28 within 15%, worst 68.7%.
    {"bench/measurements/h100_sxm_2026-11-28_attention_validation_14p_ref.csv",
     42,
     7.0,
     55.0,
     69.2,
     20};

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

TEST(H100AttentionAccuracy, OwnKernelsValidation8) {
  expect_decode_within(kOwnMeasured8, {kMinOwnCases8, kMaxOwnMapePercent8, kMaxOwnCaseErrorPercent8,
                                       kMinOwnDecodeTop1Share8});
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

TEST(H100AttentionAccuracy, OwnPrefillValidation10) {
  expect_prefill_within(kValidation10);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation11) {
  expect_prefill_within(kValidation11);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation13p) {
  expect_prefill_within(kValidation13p);
}

TEST(H100AttentionAccuracy, OwnPrefillValidation14p) {
  expect_prefill_within(kValidation14p);
}

TEST(H100AttentionAccuracy, SdpaBackendsValidation11) {
  expect_sdpa_within(kSdpaMeasured11, kSdpaLimits11);
}

}  // namespace
}  // namespace tilesim::validation