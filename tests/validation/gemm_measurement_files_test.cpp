// Every committed GEMM measurement file (bench/measurements/*_gemm*.csv) is
// re-simulated the way `tilesim compare` does, on the calibrated H100 file:
// it must compare (each row names a kernel profile: its `profile` column, or
// for older files the compiled tile its tile columns name), and its MAPE must
// stay within the limit listed here (today's figure plus 0.5 points), so a
// change that makes any file worse fails. A new GEMM file fails until it is
// listed. docs/validation.md has the table with what each file measured.
//
// The target is own-kernel MAPE <= 10% on every file. Missed after
// round 6 (the mma.sync kernel's static tile lists and CTA speed spread, its
// refit): dataset_profile_m128n128k32w8 (16.9%: the 128x128 tile, two CTAs per
// SM), 2026-11-21 stream_k_waves (12.3%) and unaligned_calibration (11.3%).
// Round 6 made three files a little worse: 2026-11-26 validation_2_repeat
// 4.99 -> 5.51, unaligned_calibration 11.16 -> 11.34, handoff_alignment
// 4.12 -> 4.17. (The 2026-11-26 wgmma Stream-K files' round-5 figures, 8.2
// and 9.1, were already 5.2 and 6.1 on main before round 6.)
// Round 7 (the L2 model's time bound, tilesim_ref's sm90 refit) made these
// worse: dataset_profile_m128n128k32w8 16.91 -> 17.58 (own), schedule_calibration
// 6.59 -> 6.67, 2026-11-22 wgmma_repeats 5.67 -> 5.76, validation_5 5.33 -> 5.37
// (cuBLAS 6.22 -> 6.40), validation_4's cuBLAS 7.09 -> 7.22, and by 0.05 points
// or less 2026-11-22 stream_k_waves, wgmma, wgmma_head_first(_study),
// wgmma_mma_sync_baseline, 2026-11-26 wgmma_mma_sync_baseline and
// wgmma_ringfix; the validation sets 2 to 6 improved (docs/validation.md).

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/report/comparison_report.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/measurement/measured_csv.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::validation {
namespace {

namespace fs = std::filesystem;

const fs::path kMeasurements = fs::path(TILESIM_SOURCE_DIR) / "bench" / "measurements";

constexpr const char* kDefaultHardware = "h100_sxm.measured";

struct FileLimit {
  const char* file;
  double own_mape_percent;      // limit for rows of our kernels (every kernel but library); files
                                // without any: 0
  double library_mape_percent;  // limit for cuBLAS rows; files without any: 0
  const char* hardware = kDefaultHardware;  // the shipped hardware file the rows run on
};

// Today's figures on h100_sxm.measured (own / library MAPE %) in the comments.
// Round 24 (cuBLAS's split-K choice on unaligned rows, kept on the held-out GEMM
// validation 24): every library limit with more than half a point of room set to
// its figure + 0.5.
const FileLimit kFiles[] = {
    {"h100_sxm_2026-11-21_gemm_dataset.csv", 6, 6.6},                           // 5.44 / 6.02
    {"h100_sxm_2026-11-21_gemm_dataset_profile_m128n128k32w8.csv", 18.1, 5.5},  // 17.58 / 4.97
    {"h100_sxm_2026-11-21_gemm_fixup_calibration.csv", 7.1, 0},                 // 6.52
    // The 2026-11-21/22 Stream-K-heavy files improved with the L2 partitions
    // (Stream-K's scattered k offsets miss in half the L2) and the power law.
    {"h100_sxm_2026-11-21_gemm_ref_vs_cublas.csv", 8.7, 8.4},    // 8.14 / 7.89
    {"h100_sxm_2026-11-21_gemm_stream_k_waves.csv", 12.8, 9.4},  // 12.21 / 8.82
    {"h100_sxm_2026-11-22_gemm_stream_k_waves.csv", 5.5, 9},     // 5.00 / 8.40
    // 2026-11-22 gemm_wgmma, _mma_sync_baseline, _repeats and
    // _stream_k_fixups ran kernel versions that no longer exist (tail-first
    // wgmma Stream-K; mma.sync with 4 fixup loads in flight): kept, and
    // re-measured as the 2026-11-26 files of the same names below.
    {"h100_sxm_2026-11-22_gemm_wgmma.csv", 10.5, 9.7},                   // 9.92 / 9.17
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first.csv", 5.9, 6.9},         // 5.32 / 6.34
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_rounds_a.csv", 5.2, 0},  // 4.63
    {"h100_sxm_2026-11-22_gemm_wgmma_head_first_study.csv", 6.3, 9.2},   // 5.72 / 8.69
    {"h100_sxm_2026-11-22_gemm_wgmma_mma_sync_baseline.csv", 3.4, 9.4},  // 2.81 / 8.85
    {"h100_sxm_2026-11-22_gemm_wgmma_repeats.csv", 6.3, 2.3},            // 5.76 / 1.77
    {"h100_sxm_2026-11-22_gemm_wgmma_stream_k_fixups.csv", 10.9, 0},     // 10.39
    // The held-out study (kernels/studies/gemm_validation_2.yaml), never fitted
    // on; measured 2026-11-25 (10.00 / 6.70 before the power law, L2 partitions
    // and unaligned loads; 13.02 / 12.32 before issue 13), and 70 of its rows
    // again on 2026-11-26. Looked at too often to be held out any more:
    // gemm_validation_3 is.
    {"h100_sxm_2026-11-25_gemm_validation_2.csv", 6, 5.1},           // 5.41 / 4.6
    {"h100_sxm_2026-11-26_gemm_validation_2_repeat.csv", 5.4, 5.6},  // 4.86 / 5.02
    // The third held-out study (kernels/studies/gemm_validation_3.yaml), written
    // before this round's model changes and measured once after them (9.76 /
    // 7.48 with the model before them); targets own <= 7%, cuBLAS <= 8%.
    {"h100_sxm_2026-11-26_gemm_validation_3.csv", 5.9, 5.9},  // 5.34 / 5.38
    // Calibration files (kernels/microbench/fit_kernel_profiles.py and
    // fit_power_law.py fit on their named rows), measured with the sustained warm-up.
    {"h100_sxm_2026-11-26_gemm_clock_calibration.csv", 4.3, 4.9},      // 3.72 / 4.36
    {"h100_sxm_2026-11-26_gemm_mechanism_calibration.csv", 4.6, 6.8},  // 4.10 / 6.23
    {"h100_sxm_2026-11-26_gemm_stream_k_l2_calibration.csv", 4.6, 0},  // 4.08
    // Round 17: own rows 11.3 -> 3.2% (each build's SASS gather, a fixed round
    // latency); cuBLAS rows as before.
    {"h100_sxm_2026-11-26_gemm_unaligned_calibration.csv", 3.7, 10.7},  // 3.20 / 10.2
    // The re-measures, today's kernels, sustained warm-up.
    {"h100_sxm_2026-11-26_gemm_wgmma.csv", 5.3, 8.1},                  // 4.73 / 7.51
    {"h100_sxm_2026-11-26_gemm_wgmma_mma_sync_baseline.csv", 5.1, 8},  // 4.58 / 7.42
    {"h100_sxm_2026-11-26_gemm_wgmma_repeats.csv", 6.3, 1.8},          // 5.74 / 1.22
    {"h100_sxm_2026-11-26_gemm_wgmma_stream_k_fixups.csv", 5.7, 0},    // 5.17
    // After the WorkUnitRing fix (every consumer thread arrives on `empty`):
    // every wgmma file re-measured on 2026-11-26 evening (the wgmma rows of
    // the calibrations, gemm_validation_3's wgmma and cuBLAS rows), and the
    // schedule calibration (kernels/studies/gemm_schedule_calibration.yaml).
    {"h100_sxm_2026-11-26_gemm_wgmma_ringfix.csv", 6, 8.8},                  // 5.44 / 8.20
    {"h100_sxm_2026-11-26_gemm_wgmma_repeats_ringfix.csv", 6.7, 2.9},        // 6.11 / 2.37
    {"h100_sxm_2026-11-26_gemm_wgmma_stream_k_fixups_ringfix.csv", 6.7, 0},  // 6.11
    {"h100_sxm_2026-11-26_gemm_clock_calibration_ringfix.csv", 5.5, 0},      // 5.00
    {"h100_sxm_2026-11-26_gemm_mechanism_calibration_ringfix.csv", 4.3, 0},  // 3.79
    {"h100_sxm_2026-11-26_gemm_stream_k_l2_calibration_ringfix.csv", 6, 0},  // 5.42
    {"h100_sxm_2026-11-26_gemm_validation_3_ringfix.csv", 6.2, 5.7},         // 5.70 / 5.14
    {"h100_sxm_2026-11-26_gemm_schedule_calibration.csv", 7.2, 0},           // 6.67
    // The fourth held-out study (kernels/studies/gemm_validation_4.yaml),
    // committed before round 4's changes and measured once after them (8.70 /
    // 5.70 with main's model before them); never fitted on.
    {"h100_sxm_2026-11-26_gemm_validation_4.csv", 5.8, 7.2},  // 5.26 / 6.7
    // Round 5's calibration (kernels/studies/gemm_handoff_alignment_calibration.yaml):
    // the serial split-K turnstile swept over 2..32 slices and TMA rows not
    // 128-byte aligned; fit_kernel_profiles.py fits on its named rows.
    {"h100_sxm_2026-11-27_gemm_handoff_alignment_calibration.csv", 4.7, 8.3},  // 4.17 / 7.8
    // The fifth held-out study (kernels/studies/gemm_validation_5.yaml),
    // committed before round 5's changes and measured once after them (7.66 /
    // 6.22 with main's model before them); never fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_5.csv", 5.9, 7},  // 5.37 / 6.40
    // Round 6's held-out set (kernels/studies/gemm_validation_6.yaml), measured
    // once after the final model: 219 of its 323 rows (17 of 25 problems), the
    // device budget left no more (NOTES beside it).
    {"h100_sxm_2026-11-27_gemm_validation_6.csv", 6.4, 7.2},  // 5.85 / 6.7
    // An H200, held out: kernels/studies/gemm_h200_subset.yaml (70 rows of
    // gemm_validation_2), predicted with the H100-fitted kernel profiles and
    // h200_sxm.yaml; never fitted on. Target: <= 10% for both.
    {"h200_sxm_2026-11-26_gemm_h200_subset.csv", 5.9, 5.1, "h200_sxm"},  // 5.39 / 4.56
    // Round 7: the rest of round 6's held-out set (104 rows of
    // kernels/studies/gemm_validation_6.yaml, 8 problems), measured once after
    // round 7's final model (5.1 / 5.3 in `tilesim compare` with main's model
    // before it); never
    // fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_6_heldout.csv", 5.5, 5.6},  // 4.99 / 5.03
    // Round 7's calibration on an H200 (kernels/studies/gemm_lockstep_calibration.yaml):
    // pure Stream-K units one band apart beside shapes whose units do not line up.
    {"h200_sxm_2026-11-27_gemm_lockstep_calibration.csv", 7.7, 0, "h200_sxm"},  // 7.16
    // Round 8's held-out set (kernels/studies/gemm_validation_7.yaml), committed
    // before round 8's trial and measured once after it was rejected (the model
    // is round 7's: before = after); never fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_7.csv", 6.5, 4.7},  // 5.94 / 4.2
    // Round 8's second held-out set (kernels/studies/gemm_validation_8.yaml),
    // committed before the L2 slice bandwidth and measured once after it (main's
    // model: 6.32 / 6.00); never fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_8.csv", 6.7, 5.7},  // 6.20 / 5.2
    // Round 9's held-out set (kernels/studies/gemm_validation_9.yaml), committed
    // before round 9's work and measured once; l2.slice_bandwidth re-measured
    // (9.59 -> 11.05 TB/s) after it was measured, before it was compared (main's
    // model: 5.69 / 6.22); never fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_9.csv", 6.3, 6.6},  // 5.76 / 6.1
    // Round 10's held-out set (kernels/studies/gemm_validation_10.yaml),
    // committed before round 10's work and measured once with the CTA drift
    // microbenchmark; l2.reader_drift taken from that microbenchmark before the
    // set was compared (main's model: 6.24 / 7.65); never fitted on.
    {"h100_sxm_2026-11-27_gemm_validation_10.csv", 6.5, 7.2},  // 5.96 / 6.63
    // The same rows on an H200 (kernels/studies/gemm_h200_validation_10.yaml,
    // committed before it was measured once), H100-fitted kernel profiles.
    {"h200_sxm_2026-11-27_gemm_validation_10.csv", 6.6, 5.1, "h200_sxm"},  // 6.1 / 4.6
    // The decode-GEMM held-out set (kernels/studies/gemm_decode_validation.yaml,
    // m = 1..32), committed before the GEMV calibration and measured once with
    // it; no model change followed; never fitted on.
    {"h100_sxm_2026-11-27_gemm_decode_validation.csv", 8, 3.7},  // 7.45 / 3.15
    // Persistent data-parallel on the wgmma tile
    // (kernels/studies/gemm_wgmma_persistent.yaml): interleaved rounds of
    // cuBLAS, DP and persistent DP; no model parameter changed. 7.15 before
    // l2.reader_drift: the drift, growing with a CTA's age, takes a third of
    // the panel sharing from 1.7 ms persistent CTAs (8192^3 +22-34%), where the
    // card shares as a fresh wave does (docs/validation.md, round 10 merge);
    // round 14: whole tiles do not drift (12.38 before).
    {"h100_sxm_2026-11-27_gemm_wgmma_persistent.csv", 7.7, 4.5},  // 7.15 / 3.86
    // Round 11's held-out set (kernels/studies/gemm_validation_11.yaml),
    // committed before round 11's work and measured once with the L2 residency
    // microbenchmark; no model change kept (the residency window and in-step
    // misses are on branch gemm11-model: own 4.9%, cuBLAS 5.9%); never fitted
    // on. Its worst rows were the two 3-4 ms persistent data-parallel wgmma
    // launches (+71%, +75%: the drift's window, docs/validation.md round 11;
    // round 14: whole tiles do not drift, 5.54 before).
    {"h100_sxm_2026-11-27_gemm_validation_11.csv", 5.4, 5.7},  // 4.91 / 5.14
    // The same rows on an H200 (kernels/studies/gemm_h200_validation_11.yaml,
    // committed before it was measured once), H100-fitted kernel profiles.
    {"h200_sxm_2026-11-27_gemm_validation_11.csv", 6.7, 5.8, "h200_sxm"},  // 6.2 / 5.3
    // Round 12's held-out set (kernels/studies/gemm_validation_12.yaml),
    // committed before round 12's work and measured once; never fitted on.
    // Worst own row 20.6% (a wgmma pure Stream-K launch); the round 12 model
    // (branch gemm12, not merged) gives 4.82 / 5.51.
    {"h100_sxm_2026-11-27_gemm_validation_12.csv", 5.2, 6.4},  // 4.68 / 5.90
    // Round 13's held-out set (kernels/studies/gemm_validation_13.yaml),
    // committed before round 13's model work and measured once; never fitted
    // on. Worst own row was +82%: the 3-4 ms persistent wgmma row (the reader
    // drift; round 14: whole tiles do not drift, 6.37 before). Branch gemm13's
    // model (not merged) gives 7.15 / 5.96.
    {"h100_sxm_2026-11-28_gemm_validation_13.csv", 6.3, 6.4},  // 5.81 / 5.9
    // The same rows on an H200 (kernels/studies/gemm_h200_validation_13.yaml,
    // committed before its one run), H100-fitted profiles unchanged.
    {"h200_sxm_2026-11-28_gemm_validation_13.csv", 7.2, 4.9, "h200_sxm"},  // 6.7 / 4.4
    // Round 14's held-out set (kernels/studies/gemm_validation_14.yaml),
    // committed before round 14's model work and measured once; never fitted
    // on. At lead's model (83f8c6d): 7.49 / 6.31, worst own +68% (the 3 ms
    // persistent wgmma rows, the reader drift); round 14's model (whole tiles
    // do not drift): worst own 29% (an unaligned mma.sync Stream-K row).
    // Round 23 (the gather rate on the plain GEMM path, kept on the held-out
    // GEMM 23: cuBLAS 15.4 -> 9.6%) reads its unaligned cuBLAS rows slower
    // (long k: the MMAs follow each gather chunk): 6.31 -> 7.36 (H100 target 8).
    {"h100_sxm_2026-11-28_gemm_validation_14.csv", 7.2, 6.3},  // 6.71 / 5.8
    // The same rows on an H200 (kernels/studies/gemm_h200_validation_14.yaml,
    // committed before its one run), H100-fitted profiles unchanged.
    {"h200_sxm_2026-11-28_gemm_validation_14.csv", 7.2, 6.9,
     "h200_sxm"},  // 6.7 / 6.4 (7.5 before round 24, 7.0 before round 23)
    // The same file on the H200's calibrated description (h200_sxm.measured,
    // tilesim-measure calibrate on an H200; profiles' sm90.measured fit, from
    // h100_sxm.measured): issue 13's "<= 10%" holds, cuBLAS only just.
    {"h200_sxm_2026-11-28_gemm_validation_14.csv", 8.6, 9.9,
     "h200_sxm.measured"},  // 8.1 / 9.4 (10.4 before round 24, 9.8 before round 23)
    // Round 15's held-out set (kernels/studies/gemm_validation_15.yaml: 23
    // problems, 13 models not used before), committed before round 15's work
    // and measured once, on an H200; never fitted on. Worst own rows -28/-29%:
    // unaligned mma.sync persistent, split-K and Stream-K rows, as in 13 and 14.
    {"h200_sxm_2026-11-28_gemm_validation_15.csv", 8.0, 7.6, "h200_sxm.measured"},  // 7.54 / 7.1
    {"h200_sxm_2026-11-28_gemm_validation_15.csv", 7.7, 5.8, "h200_sxm"},           // 7.15 / 5.3
    // Round 16's calibration (kernels/studies/gemm_unaligned_build_calibration.yaml):
    // unaligned mma.sync rows on each build; persistent and Stream-K rows 20-35%
    // fast (round 16's gather, read from SASS, was reverted: validation 16).
    {"h200_sxm_2026-11-28_gemm_unaligned_build_calibration.csv", 6.9, 0,
     "h200_sxm.measured"},  // 6.34 (round 17; 22.20 before)
    // Validation 16 (kernels/studies/gemm_validation_16.yaml: eight unaligned
    // problems in no other study), committed after round 16 and before its one
    // measurement, judged round 16 held out: own 20.4 -> 12.0% with it, but top-1
    // 6 -> 2 of 8 (data-parallel and split-K rows still 15-21% fast on the H200),
    // so round 16 was reverted. cuBLAS 23.8%: cuBLAS on unaligned shapes runs
    // slower than the model's library.
    // Round 17 (every build's gather from its SASS, a fixed round latency): own
    // 20.4 -> 6.5%, but fastest schedule 6 -> 4 of 8 (split-K serial predicted
    // where Stream-K runs 4-21% faster); cuBLAS rows as before.
    // Round 19 (cuBLAS's unaligned kernels have no Stream-K): cuBLAS 23.8 -> 13.1
    // and 16.4%; limits re-set to keep the gain.
    {"h200_sxm_2026-11-28_gemm_validation_16.csv", 7.1, 6.8, "h200_sxm.measured"},  // 6.53 / 6.3
    {"h200_sxm_2026-11-28_gemm_validation_16.csv", 7.0, 7.0, "h200_sxm"},           // 6.49 / 6.5
    // Round 17's calibration (kernels/studies/gemm_unaligned_calibration_17.yaml:
    // cuBLAS alignment ladder, each mma.sync build alone and on 132 SMs), on
    // whose two data-parallel rows tilesim_ref's unaligned_load_latency was fitted.
    // Round 19: its cuBLAS rows 20.95 -> 7.62 (limit re-set to keep the gain).
    // Round 23: its align1/align4 cuBLAS rows at k 2044-4095 on 2304x2176 and
    // 4608x4352 read +19 to +38% slow (the MMAs after each gather chunk, where
    // cuBLAS overlaps them): 7.62 -> 18.3, the round's known cost (docs/validation.md).
    {"h200_sxm_2026-11-28_gemm_unaligned_calibration_17.csv", 4.9, 7.1, "h200_sxm"},  // 4.35 / 6.6
    // Validation 17 (kernels/studies/gemm_validation_17.yaml: 14 unaligned and 3
    // aligned problems in no other study), committed before round 17's change
    // and measured once after it; never fitted on. Own 16.0 -> 6.1%, fastest
    // schedule 6 -> 14 of 17. cuBLAS as before (its fallback class was tried and
    // failed held out: docs/validation.md, round 17).
    // Round 18 (cuBLAS's align2 copies) moves its 4- and 8-byte cuBLAS rows
    // faster, to about -30% (the H200's unaligned level, as in validation 18):
    // 18.31 -> 18.70 and 19.49 -> 20.46.
    // Round 19 (no Stream-K for cuBLAS's unaligned kernels): 18.70 -> 18.18, 20.46 -> 20.42.
    {"h200_sxm_2026-11-28_gemm_validation_17.csv", 6.6, 8.9, "h200_sxm.measured"},  // 6.09 / 8.4
    {"h200_sxm_2026-11-28_gemm_validation_17.csv", 6.5, 9.2, "h200_sxm"},           // 6.01 / 8.7
    // Validation 18 (kernels/studies/gemm_validation_18.yaml: cuBLAS alone on
    // 4-, 8- and 2-byte rows and two aligned controls), committed before round
    // 18 (cuBLAS's align2 copies, library unaligned_widest_load_bytes) and
    // measured once: cuBLAS 31.8 -> 16.2% (32.0 -> 16.8 on h200_sxm); what is
    // left is the H200's level of the unaligned gather (align1 rows -15 to -35%).
    // Round 19: 16.2 -> 11.2 and 16.8 -> 12.2% (limits re-set to keep the gain).
    // Round 23 (gather rate, kept held out): its long-k rows read slow, 11.21 -> 14.26.
    {"h200_sxm_2026-11-28_gemm_validation_18.csv", 0, 9.4, "h200_sxm.measured"},  // 8.9
    {"h200_sxm_2026-11-28_gemm_validation_18.csv", 0, 9.0, "h200_sxm"},           // 8.5
    // Validation 19 (kernels/studies/gemm_validation_19.yaml: 18 unaligned and 3
    // aligned problems in no other file; cuBLAS and tilesim_ref DP, split-K and
    // Stream-K), committed before round 19 and measured once: cuBLAS 20.1 ->
    // 15.4% (20.2 -> 17.4 on h200_sxm), own rows unchanged. Never fitted on.
    {"h200_sxm_2026-11-28_gemm_validation_19.csv", 6.8, 4.2, "h200_sxm.measured"},  // 6.23 / 3.7
    {"h200_sxm_2026-11-28_gemm_validation_19.csv", 6.6, 3.8, "h200_sxm"},           // 6.10 / 3.3
    // Validation 20 (kernels/studies/gemm_validation_20.yaml: 22 small and
    // unaligned problems in no other file; cuBLAS and tilesim_ref DP and
    // split-K serial), committed before round 20 (a model of cuBLAS's kernel
    // choice) and measured once before it: own 6.1%, cuBLAS 18.1% (20.7 on
    // h200_sxm). Never fitted on.
    {"h200_sxm_2026-11-28_gemm_validation_20.csv", 6.6, 9.5, "h200_sxm.measured"},  // 6.07 / 9.0
    {"h200_sxm_2026-11-28_gemm_validation_20.csv", 6.5, 9.3, "h200_sxm"},           // 5.99 / 8.8
    // Validation 21 (kernels/studies/gemm_validation_21.yaml: 22 small and
    // unaligned problems in no other file), measured once and sealed before
    // stop 35's cuBLAS menu, then opened once to judge it: cuBLAS 15.4 -> 17.5%,
    // so the menu was not kept. The lead's figures. Never fitted on.
    {"h200_sxm_2026-11-29_gemm_validation_21.csv", 8.0, 8.5, "h200_sxm.measured"},  // 7.5 / 8.0
    {"h200_sxm_2026-11-29_gemm_validation_21.csv", 8.2, 9.1, "h200_sxm"},           // 7.7 / 8.6
    // Validation 22 (kernels/studies/gemm_validation_22.yaml: 22 small and
    // unaligned problems and 4 wave-quantized ones on our wgmma kernel, in no
    // other file), measured once and sealed in stop 35, opened once in stop 36
    // to judge the SM's gather rate (round 22: cuBLAS 16.1 -> 10.8%, but the
    // unfused attention rows got worse, so not kept). The lead's figures; schedule
    // top-1 25 of 26. Never fitted on.
    // Round 23 (the same rate on the plain GEMM path only, kept): 16.1 -> 10.8
    // and 16.0 -> 9.9; limits re-set to keep the gain.
    {"h200_sxm_2026-11-29_gemm_validation_22.csv", 7.1, 9.9, "h200_sxm.measured"},  // 6.6 / 9.4
    {"h200_sxm_2026-11-29_gemm_validation_22.csv", 7.3, 8.5, "h200_sxm"},           // 6.8 / 8.0
    // Validation 23 (kernels/studies/gemm_validation_23.yaml: 22 small and
    // unaligned problems, 6 layer GEMMs and 4 wave-quantized ones on our wgmma
    // kernel, in no other file), measured once and sealed in stop 36, opened once
    // in stop 37 to judge round 23 (the SM's gather rate on the plain GEMM path:
    // cuBLAS 15.4 -> 9.6%, h200_sxm 16.8 -> 9.8%; our kernels unchanged; kept).
    // The merged model's figures. Never fitted on.
    {"h200_sxm_2026-11-29_gemm_validation_23.csv", 7.3, 8.5, "h200_sxm.measured"},  // 6.8 / 8.0
    {"h200_sxm_2026-11-29_gemm_validation_23.csv", 7.3, 8.5, "h200_sxm"},           // 6.8 / 8.0
    // Validation 24 (kernels/studies/gemm_validation_24.yaml: 22 small and
    // unaligned problems, 6 layer GEMMs and 4 wave-quantized ones on our wgmma
    // kernel, in no other file), measured once and sealed in stop 37, opened once
    // in stop 38 to judge round 24 (cuBLAS's split-K choice on unaligned rows:
    // cuBLAS 9.6 -> 9.1%, h200_sxm 9.2 -> 8.8%; our kernels unchanged; kept).
    // The merged model's figures; schedule top-1 26 of 26. Never fitted on.
    {"h200_sxm_2026-11-29_gemm_validation_24.csv", 7.4, 9.6, "h200_sxm.measured"},  // 6.9 / 9.1
    {"h200_sxm_2026-11-29_gemm_validation_24.csv", 7.9, 9.3, "h200_sxm"},           // 7.4 / 8.8
    // cuBLAS on unaligned rows over k and grid size (kernels/studies/
    // gemm_cublas_unaligned_calibration.yaml): named calibration rows, measured
    // with ncu kernel names for the next fit of the fallback's split count and
    // short-k cost; nothing fitted on it yet.
    {"h200_sxm_2026-11-28_gemm_cublas_unaligned_calibration.csv", 0, 7.0,
     "h200_sxm.measured"},                                                              // 6.5
    {"h200_sxm_2026-11-28_gemm_cublas_unaligned_calibration.csv", 0, 8.8, "h200_sxm"},  // 8.3
    // cuBLAS's kernel by size (72-1832) and row alignment at k ~1000
    // (kernels/studies/gemm_cublas_menu_calibration.yaml): named calibration
    // rows with ncu kernel names (small unaligned problems split k 4-19 ways
    // and add a reduce launch); nothing fitted on it yet.
    {"h200_sxm_2026-11-29_gemm_cublas_menu_calibration.csv", 0, 14.9, "h200_sxm.measured"},  // 14.4
    {"h200_sxm_2026-11-29_gemm_cublas_menu_calibration.csv", 0, 13.0, "h200_sxm"},           // 12.5
    // Validation 12's rows on an H200 (kernels/studies/gemm_h200_validation_12.yaml,
    // measured in the same call): unseen H200/H100 ratio rows.
    {"h200_sxm_2026-11-28_gemm_validation_12.csv", 6.0, 6.7, "h200_sxm.measured"},  // 5.45 / 6.24
    {"h200_sxm_2026-11-28_gemm_validation_12.csv", 6.5, 4.3, "h200_sxm"},           // 5.98 / 3.78
    // Evidence of the pure Stream-K misses (kernels/studies/
    // gemm_pure_stream_k_ncu.yaml: three seen shapes re-timed beside their ncu
    // profiles); l13 pure is 29% fast (the L2 sharing of Stream-K ranges).
    {"h100_sxm_2026-11-28_gemm_pure_stream_k.csv", 7.8, 0},  // 7.3
    // The TMA-store epilogue variant (kernels/studies/gemm_wgmma_tma_store.yaml,
    // held out: interleaved rounds of cuBLAS, the wgmma kernel and the
    // tma_store variant's DP, persistent DP and Stream-K) and its calibration
    // rows, on which tilesim_ref_wgmma_tma_store's work_unit_overhead and
    // kernel_overhead were fitted. Held out: tma_store rows 10.7% (8192^3
    // persistent +31%, the reader drift as above; round 14: whole tiles do not
    // drift, 9.09 before), wgmma rows 6.3%.
    {"h100_sxm_2026-11-27_gemm_wgmma_tma_store.csv", 7.8, 7.7},      // 7.31 / 7.16
    {"h100_sxm_2026-11-27_gemm_tma_store_calibration.csv", 8.1, 0},  // 7.60
    // hopper14's evidence (every Stream-K mode and fixup of the tma_store
    // kernel at 1536^3 and 3072x3072x4096, beside DP and cuBLAS); never fitted on.
    {"h100_sxm_2026-11-28_gemm_stream_k_profile.csv", 6.5, 18},  // 5.98 / 17.46
    // The 2-CTA cluster variant (kernels/studies/gemm_wgmma_multicast.yaml,
    // held out), timed on the first code. Its 100 rows miss by -50% (that code
    // fenced every remote stage release, which the profile does not describe):
    // own 38.6% of which tma_store rows 8.7%.
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast.csv", 39.1, 13.9},  // 38.58 / 13.38
    // The same study re-measured after the fix (the remote stage release
    // without the cluster-scope fence; the _r2 NOTES), still held out, never
    // fitted on: multicast rows 9.2% (bias -9.2%), tma_store rows 7.7%.
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_r2.csv", 9.3, 12.9},  // 8.81 / 12.37
    // Re-measured with the producer tail instead of the closing cluster
    // barrier (the _r3 NOTES), held out, never fitted on.
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_r3.csv", 8.6, 11.1},  // 8.03 / 10.59
    // hopper17 (the _r4 NOTES), held out, never fitted on. r4: the same
    // study on unchanged c2 code; r5: after the clustered variants' fixup
    // lost its full fences. n192 / n192_r2: the held-out 128x192 cluster
    // study (kernels/studies/gemm_wgmma_multicast_n192.yaml) on either code;
    // its 80 n192 rows miss by -10% (bias -10.0%). fence_ab: the A/B of the
    // fence change (old and new builds alternating in one call).
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_r4.csv", 8.6, 12.7},         // 8.10 / 12.14
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_r5.csv", 7.9, 12.4},         // 7.40 / 11.81
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_n192.csv", 10.6, 10.5},      // 10.00 / 9.91
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_n192_r2.csv", 10.5, 10.4},   // 9.95 / 9.89
    {"h100_sxm_2026-11-28_gemm_wgmma_multicast_fence_ab.csv", 10.1, 14.6},  // 9.59 / 14.04
    // hopper18, an H200 (judged on h200_sxm.measured), held out: m192
    // (kernels/studies/gemm_wgmma_m192.yaml, the 192x192 cluster kernel with
    // three stages; its 50 rows 10.8%, bias -10.3%, predicted fast) and
    // m192_s4 (gemm_wgmma_m192_s4.yaml, a four-stage
    // build beside it, not kept; its 56 rows of the profile 5.3%).
    {"h200_sxm_2026-11-28_gemm_wgmma_m192.csv", 10.4, 10.8, "h200_sxm.measured"},    // 9.9 / 10.3
    {"h200_sxm_2026-11-28_gemm_wgmma_m192_s4.csv", 7.3, 10.7, "h200_sxm.measured"},  // 6.8 / 10.2
    {"h200_sxm_2026-11-28_gemm_wgmma_fixup_lesion.csv", 8.5, 10.7,
     "h200_sxm.measured"},  // 8.0 / 10.2
    // hopper21, an H200, held out: the lead's kernels in the study of a
    // main-loop change that was not kept (gemm_wgmma_mainloop_descriptors.yaml;
    // the change's own rows are h200_sxm_2026-11-28_wgmma_descriptors_probe.csv).
    {"h200_sxm_2026-11-28_gemm_wgmma_descriptors_lead.csv", 8.4, 9.8,
     "h200_sxm.measured"},                                                           // 7.9 / 9.3
    {"h200_sxm_2026-11-28_gemm_wgmma_descriptors_lead.csv", 11.8, 6.4, "h200_sxm"},  // 11.3 / 5.9
    // hopper22, an H200, held out: the lead's kernels in the study of a fixup
    // change that was not kept (gemm_wgmma_stream_k_phases.yaml; the change's
    // own rows are h200_sxm_2026-11-28_partial_staging_probe.csv), in both calls.
    {"h200_sxm_2026-11-28_gemm_stream_k_phases_lead.csv", 7.8, 10.4,
     "h200_sxm.measured"},                                                        // 7.3 / 9.9
    {"h200_sxm_2026-11-28_gemm_stream_k_phases_lead.csv", 9.6, 5.8, "h200_sxm"},  // 9.1 / 5.3
    {"h200_sxm_2026-11-28_gemm_partial_staging_lead.csv", 7.1, 8.9,
     "h200_sxm.measured"},                                                        // 6.6 / 8.4
    {"h200_sxm_2026-11-28_gemm_partial_staging_lead.csv", 9.0, 6.9, "h200_sxm"},  // 8.5 / 6.4
    // hopper23's control, the lead's build: DP, Stream-K (even) and cuBLAS, 12 rounds.
    {"h200_sxm_2026-11-29_gemm_stream_k_even_control_lead.csv", 9.4, 13.0,
     "h200_sxm.measured"},  // 8.8 / 12.4
    {"h200_sxm_2026-11-29_gemm_stream_k_even_control_lead.csv", 11.4, 11.3,
     "h200_sxm"},  // 10.9 / 10.7
    // hopper24, an H200, held out: the 192x96 cluster variant
    // (tilesim_ref_wgmma_multicast_m192n96) beside cuBLAS and the 128x192 /
    // 128x256 DP and Stream-K rows, 4 rounds (gemm_wgmma_m192n96.yaml); the
    // model misses the new tile's slower main loop on the calibrated file.
    {"h200_sxm_2026-11-29_gemm_wgmma_m192n96.csv", 11.5, 7.5, "h200_sxm.measured"},  // 11.0 / 7.0
    {"h200_sxm_2026-11-29_gemm_wgmma_m192n96.csv", 6.3, 5.7, "h200_sxm"},            // 5.8 / 5.2
    // hopper25, an H200, held out: Stream-K's wave_fit mode (tiles that fit
    // one wave run data-parallel) beside two_tile, DP and cuBLAS on the 192x96
    // and 128x256 cluster tiles, 4 rounds (gemm_stream_k_wave_fit.yaml).
    {"h200_sxm_2026-11-29_gemm_stream_k_wave_fit.csv", 10.3, 10.4,
     "h200_sxm.measured"},                                                     // 9.8 / 9.9
    {"h200_sxm_2026-11-29_gemm_stream_k_wave_fit.csv", 7.8, 9.3, "h200_sxm"},  // 7.3 / 8.8
    // hopper26, an H200, held out: the 192x96 cluster kernel with its pair
    // along n and A multicast (tilesim_ref_wgmma_multicast_m192n96_c2n) beside
    // the 192x96 pair along m, the 128x256 cluster tile and cuBLAS, 4 rounds
    // (gemm_wgmma_m192n96_c2n.yaml); the model puts the c2n rows 10-20% fast
    // (it credits A's multicast with more than the 1-10% it measured).
    {"h200_sxm_2026-11-29_gemm_wgmma_m192n96_c2n.csv", 13.9, 8.9,
     "h200_sxm.measured"},                                                      // 13.4 / 8.4
    {"h200_sxm_2026-11-29_gemm_wgmma_m192n96_c2n.csv", 10.8, 8.0, "h200_sxm"},  // 10.3 / 7.5
    // hopper26, held out: Stream-K's tile_fit (the c2n pair where its tiles
    // fit one wave, 128x256 elsewhere) beside both kernels' wave_fit rows and
    // cuBLAS, 4 rounds (gemm_stream_k_tile_fit.yaml).
    {"h200_sxm_2026-11-29_gemm_stream_k_tile_fit.csv", 12.1, 8.4,
     "h200_sxm.measured"},                                                      // 11.6 / 7.9
    {"h200_sxm_2026-11-29_gemm_stream_k_tile_fit.csv", 12.6, 6.4, "h200_sxm"},  // 12.1 / 5.9
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
  const hw::HardwareSpec spec = testing::shipped_hardware(limit.hardware);
  auto gemms = workloads::simulate_measured(rows.value->gemms, spec, schedules,
                                            workloads::LibrarySchedule::choose);
  ASSERT_TRUE(gemms.ok()) << gemms.diagnostics.format();
  ASSERT_TRUE(gemms.value->skipped.empty()) << "every row is within the cost budget";
  const report::ComparedRows compared{std::move(gemms.value->compared), {}, {}};
  const report::ComparisonSummary summary = report::summarize_comparison(compared);
  if (limit.own_mape_percent > 0) {
    EXPECT_GT(summary.own_kernels.cases, 0);
    EXPECT_LE(summary.own_kernels.mape_percent, limit.own_mape_percent)
        << report::comparison_table(compared, summary);
  } else {
    EXPECT_EQ(summary.own_kernels.cases, 0);
  }
  if (limit.library_mape_percent > 0) {
    EXPECT_GT(summary.library.cases, 0);
    EXPECT_LE(summary.library.mape_percent, limit.library_mape_percent);
  } else {
    EXPECT_EQ(summary.library.cases, 0);
  }
}

// Named by the file and, when not the default, the hardware: a file may be
// guarded on two hardware files (an H200 file on its calibrated one too).
std::string test_name(const ::testing::TestParamInfo<FileLimit>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  if (std::string_view(info.param.hardware) != kDefaultHardware) {
    name += std::string("_on_") + info.param.hardware;
  }
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Committed, GemmMeasurementFile, ::testing::ValuesIn(kFiles), test_name);

TEST(GemmMeasurementFiles, EveryCommittedGemmFileIsListed) {
  std::vector<std::string> listed;
  for (const FileLimit& limit : kFiles) listed.emplace_back(limit.file);
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
