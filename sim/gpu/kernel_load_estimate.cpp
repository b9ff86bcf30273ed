#include "sim/gpu/kernel_load_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "sim/gpu/block_scheduler.hpp"
#include "sim/gpu/l2_reuse_model.hpp"
#include "sim/gpu/sm_load_path.hpp"

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

// One round's CTAs, step by step in turn through `l2`.
ReplayedRound replay_round(std::span<const CtaProgram> round, double tensor_efficiency,
                           const hw::HardwareSpec& spec, L2ReuseModel& l2) {
  std::size_t most_steps = 0;
  for (const CtaProgram& program : round) most_steps = std::max(most_steps, program.steps.size());
  ReplayedRound work;
  work.ctas = static_cast<double>(round.size());
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
      work.port_bytes += sm_port_bytes(step, read_bytes, spec);
      // As the executor: reads wait one blended latency (pipeline fill) and
      // flow at most bytes_in_flight per latency.
      const double miss_share = read_bytes > 0 ? missed_bytes / read_bytes : 0;
      const double latency_s = step.read_latency_s > 0 ? step.read_latency_s
                                                       : (1 - miss_share) * spec.l2.latency_s +
                                                             miss_share * spec.hbm.latency_s;
      const double unit_s = unit_seconds(step, tensor_efficiency, spec);
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
                                        CtaProgramStore* store, KernelLoadReplays* replays) {
  KernelLoadEstimate estimate;
  hw::KernelLoad& load = estimate.load;
  load.clock_hz = spec.sm.clock_hz;
  const int ctas_per_sm = BlockScheduler(spec.sm).ctas_per_sm(launch.footprint);
  if (launch.cta_count <= 0 || !launch.programs || ctas_per_sm == 0) return estimate;
  const std::int64_t round_ctas = std::int64_t{spec.sm.count} * ctas_per_sm;
  load.busy_sms = static_cast<int>(
      std::min<std::int64_t>(spec.sm.count, (launch.cta_count + ctas_per_sm - 1) / ctas_per_sm));

  // The replayed rounds' programs, built into the store's storage (may be null).
  const std::int64_t replayed_ctas = std::min(launch.cta_count, kReplayedRounds * round_ctas);
  estimate.programs.reserve(static_cast<std::size_t>(replayed_ctas));
  for (std::int64_t cta = 0; cta < replayed_ctas; ++cta) {
    launch.programs->build(cta,
                           estimate.programs.emplace_back(store ? store->take() : CtaProgram{}));
  }
  // Only a grid of more CTAs than it replays can share its replayed CTAs with
  // another grid's (one of more rows); the others are not kept.
  if (launch.cta_count == replayed_ctas) replays = nullptr;
  const ReplayInputs inputs(round_ctas, launch.tensor_efficiency, spec);
  std::optional<std::vector<ReplayedRound>> rounds =
      replays ? replays->find(inputs, estimate.programs) : std::nullopt;
  if (!rounds) {
    rounds.emplace();
    L2ReuseModel l2(spec.l2.reuse_capacity_bytes());
    const std::span<const CtaProgram> programs(estimate.programs);
    for (std::int64_t first = 0; first < replayed_ctas; first += round_ctas) {
      const std::int64_t last = std::min(replayed_ctas, first + round_ctas);
      rounds->push_back(replay_round(
          programs.subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(last - first)),
          launch.tensor_efficiency, spec, l2));
    }
    if (replays) replays->keep(inputs, estimate.programs, *rounds);
  }
  const std::vector<ReplayedRound>& replayed = *rounds;
  // Per CTA, for the rounds not replayed (from the warm rounds when there are some).
  ReplayedRound warm;
  for (std::size_t i = replayed.size() > 1 ? 1 : 0; i < replayed.size(); ++i) warm += replayed[i];

  double flops = 0;
  double hbm_bytes = 0;
  double time_s = 0;
  std::size_t round = 0;
  for (std::int64_t first = 0; first < launch.cta_count; first += round_ctas, ++round) {
    ReplayedRound work;
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
