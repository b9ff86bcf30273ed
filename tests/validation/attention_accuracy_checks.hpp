// The checks every attention accuracy guard runs on one committed measurement
// file (docs/validation.md, "Attention"): re-simulate its rows on the
// calibrated H100 file the way `tilesim compare` does, print the comparison,
// and hold its figures to limits. Used by h100_attention_accuracy_test.cpp
// (the validation studies as first measured) and
// h100_attention_remeasure_test.cpp (rows timed again on later kernels).
#pragma once

#include <span>
#include <string_view>

#include "app/report/comparison_report.hpp"

namespace tilesim::validation {

// The calibrated hardware file the rows are simulated on unless a check names another.
inline constexpr const char* kH100Measured = "h100_sxm.measured";

// The file's attention rows compared on `hardware` (configs/hw/; an EXPECT
// failure when it does not load).
report::ComparedRows compare_file(const char* file, const char* hardware = kH100Measured);

// Limits on a file of PyTorch SDPA's backends.
struct SdpaLimits {
  int min_cases;
  double flash_mape, cudnn_mape, efficient_mape, math_mape, case_error, min_pearson_log_r,
      fused_unfused_error;
};

void expect_sdpa_within(const char* file, const SdpaLimits& limit,
                        const char* hardware = kH100Measured);

// Limits on a file of our kernels with prefill and decode rows.
struct OwnLimits {
  int min_cases;
  double mape, prefill_mape, case_error, fused_unfused_error, min_decode_top1_share;
};

// Each of `known_outliers` is left out and named in the output (why: beside the list).
void expect_own_within(const char* file, const OwnLimits& limit,
                       std::span<const std::string_view> known_outliers = {},
                       const char* hardware = kH100Measured);

struct DecodeLimits {
  int min_cases;
  double mape, case_error, min_decode_top1_share;
};

// Files of our decode kernels alone (no prefill rows, no fused/unfused pairs).
void expect_decode_within(const char* file, const DecodeLimits& limit,
                          std::span<const std::string_view> known_outliers = {});

// Prefill files of our kernels alone (flash and unfused rows of the same
// shapes, no decode rows): round 10's held-out validation 10 and its
// re-measure of the seen unfused rows. The target for the ratio is
// every case within 15%; the guard holds how many are today.
struct PrefillFile {
  const char* file;
  int min_cases;
  double mape, case_error, fused_unfused_error;
  int min_ratios_within_15;
  const char* hardware = kH100Measured;
};

void expect_prefill_within(const PrefillFile& limit);

}  // namespace tilesim::validation
