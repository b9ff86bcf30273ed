// Accuracy guard for attention on the H200 (docs/validation.md, "Attention"):
// re-simulates attention validation 15, the first attention timings on an
// H200, on the calibrated H200 file (h200_sxm.measured), as `tilesim compare
// --hw h200_sxm.measured` does. Every attention profile was fitted on H100
// data, so this file is held out: measured once (round 19) before that
// round's model edits, not fitted on. The limits hold round 19's figures with
// half a point of room (the lead's model before round 19 in parentheses);
// the targets are written beside each.

#include <gtest/gtest.h>

#include <iostream>

#include "tests/validation/attention_accuracy_checks.hpp"

namespace tilesim::validation {
namespace {

constexpr const char* kH200Measured = "h200_sxm.measured";

// Our kernels (65 rows: 18 prefill shapes on both flash kernels and the
// unfused path, 4 decode problems on 2-3 variants each).
constexpr const char* kOwnMeasured15 =
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_15_ref.csv";
constexpr OwnLimits kOwnLimits15{
    65,
    9.3,   // 8.8 (10.9); target 10
    11.2,  // 10.7 (12.5), mma.sync flash and unfused
    // 85.7 (81.5): unfused 36 x 333 keys d 128 fp16 (the one-element softmax
    // path on a host-bound row); target 25 (not met). 82.3 before the H200's
    // graph_node became the storing nodes' 0.78 us (0.53): each dependent
    // kernel's front-end gap is graph_node - cta_dispatch.
    86.2,
    // 102.3 (105.5): the same row against our mma.sync kernel (98.7 with
    // graph_node 0.53, against the wgmma kernel); 20 of 36 within 15% (16).
    // Target 15 on every shape (not met).
    102.8,
    0.99,  // 4 of 4 (4 of 4); target 0.85 (met)
};

// PyTorch SDPA's backends on 8 of its shapes (27 rows; round 19 leaves them
// as they were): FA2 19.6%, cuDNN 9.5%, efficient 13.1% (3 rows), math
// 11.5%, worst -53.1% (FA2 at 24 x 448 keys causal d 64), ratios worst 91.3%
// (the same shape, FA2 vs math).
constexpr const char* kSdpaMeasured15 =
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_15_sdpa.csv";
constexpr SdpaLimits kSdpaLimits15{27, 20.1, 10.0, 13.6, 12.0, 53.6, 0.98, 91.8};

TEST(H200AttentionAccuracy, OwnKernelsValidation15) {
  expect_own_within(kOwnMeasured15, kOwnLimits15, {}, kH200Measured);
}

TEST(H200AttentionAccuracy, SdpaBackendsValidation15) {
  expect_sdpa_within(kSdpaMeasured15, kSdpaLimits15, kH200Measured);
}

// Attention validation 16 (kernels/studies/attention_validation_16.yaml, 14
// shapes none of which a tracked file held), measured once in round 21 after
// its one candidate mechanism (the d 64 GEMM rate) came out at 1.00 on its
// microbenchmark, so no model change: these are the lead's figures on it, with
// half a point of room. Our kernels, 41 rows: 9.1% (wgmma flash 13.1%, its d
// 64 rows -13 to -21%), worst +35.1% (unfused 2 x 2900 keys d 128, host-bound
// per-sequence launches); ratios worst +43.9% (wgmma flash at 3 x 2300 d 64
// fp16), 12 of 22 within 15%; top-1 3 of 3.
constexpr const char* kOwnMeasured16 =
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_16_ref.csv";
// Round 18 (cuBLAS's align2 copies on 4- and 8-byte rows, judged on held-out
// validation 18 and attention validation 19): 9.5%, prefill 10.3% (was 9.5),
// worst -29.0% (unfused 2 x 3900 d 64; the 2900-key row +35.1 -> -7.8%): the
// unfused rows now share the H200's low unaligned level (align1 rows -15 to -27%).
constexpr OwnLimits kOwnLimits16{41, 10.0, 10.9, 35.6, 44.4, 0.99};

// SDPA on 6 of its shapes (21 rows): FA2 25.8% (its causal rows at 216-1100
// keys, none a multiple of the 128-row tile, -38 to -39%), cuDNN 9.0%,
// efficient 16.9%, math 11.6%; worst -39.1%; ratios worst +48.7% (FA2 against
// math at 6 x 1100 keys causal d 64).
constexpr const char* kSdpaMeasured16 =
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_16_sdpa.csv";
constexpr SdpaLimits kSdpaLimits16{21, 26.3, 9.5, 17.4, 12.1, 39.6, 0.99, 49.2};

TEST(H200AttentionAccuracy, OwnKernelsValidation16) {
  expect_own_within(kOwnMeasured16, kOwnLimits16, {}, kH200Measured);
}

TEST(H200AttentionAccuracy, SdpaBackendsValidation16) {
  expect_sdpa_within(kSdpaMeasured16, kSdpaLimits16, kH200Measured);
}

// Attention validation 20 (kernels/studies/attention_validation_20.yaml, 18
// prefill shapes none of which a tracked file held, each on both flash kernels
// and the unfused path), measured once in round 24 before that round's model
// edit (our Hopper kernel's softmax waits for its scores, set from the code
// and the wgmma block ladder, not from these rows). 54 rows: 7.0% (9.4%
// before; wgmma flash 10.6 -> 3.5%, its d 64 rows -8 to -20% -> -5 to +8%),
// worst -28.5% (unfused 3 x 2750 d 64 causal: 4-byte score rows, the H200's
// unaligned cuBLAS level); ratios worst -31.3% (wgmma at 1 x 4500 d 64
// causal, whose unfused row is -26%: the same level), 23 of 36 within 15%
// (23 before). Half a point of room; targets: ratios within 15% on every
// case (not met), own worst <= 25% (not met).
constexpr PrefillFile kOwnValidation20{
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_20_ref.csv",
    54,
    7.5,
    29.0,
    31.8,
    23,
    kH200Measured};

TEST(H200AttentionAccuracy, OwnPrefillValidation20) {
  expect_prefill_within(kOwnValidation20);
}

// Attention validation 21 (kernels/studies/attention_validation_21.yaml, 18
// prefill shapes with no length of a tracked file: short and chunked causal
// rows, score rows on 16-, 8-, 4- and 2-byte boundaries; each on both flash
// kernels and the unfused path, 12 on SDPA), committed before round 25's model
// changes and measured once before them: the lead's figures on it, half a
// point of room. Ours, 54 rows: 8.6% (mma.sync flash 8.1, its short causal d
// 64 rows -12 to -15%; wgmma 4.1; unfused 13.8), worst +77.3% (unfused 16 x
// 130 x 2222 d 128 causal: 4-byte score rows 130 long); ratios worst +71.0%
// (the same row), 24 of 36 within 15%.
constexpr PrefillFile kOwnValidation21{
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_21_ref.csv",
    54,
    9.1,
    77.8,
    71.5,
    24,
    kH200Measured};

TEST(H200AttentionAccuracy, OwnPrefillValidation21) {
  expect_prefill_within(kOwnValidation21);
}

// SDPA on 12 of validation 21's shapes (33 rows): FA2 17.1% (short causal d
// 64 rows -21 to -40%), cuDNN 5.3%, efficient 30.0% (one row), math 9.5%;
// worst -39.5%; ratios worst +50.6% (FA2 against math at 12 x 528 keys causal
// d 64).
constexpr SdpaLimits kSdpaLimits21{33, 17.6, 5.8, 30.5, 10.0, 40.0, 0.97, 51.1};

TEST(H200AttentionAccuracy, SdpaBackendsValidation21) {
  expect_sdpa_within("bench/measurements/h200_sxm_2026-11-28_attention_validation_21_sdpa.csv",
                     kSdpaLimits21, kH200Measured);
}

// Attention validation 22 (kernels/studies/attention_validation_22.yaml, 18
// prefill shapes with no length of a tracked file; both flash kernels and the
// unfused path, 9 on SDPA), measured once and sealed before stop 35's
// changes, then opened once to judge them: cuBLAS's unaligned menu (not
// kept; it left these rows unchanged) and round 26's lone flash CTA (kept:
// mma.sync flash 7.3 -> 5.6%). The figures after round 26, half a point of
// room. Ours, 54 rows: 6.8% (mma.sync flash 5.6, wgmma 4.2, unfused 10.5),
// worst +23.8% (unfused); ratios worst -25.5% (wgmma against unfused at 8 x
// 900 keys causal d 64), 25 of 36 within 15%. Round 27 (the mma.sync CTA's
// fixed work takes the SM's time: mma.sync flash 5.6 -> 4.2%, worst 12.4 ->
// 8.2%): 23 of 36, the ratios at 180 d 128 causal, 326 d 128 and 623 d 64
// were within 15% by their flash rows' error and now carry the unfused rows'.
constexpr PrefillFile kOwnValidation22{
    "bench/measurements/h200_sxm_2026-11-29_attention_validation_22_ref.csv",
    54,
    7.3,
    24.3,
    26.0,
    23,
    kH200Measured};

TEST(H200AttentionAccuracy, OwnPrefillValidation22) {
  expect_prefill_within(kOwnValidation22);
}

// SDPA on 9 of validation 22's shapes (28 rows), after round 26: FA2 18.5%
// (19.3 before), cuDNN 8.0%, efficient 25.0% (two rows), math 15.5%; worst
// -38.8%; ratios worst +37.6% (FA2 against math at 24 x 380 keys causal d 64).
constexpr SdpaLimits kSdpaLimits22{28, 19.0, 8.5, 25.5, 16.0, 39.3, 0.99, 38.1};

TEST(H200AttentionAccuracy, SdpaBackendsValidation22) {
  expect_sdpa_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_22_sdpa.csv",
                     kSdpaLimits22, kH200Measured);
}

// Attention validation 23 (kernels/studies/attention_validation_23.yaml, 18
// prefill shapes of 93-3767 keys with no length of a tracked file), measured
// once and sealed in stop 35, opened once in stop 36 to judge round 27 (our
// mma.sync flash CTA's fixed work as SM time: own flash 6.7 -> 4.4%, kept) and
// round 22 (cuBLAS's gather rate: unfused 14.0 -> 15.7%, not kept). The merged
// model's figures with half a point of room: 54 rows 7.3% (mma.sync flash
// 4.4%, wgmma flash 3.7%, unfused 14.0%); worst +37.6% (unfused); ratios worst
// +57.5% (123 keys d 128, unfused), 19 of 36 within 15%. Never fitted on.
constexpr PrefillFile kOwnValidation23{
    "bench/measurements/h200_sxm_2026-11-29_attention_validation_23_ref.csv",
    54,
    7.8,
    38.1,
    58.0,
    19,
    kH200Measured};

TEST(H200AttentionAccuracy, OwnPrefillValidation23) {
  expect_prefill_within(kOwnValidation23);
}

// SDPA on 11 of validation 23's shapes (33 rows), as opened in stop 36: FA2
// 16.3% (its short causal d 64 rows the worst), cuDNN 6.0%, efficient 3.3%
// (one row), math 15.7%; worst -35.4%; ratios worst +29.0%.
constexpr SdpaLimits kSdpaLimits23{33, 16.8, 6.5, 3.8, 16.2, 35.9, 0.99, 29.5};

TEST(H200AttentionAccuracy, SdpaBackendsValidation23) {
  expect_sdpa_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_23_sdpa.csv",
                     kSdpaLimits23, kH200Measured);
}

// Attention validation 24 (kernels/studies/attention_validation_24.yaml, 18
// prefill shapes of 77-5413 keys and 4 decode problems, no length of a
// tracked file), measured once and sealed in stop 36, opened once in stop 37
// to judge attention round 28 (FA2's fixed work as latency: FA2 16.5 -> 16.5%,
// datasheet 15.3 -> 16.0%, not kept) and GEMM round 23 (the gather rate on the
// plain GEMM path: these rows unchanged, kept). The merged model's figures
// with half a point of room: 69 rows 7.4% (prefill mma.sync flash and unfused
// 9.9%; wgmma 5.8%), worst +48.8% (unfused 229 keys d 128 causal GQA 8);
// ratios worst 62.2%, 15 of 36 within 15%; decode top-1 4 of 4. Never fitted on.
constexpr OwnLimits kOwnLimits24{69, 7.9, 10.4, 49.3, 62.7, 0.99};

TEST(H200AttentionAccuracy, OwnKernelsValidation24) {
  expect_own_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_24_ref.csv",
                    kOwnLimits24, {}, kH200Measured);
}

// SDPA on 14 of validation 24's shapes (51 rows), as opened in stop 37: FA2
// 16.5% (its short causal d 64 rows -20 to -43%), cuDNN 7.8%, efficient 19.2%
// (two rows), math 12.1%; worst -43.0%; ratios worst 53.8%, 17 of 29 within 15%.
constexpr SdpaLimits kSdpaLimits24{51, 17.0, 8.3, 19.7, 12.6, 43.5, 0.99, 54.3};

TEST(H200AttentionAccuracy, SdpaBackendsValidation24) {
  expect_sdpa_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_24_sdpa.csv",
                     kSdpaLimits24, kH200Measured);
}

// Attention validation 25 (kernels/studies/attention_validation_25.yaml, 17
// prefill shapes of 91-6142 keys and 4 decode problems plus a skewed batch, no
// length of a tracked file), measured once and sealed in stop 37, opened once
// in stop 38 to judge attention round 29 (cuBLAS's narrow-access classes on
// the unfused path: unfused worst -24.1 -> -34.8%, rows refused by the cost
// budget; not kept) and GEMM round 24 (these rows unchanged). The merged
// model's figures with half a point of room: 70 rows 6.1% (prefill 8.3%,
// unfused 12.5%, wgmma 4.3%), worst -24.1% (unfused 1367 keys d 64); ratios
// worst 28.7%, 20 of 34 within 15%; decode top-1 3 of 5 (misses by 2.2 and
// 5.7%). Never fitted on.
constexpr OwnLimits kOwnLimits25{70, 6.6, 8.8, 24.6, 29.2, 0.59};

TEST(H200AttentionAccuracy, OwnKernelsValidation25) {
  expect_own_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_25_ref.csv",
                    kOwnLimits25, {}, kH200Measured);
}

// SDPA on 15 of validation 25's shapes and its decode problems (54 rows), as
// opened in stop 38: FA2 17.1% (prefill 12.6%; its 4 decode rows -28 to -40%),
// cuDNN 6.5%, efficient 23.1% (two rows), math 13.3%; worst -39.8%; ratios
// worst 30.1%, 16 of 31 within 15%.
constexpr SdpaLimits kSdpaLimits25{54, 17.6, 7.0, 23.6, 13.8, 40.3, 0.99, 30.6};

TEST(H200AttentionAccuracy, SdpaBackendsValidation25) {
  expect_sdpa_within("bench/measurements/h200_sxm_2026-11-29_attention_validation_25_sdpa.csv",
                     kSdpaLimits25, kH200Measured);
}

// Attention validation 17 (kernels/studies/attention_validation_17.yaml, 15
// SDPA shapes none of which a tracked file held), measured once in round 22
// to judge FA2's masking steps (flash_fwd_kernel.h, n_masking_steps), which
// moved no row (the mask's CUDA-core work runs under the other resident CTA's
// GEMMs), so no model change: the lead's figures with half a point of room.
// 38 rows: FA2 23.5% (its causal rows at 136-2200 keys -21 to -51%, the
// Is_even_MN = false ones the worst; non-causal and causal >= 1700 keys within
// 9%), cuDNN 6.5%, efficient 11.0%, math 1.6%; worst -50.7%; ratios worst
// +100.3% (FA2 against math at 16 x 700 keys causal d 64 fp16).
constexpr const char* kSdpaMeasured17 =
    "bench/measurements/h200_sxm_2026-11-28_attention_validation_17_sdpa.csv";
// Round 18: math 1.6 -> 10.2% (its 700- and 1250-key rows, 8- and 4-byte
// score rows, -13 and -17%: the H200's unaligned level, as above); ratios
// worst +76.9%.
// Round 26: the lone-CTA chain moves the 5 efficient rows 11.0 -> 11.6%.
constexpr SdpaLimits kSdpaLimits17{38, 24.0, 7.0, 12.1, 10.7, 51.2, 0.96, 100.8};

TEST(H200AttentionAccuracy, SdpaBackendsValidation17) {
  expect_sdpa_within(kSdpaMeasured17, kSdpaLimits17, kH200Measured);
}

// Attention validation 18 (kernels/studies/attention_validation_18.yaml, 19
// flash shapes none of which a tracked file held), measured once in round 23
// before FA2's masking_step_cost was set (on the FA2 turn ladder, not on
// these rows). 43 rows, flash backends only (no math rows, so no fused/unfused
// ratios): FA2 13.3% (20.3% before), cuDNN 7.5%, efficient 14.8% (5 rows);
// worst -34.7% (FA2 at 64 x 184 keys causal d 64); r(log) 0.972. Half a
// point of room; target: FA2 <= 15% (met here).
TEST(H200AttentionAccuracy, SdpaBackendsValidation18) {
  const report::ComparedRows rows = compare_file(
      "bench/measurements/h200_sxm_2026-11-28_attention_validation_18_sdpa.csv", kH200Measured);
  const report::ComparisonSummary summary = report::summarize_comparison(rows);
  std::cout << report::comparison_table(rows, summary);
  EXPECT_GE(summary.attention.all.cases, 43);
  EXPECT_GE(summary.attention.all.pearson_log_r, 0.96);
  for (const report::LabeledMetrics& m : summary.attention.implementations) {
    const double limit = m.label == "sdpa_flash" ? 13.8 : m.label == "sdpa_cudnn" ? 8.0 : 15.3;
    EXPECT_LE(m.metrics.mape_percent, limit) << m.label;
    EXPECT_LE(m.metrics.max_ape_percent, 35.2) << m.label;
  }
}

}  // namespace
}  // namespace tilesim::validation
