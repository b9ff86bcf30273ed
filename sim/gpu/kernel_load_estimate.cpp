#include "sim/gpu/kernel_load_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "sim/gpu/block_scheduler.hpp"
#include "sim/gpu/l2_reuse_model.hpp"

namespace tilesim::gpu {
namespace {

constexpr std::int64_t kReplayedRounds = 2;

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

// Summed over a round's CTAs.
struct RoundWork {
  double ctas = 0;
  double flops = 0;
  double unit_s = 0;      // on the execution units
  double own_s = 0;       // each alone: steps at the slower of unit and Little's-law cap
  double port_bytes = 0;  // through the SMs' L2 ports
  double l2_bytes = 0;
  double hbm_bytes = 0;
  RoundWork scaled(double factor) const {
    return {ctas * factor,       flops * factor,    unit_s * factor,   own_s * factor,
            port_bytes * factor, l2_bytes * factor, hbm_bytes * factor};
  }
  RoundWork& operator+=(const RoundWork& other) {
    ctas += other.ctas;
    flops += other.flops;
    unit_s += other.unit_s;
    own_s += other.own_s;
    port_bytes += other.port_bytes;
    l2_bytes += other.l2_bytes;
    hbm_bytes += other.hbm_bytes;
    return *this;
  }
};

// The CTAs [first, last) of one round, step by step in turn through `l2`;
// their programs are appended to `programs`, built into the store's (may be null).
RoundWork replay_round(const KernelLaunch& launch, std::int64_t first, std::int64_t last,
                       const hw::HardwareSpec& spec, L2ReuseModel& l2,
                       std::vector<CtaProgram>& programs, CtaProgramStore* store) {
  std::size_t most_steps = 0;
  for (std::int64_t cta = first; cta < last; ++cta) {
    launch.programs->build(cta, programs.emplace_back(store ? store->take() : CtaProgram{}));
    most_steps = std::max(most_steps, programs.back().steps.size());
  }
  const std::span<const CtaProgram> round(programs.end() - (last - first), programs.end());
  RoundWork work;
  work.ctas = static_cast<double>(last - first);
  for (std::size_t index = 0; index < most_steps; ++index) {
    for (const CtaProgram& program : round) {
      if (index >= program.steps.size()) continue;
      const CtaStep& step = program.steps[index];
      double read_bytes = 0;
      double missed_bytes = 0;
      for (const BlockRead& read : step.reads) {
        read_bytes += read.bytes;
        work.l2_bytes += read.bytes / read.multicast;
        missed_bytes += l2.read(read.key, read.part_begin, read.part_end, read.bytes);
      }
      work.hbm_bytes += missed_bytes;
      work.port_bytes += read_bytes + step.write_bytes;
      // As the executor: reads wait one blended latency (pipeline fill) and
      // flow at most bytes_in_flight per latency.
      const double miss_share = read_bytes > 0 ? missed_bytes / read_bytes : 0;
      const double latency_s = step.read_latency_s > 0 ? step.read_latency_s
                                                       : (1 - miss_share) * spec.l2.latency_s +
                                                             miss_share * spec.hbm.latency_s;
      const double unit_s = unit_seconds(step, launch.tensor_efficiency, spec);
      const double capped_s = read_bytes > 0 && step.bytes_in_flight > 0
                                  ? read_bytes * latency_s / step.bytes_in_flight
                                  : 0;
      work.own_s += std::max({unit_s, capped_s, step.min_duration_s}) + step.setup_s +
                    (read_bytes > 0 ? step.first_data_waits * latency_s : 0);
      if (step.write_key) {
        l2.write(*step.write_key, step.write_bytes);
      } else {
        l2.write(step.write_bytes);
      }
      work.l2_bytes += step.write_bytes;
      work.hbm_bytes += step.write_bytes;
      work.flops += step.flops;
      work.unit_s += unit_s;
    }
  }
  return work;
}

}  // namespace

KernelLoadEstimate estimate_kernel_load(const KernelLaunch& launch, const hw::HardwareSpec& spec,
                                        CtaProgramStore* store) {
  KernelLoadEstimate estimate;
  hw::KernelLoad& load = estimate.load;
  load.clock_hz = spec.sm.clock_hz;
  const int ctas_per_sm = BlockScheduler(spec.sm).ctas_per_sm(launch.footprint);
  if (launch.cta_count <= 0 || !launch.programs || ctas_per_sm == 0) return estimate;
  const std::int64_t round_ctas = std::int64_t{spec.sm.count} * ctas_per_sm;
  load.busy_sms = static_cast<int>(
      std::min<std::int64_t>(spec.sm.count, (launch.cta_count + ctas_per_sm - 1) / ctas_per_sm));

  L2ReuseModel l2(spec.l2.reuse_capacity_bytes());
  std::vector<RoundWork> replayed;
  for (std::int64_t first = 0; first < launch.cta_count && replayed.size() < kReplayedRounds;
       first += round_ctas) {
    replayed.push_back(replay_round(launch, first, std::min(launch.cta_count, first + round_ctas),
                                    spec, l2, estimate.programs, store));
  }
  // Per CTA, for the rounds not replayed (from the warm rounds when there are some).
  RoundWork warm;
  for (std::size_t i = replayed.size() > 1 ? 1 : 0; i < replayed.size(); ++i) warm += replayed[i];

  double flops = 0;
  double hbm_bytes = 0;
  double time_s = 0;
  std::size_t round = 0;
  for (std::int64_t first = 0; first < launch.cta_count; first += round_ctas, ++round) {
    RoundWork work;
    if (round < replayed.size()) {
      work = replayed[round];
    } else {
      work = warm.scaled(static_cast<double>(std::min(round_ctas, launch.cta_count - first)) /
                         warm.ctas);
    }
    // The busiest SM holds ceil(ctas / SMs) of the round's CTAs, sharing its
    // units and L2 port; each CTA takes at least its own time.
    const double per_cta = 1 / std::max(work.ctas, 1.0);
    const double busiest = std::ceil(work.ctas / spec.sm.count);
    const double sm_s =
        std::max({busiest * work.unit_s * per_cta, work.own_s * per_cta,
                  busiest * work.port_bytes * per_cta / spec.sm.l2_port_bytes_per_s});
    time_s += std::max({sm_s, work.l2_bytes / spec.l2.bandwidth_bytes_per_s,
                        work.hbm_bytes / spec.hbm.sustained_bytes_per_s()}) +
              spec.launch.cta_dispatch_s;
    flops += work.flops;
    hbm_bytes += work.hbm_bytes;
  }
  if (time_s > 0) {
    // As the exact path's load: MMAs over edge tiles' padding draw no energy.
    load.flops_per_s = flops * launch.tensor_energy_fraction / time_s;
    load.hbm_bytes_per_s = hbm_bytes / time_s;
  }
  return estimate;
}

}  // namespace tilesim::gpu
