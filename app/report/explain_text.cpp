#include "app/report/explain_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tilesim::report {
namespace {

using explain::TimeBreakdown;
using explain::TimeCause;

// Causes below this share of the time are left out of the text (not of --json).
constexpr double kSmallestShownShare = 0.0005;
constexpr std::size_t kCausesPerKernel = 3;
// Long graphs show their first kernels; --json has all.
constexpr std::size_t kMostKernelRows = 12;

std::string megabytes(double bytes) {
  return fmt::format("{:.1f} MB", bytes * 1e-6);
}

// Which side of a ridge point an intensity lies on.
std::string side(double intensity, double ridge) {
  return intensity >= ridge ? "compute side" : "memory side";
}

std::string roofline_lines(const explain::RunExplanation& run) {
  const explain::RooflinePosition& at = run.position;
  const explain::RooflineCeilings& roof = run.ceilings;
  std::string out = fmt::format("  roofline: {:.1f} TFLOP/s of the {:.0f} TFLOP/s {} {} peak\n",
                                at.flops_per_s() * 1e-12, roof.peak_flops_per_s() * 1e-12,
                                hw::to_string(roof.data_type),
                                roof.on_tensor_cores() ? "tensor-core" : "CUDA-core");
  out += fmt::format(
      "    HBM: {} at {:.2f} TB/s, {:.3g} flop/B; ridge {:.3g} flop/B ({:.2f} TB/s): {}\n",
      megabytes(at.hbm_bytes), at.hbm_bytes_per_s() * 1e-12, at.hbm_flops_per_byte(),
      roof.hbm_ridge_flops_per_byte(), roof.hbm_bytes_per_s * 1e-12,
      side(at.hbm_flops_per_byte(), roof.hbm_ridge_flops_per_byte()));
  out += fmt::format(
      "    L2:  {} at {:.2f} TB/s, {:.3g} flop/B; ridge {:.3g} flop/B ({:.2f} TB/s): {}\n",
      megabytes(at.l2_bytes), at.l2_bytes_per_s() * 1e-12, at.l2_flops_per_byte(),
      roof.l2_ridge_flops_per_byte(), roof.l2_bytes_per_s * 1e-12,
      side(at.l2_flops_per_byte(), roof.l2_ridge_flops_per_byte()));
  return out;
}

std::string breakdown_lines(const TimeBreakdown& breakdown, double time_us) {
  std::string out = fmt::format(
      "  where the time goes (SM-time, averaged over the SMs)  {:>9} {:>7}\n", "us", "share");
  for (std::size_t i = 0; i < explain::kTimeCauseCount; ++i) {
    const double share = time_us > 0 ? breakdown.us[i] / time_us : 0;
    if (share < kSmallestShownShare) continue;
    out += fmt::format("    {:<48} {:>9.2f} {:>6.1f}%\n",
                       explain::time_cause_label(static_cast<TimeCause>(i)), breakdown.us[i],
                       100 * share);
  }
  out += fmt::format("    {:<48} {:>9.2f} {:>6.1f}%\n", "total", breakdown.total_us(),
                     time_us > 0 ? 100 * breakdown.total_us() / time_us : 0.0);
  return out;
}

// -44%, +3.0%, -0.4%: a tenth of a percent where it is small.
std::string signed_percent(double change) {
  const double value = 100 * change;
  return std::abs(value) < 9.95 ? fmt::format("{:+.1f}%", value) : fmt::format("{:+.0f}%", value);
}

std::string what_if_lines(const std::vector<explain::WhatIf>& what_ifs) {
  if (what_ifs.empty()) return "";
  std::string out = "  what if (each simulated again)\n";
  for (const explain::WhatIf& hint : what_ifs) {
    out += fmt::format("    {:<48} {:>9.2f} {:>7}\n", hint.change, hint.time_us,
                       signed_percent(hint.time_change()));
  }
  return out;
}

// "tensor cores 61%, HBM bandwidth 20%, memory latency 9%"
std::string largest_causes(const TimeBreakdown& breakdown, double time_us) {
  std::vector<std::size_t> order(explain::kTimeCauseCount);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return breakdown.us[a] > breakdown.us[b]; });
  std::string out;
  for (std::size_t i = 0; i < kCausesPerKernel; ++i) {
    const double share = time_us > 0 ? breakdown.us[order[i]] / time_us : 0;
    if (share < kSmallestShownShare) break;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ",
                       explain::time_cause_label(static_cast<TimeCause>(order[i])),
                       explain::share_text(share));
  }
  return out;
}

std::string kernel_lines(const explain::RunExplanation& run) {
  if (run.kernels.size() < 2) return "";
  std::size_t name_width = 6;
  for (const explain::KernelExplanation& kernel : run.kernels) {
    name_width = std::max(name_width, kernel.name.size());
  }
  std::string out = fmt::format("  {:<{}} {:>9} {:>8}  largest causes (share of the kernel)\n",
                                "kernel", name_width + 2, "time_us", "gap_us");
  const std::size_t rows = std::min(run.kernels.size(), kMostKernelRows);
  for (std::size_t i = 0; i < rows; ++i) {
    const explain::KernelExplanation& kernel = run.kernels[i];
    out +=
        fmt::format("    {:<{}} {:>9.2f} {:>8.2f}  {}\n", kernel.name, name_width, kernel.time_us,
                    kernel.gap_before_us, largest_causes(kernel.breakdown, kernel.time_us));
  }
  if (run.kernels.size() > rows) {
    out +=
        fmt::format("    ... {} more kernels (all of them in --json)\n", run.kernels.size() - rows);
  }
  return out;
}

}  // namespace

std::string explain_text(const std::vector<explain::RunExplanation>& explanations) {
  std::string out;
  for (const explain::RunExplanation& run : explanations) {
    out += fmt::format("{}  {}  {:.2f} us\n", run.name, run.schedule, run.time_us);
    out += fmt::format("  bound: {}\n", run.verdict.reason);
    out += roofline_lines(run);
    out += breakdown_lines(run.breakdown, run.time_us);
    out += what_if_lines(run.what_ifs);
    out += kernel_lines(run);
    out += "\n";
  }
  out +=
      "Shared-memory bandwidth is not a resource of the model, so no time is attributed to it. "
      "How time is attributed: docs/explain.md.\n";
  return out;
}

}  // namespace tilesim::report
