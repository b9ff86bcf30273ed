#include "app/explain/run_verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <utility>

namespace tilesim::explain {
namespace {

constexpr double kNotablePadding = 1.5;  // issued / useful FLOPs worth mentioning

struct CauseGroup {
  Bound bound;
  std::initializer_list<TimeCause> causes;
};

// Each bound and the causes of the breakdown that count towards it.
const std::array<CauseGroup, 8> kGroups = {{
    {Bound::hbm, {TimeCause::hbm}},
    {Bound::l2, {TimeCause::l2, TimeCause::l2_port}},
    {Bound::tensor, {TimeCause::tensor}},
    {Bound::cuda_cores, {TimeCause::fp32, TimeCause::sfu}},
    {Bound::latency,
     {TimeCause::memory_latency, TimeCause::pipeline_fill, TimeCause::dispatch,
      TimeCause::overhead}},
    {Bound::fixup, {TimeCause::flag_wait}},
    {Bound::tail, {TimeCause::tail, TimeCause::waiting, TimeCause::other_kernels}},
    {Bound::launch, {TimeCause::launch_gap, TimeCause::kernel_fixed}},
}};

double group_us(const TimeBreakdown& breakdown, Bound bound) {
  for (const CauseGroup& group : kGroups) {
    if (group.bound != bound) continue;
    double sum = 0;
    for (const TimeCause cause : group.causes) sum += breakdown[cause];
    return sum;
  }
  return 0;
}

std::string tera(double per_s) {
  const double value = per_s * 1e-12;
  return value >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

// "tensor cores 11% busy" (or CUDA cores for fp32): achieved useful FLOP/s
// over the peak.
std::string compute_use(const RooflineCeilings& ceilings, const RooflinePosition& position) {
  return fmt::format("{} {} busy", ceilings.on_tensor_cores() ? "tensor cores" : "CUDA cores",
                     share_text(position.flops_per_s() / ceilings.peak_flops_per_s()));
}

std::string hbm_use(const RooflineCeilings& ceilings, const RooflinePosition& position) {
  return fmt::format("HBM {} busy",
                     share_text(position.hbm_bytes_per_s() / ceilings.hbm_bytes_per_s));
}

// Tiles padded far beyond the problem (a decode step's one query row in a
// 64-row MMA) keep tensor cores busy on FLOPs nobody asked for.
std::string padding(const RooflinePosition& position) {
  if (position.flops <= 0 || position.issued_flops < kNotablePadding * position.flops) return "";
  return fmt::format(" ({:.0f}x as many FLOPs issued: padded tiles)",
                     position.issued_flops / position.flops);
}

bool is_idle(TimeCause cause) {
  return cause == TimeCause::tail || cause == TimeCause::waiting ||
         cause == TimeCause::other_kernels || cause == TimeCause::launch_gap ||
         cause == TimeCause::kernel_fixed;
}

// "; the busy SMs are mostly limited by tensor cores (64% of their time)"
std::string busy_sms(const TimeBreakdown& breakdown, const RooflinePosition& position) {
  double busy_us = 0;
  std::size_t largest = 0;
  for (std::size_t i = 0; i < kTimeCauseCount; ++i) {
    if (is_idle(static_cast<TimeCause>(i))) continue;
    busy_us += breakdown.us[i];
    if (breakdown.us[i] > breakdown.us[largest]) largest = i;
  }
  if (busy_us <= 0) return "";
  const bool tensor = static_cast<TimeCause>(largest) == TimeCause::tensor;
  return fmt::format("; the busy SMs are mostly limited by {} ({} of their time){}",
                     time_cause_label(static_cast<TimeCause>(largest)),
                     share_text(breakdown.us[largest] / busy_us), tensor ? padding(position) : "");
}

std::string idle_sms(const workloads::WorkloadRun& run, double share) {
  if (run.result.kernels.size() != 1) {
    return fmt::format(
        "SMs sit idle {} of the time with no CTA left to run (small grids, wave tails)",
        share_text(share));
  }
  const gpu::KernelRecord& kernel = run.result.kernels.front();
  if (kernel.waves < 1) {
    return fmt::format(
        "too few CTAs to fill the GPU: {} CTAs ({} per SM) on {} SMs leave SMs idle {} of the time",
        kernel.cta_count, kernel.ctas_per_sm, run.result.sm_count, share_text(share));
  }
  return fmt::format(
      "wave-quantization tail: SMs sit idle {} of the time with no CTA left to run ({} CTAs, {} "
      "per SM, on {} SMs: {:.2f} waves)",
      share_text(share), kernel.cta_count, kernel.ctas_per_sm, run.result.sm_count, kernel.waves);
}

std::string reason_for(Bound bound, double share, const workloads::WorkloadRun& run,
                       const TimeBreakdown& breakdown, const RooflineCeilings& ceilings,
                       const RooflinePosition& position) {
  const std::string compute = compute_use(ceilings, position);
  switch (bound) {
    case Bound::hbm:
      return fmt::format("bandwidth-bound at HBM: {} of {} TB/s; {}",
                         share_text(position.hbm_bytes_per_s() / ceilings.hbm_bytes_per_s),
                         tera(ceilings.hbm_bytes_per_s), compute);
    case Bound::l2:
      if (breakdown[TimeCause::l2_port] > breakdown[TimeCause::l2]) {
        return fmt::format(
            "bandwidth-bound at the SMs' L2 ports (each SM's own path to L2); L2 {} of {} TB/s "
            "busy; {}",
            share_text(position.l2_bytes_per_s() / ceilings.l2_bytes_per_s),
            tera(ceilings.l2_bytes_per_s), compute);
      }
      return fmt::format("bandwidth-bound at L2: {} of {} TB/s; {}",
                         share_text(position.l2_bytes_per_s() / ceilings.l2_bytes_per_s),
                         tera(ceilings.l2_bytes_per_s), compute);
    case Bound::tensor:
      return fmt::format(
          "compute-bound on tensor cores: {} TFLOP/s, {} of the {} TFLOP/s {} peak{}; {}",
          tera(position.flops_per_s()),
          share_text(position.flops_per_s() / ceilings.peak_flops_per_s()),
          tera(ceilings.peak_flops_per_s()), hw::to_string(ceilings.data_type), padding(position),
          hbm_use(ceilings, position));
    case Bound::cuda_cores:
      return fmt::format("compute-bound on CUDA cores / SFUs: {} of SM-time; {}", share_text(share),
                         hbm_use(ceilings, position));
    case Bound::latency:
      return fmt::format(
          "latency-bound: {} of SM-time waits on memory latency (pipeline fill, too few bytes in "
          "flight) or fixed overheads; {}, {}",
          share_text(share), hbm_use(ceilings, position), compute);
    case Bound::fixup:
      return fmt::format("fixup-bound: CTAs wait on other CTAs' flags {} of SM-time; {}",
                         share_text(share), compute);
    case Bound::tail:
      return idle_sms(run, share) + busy_sms(breakdown, position);
    case Bound::launch:
      return fmt::format(
          "launch-bound: {} of the time goes to launching, not to CTAs (host issue, launch "
          "latency, dependencies, a launch's fixed start and end); {}",
          share_text(share), compute);
  }
  return "";
}

}  // namespace

std::string share_text(double share) {
  const double value = 100 * share;
  if (value >= 10) return fmt::format("{:.0f}%", value);
  if (value >= 1) return fmt::format("{:.1f}%", value);
  return fmt::format("{:.2f}%", value);
}

std::string_view bound_key(Bound bound) {
  switch (bound) {
    case Bound::hbm:
      return "hbm";
    case Bound::l2:
      return "l2";
    case Bound::tensor:
      return "tensor";
    case Bound::cuda_cores:
      return "cuda_cores";
    case Bound::latency:
      return "latency";
    case Bound::fixup:
      return "fixup";
    case Bound::tail:
      return "tail";
    case Bound::launch:
      return "launch";
  }
  return "";
}

RunVerdict run_verdict(const workloads::WorkloadRun& run, const TimeBreakdown& breakdown,
                       const RooflineCeilings& ceilings, const RooflinePosition& position) {
  const double total_us = std::max(breakdown.total_us(), 1e-12);
  const double hbm_share = position.hbm_bytes_per_s() / ceilings.hbm_bytes_per_s;
  const double l2_share = position.l2_bytes_per_s() / ceilings.l2_bytes_per_s;
  Bound bound = Bound::tensor;
  if (std::max(hbm_share, l2_share) >= kSaturatedShare) {
    bound = hbm_share >= l2_share ? Bound::hbm : Bound::l2;
  } else {
    double largest = -1;
    for (const CauseGroup& group : kGroups) {
      const double us = group_us(breakdown, group.bound);
      if (us > largest) {
        largest = us;
        bound = group.bound;
      }
    }
  }
  const double share = group_us(breakdown, bound) / total_us;
  std::string reason = reason_for(bound, share, run, breakdown, ceilings, position);
  // Idle SMs worth knowing about even where something else bounds the run.
  const double idle_share = group_us(breakdown, Bound::tail) / total_us;
  if (bound != Bound::tail && idle_share >= kNotableIdleShare) {
    reason +=
        fmt::format("; SMs idle {} of the time with no CTA left to run", share_text(idle_share));
  }
  return {bound, std::move(reason)};
}

}  // namespace tilesim::explain
