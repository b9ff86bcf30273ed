#include "sim/gpu/kernel_load_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "sim/gpu/block_scheduler.hpp"
#include "sim/gpu/l2_reuse_model.hpp"

namespace tilesim::gpu {
namespace {

constexpr std::int64_t kReplayedRounds = 4;

double unit_seconds(const CtaStep& step, double tensor_efficiency, const hw::HardwareSpec& spec) {
  if (step.flops <= 0) return 0;
  switch (step.unit) {
    case ExecutionUnit::tensor:
      return step.flops / (spec.sm_mma_flops_per_s(step.mma_type) * tensor_efficiency);
    case ExecutionUnit::fp32:
      return step.flops / spec.sm.fp32_flops_per_s;
    case ExecutionUnit::sfu:
      return step.flops / spec.sm.sfu_ops_per_s;
  }
  return 0;
}

struct RoundWork {
  double ctas = 0;
  double flops = 0;
  double unit_s = 0;  // summed over the round's CTAs
  double l2_bytes = 0;
  double hbm_bytes = 0;
};

// The CTAs [first, last) of one round, step by step in turn through `l2`.
RoundWork replay_round(const KernelLaunch& launch, std::int64_t first, std::int64_t last,
                       const hw::HardwareSpec& spec, L2ReuseModel& l2) {
  std::vector<CtaProgram> programs;
  programs.reserve(static_cast<std::size_t>(last - first));
  std::size_t most_steps = 0;
  for (std::int64_t cta = first; cta < last; ++cta) {
    programs.push_back(launch.programs->program(cta));
    most_steps = std::max(most_steps, programs.back().steps.size());
  }
  RoundWork work;
  work.ctas = static_cast<double>(last - first);
  for (std::size_t index = 0; index < most_steps; ++index) {
    for (const CtaProgram& program : programs) {
      if (index >= program.steps.size()) continue;
      const CtaStep& step = program.steps[index];
      for (const BlockRead& read : step.reads) {
        work.l2_bytes += read.bytes / read.multicast;
        work.hbm_bytes += l2.read(read.key, read.part_begin, read.part_end, read.bytes);
      }
      if (step.write_key) {
        l2.write(*step.write_key, step.write_bytes);
      } else {
        l2.write(step.write_bytes);
      }
      work.l2_bytes += step.write_bytes;
      work.hbm_bytes += step.write_bytes;
      work.flops += step.flops;
      work.unit_s += unit_seconds(step, launch.tensor_efficiency, spec) + step.setup_s;
    }
  }
  return work;
}

}  // namespace

hw::KernelLoad estimate_kernel_load(const KernelLaunch& launch, const hw::HardwareSpec& spec) {
  hw::KernelLoad load;
  load.clock_hz = spec.sm.clock_hz;
  const int ctas_per_sm = BlockScheduler(spec.sm).ctas_per_sm(launch.footprint);
  if (launch.cta_count <= 0 || !launch.programs || ctas_per_sm == 0) return load;
  const std::int64_t round_ctas = std::int64_t{spec.sm.count} * ctas_per_sm;
  load.busy_sms = static_cast<int>(
      std::min<std::int64_t>(spec.sm.count, (launch.cta_count + ctas_per_sm - 1) / ctas_per_sm));

  L2ReuseModel l2(spec.l2.reuse_capacity_bytes());
  std::vector<RoundWork> replayed;
  for (std::int64_t first = 0; first < launch.cta_count && replayed.size() < kReplayedRounds;
       first += round_ctas) {
    replayed.push_back(
        replay_round(launch, first, std::min(launch.cta_count, first + round_ctas), spec, l2));
  }
  // Per CTA, for the rounds not replayed (from the warm rounds when there are some).
  RoundWork per_cta;
  for (std::size_t i = replayed.size() > 1 ? 1 : 0; i < replayed.size(); ++i) {
    per_cta.ctas += replayed[i].ctas;
    per_cta.flops += replayed[i].flops;
    per_cta.unit_s += replayed[i].unit_s;
    per_cta.l2_bytes += replayed[i].l2_bytes;
    per_cta.hbm_bytes += replayed[i].hbm_bytes;
  }

  const double round_fixed_s = spec.launch.cta_dispatch_s + spec.hbm.latency_s;
  double flops = 0;
  double hbm_bytes = 0;
  double time_s = 0;
  std::size_t round = 0;
  for (std::int64_t first = 0; first < launch.cta_count; first += round_ctas, ++round) {
    RoundWork work;
    if (round < replayed.size()) {
      work = replayed[round];
    } else {
      const double share =
          static_cast<double>(std::min(round_ctas, launch.cta_count - first)) / per_cta.ctas;
      work = {share * per_cta.ctas, share * per_cta.flops, share * per_cta.unit_s,
              share * per_cta.l2_bytes, share * per_cta.hbm_bytes};
    }
    // The busiest SM holds ceil(ctas / SMs) of the round's CTAs, sharing its units.
    const double unit_s =
        std::ceil(work.ctas / spec.sm.count) * work.unit_s / std::max(work.ctas, 1.0);
    time_s += std::max({unit_s, work.l2_bytes / spec.l2.bandwidth_bytes_per_s,
                        work.hbm_bytes / spec.hbm.sustained_bytes_per_s()}) +
              round_fixed_s;
    flops += work.flops;
    hbm_bytes += work.hbm_bytes;
  }
  if (time_s > 0) {
    load.flops_per_s = flops / time_s;
    load.hbm_bytes_per_s = hbm_bytes / time_s;
  }
  return load;
}

}  // namespace tilesim::gpu
