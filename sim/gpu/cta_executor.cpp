#include "sim/gpu/cta_executor.hpp"

#include <utility>

namespace tilesim::gpu {
namespace {
constexpr double kPsPerSecond = 1e12;
}  // namespace

CtaExecutor::CtaExecutor(sim::Simulator& simulator, GpuResources& resources,
                         const hw::HardwareSpec& spec)
    : simulator_(simulator), resources_(resources), spec_(spec), l2_(spec.l2.capacity_bytes) {}

void CtaExecutor::run(int sm, double tensor_efficiency, CtaProgram program, DoneCallback on_done) {
  std::uint32_t index = 0;
  if (free_.empty()) {
    index = static_cast<std::uint32_t>(running_.size());
    running_.emplace_back();
  } else {
    index = free_.back();
    free_.pop_back();
  }
  running_[index] =
      RunningCta{sm, tensor_efficiency, std::move(program), 0, {}, 0, std::move(on_done)};
  start_next_step(index);
}

double CtaExecutor::busy_ps(const CtaStep& step, double tensor_efficiency) const {
  if (step.flops <= 0) return 0;
  switch (step.unit) {
    case ExecutionUnit::tensor:
      return step.flops / (spec_.sm_mma_flops_per_s(step.mma_type) * tensor_efficiency) *
             kPsPerSecond;
    case ExecutionUnit::fp32:
      return step.flops / spec_.sm.fp32_flops_per_s * kPsPerSecond;
    case ExecutionUnit::sfu:
      return step.flops / spec_.sm.sfu_ops_per_s * kPsPerSecond;
  }
  return 0;
}

void CtaExecutor::start_next_step(std::uint32_t running_index) {
  RunningCta& cta = running_[running_index];
  if (cta.next_step == cta.program.steps.size()) {
    DoneCallback on_done = std::move(cta.on_done);
    const MemoryTraffic traffic = cta.traffic;
    const double flops = cta.flops;
    cta = RunningCta{};
    free_.push_back(running_index);
    on_done(traffic, flops);
    return;
  }
  const CtaStep& step = cta.program.steps[cta.next_step++];

  double read_bytes = 0;
  double l2_read_bytes = 0;
  double missed_bytes = 0;
  for (const BlockRead& read : step.reads) {
    read_bytes += read.bytes;
    l2_read_bytes += read.bytes / read.multicast;
    missed_bytes += l2_.read(read.key, read.bytes);
  }
  l2_.write(step.write_bytes);
  cta.traffic += MemoryTraffic{l2_read_bytes, missed_bytes, step.write_bytes};
  cta.flops += step.flops;

  const double miss_share = read_bytes > 0 ? missed_bytes / read_bytes : 0;
  const double latency_s = (1 - miss_share) * spec_.l2.latency_s + miss_share * spec_.hbm.latency_s;

  std::vector<sim::FlowDemand> demands = {
      {resources_.l2(), l2_read_bytes + step.write_bytes},
      {resources_.hbm(), missed_bytes + step.write_bytes},
      {resources_.l2_port(cta.sm), read_bytes + step.write_bytes},
      {resources_.unit(cta.sm, step.unit), busy_ps(step, cta.tensor_efficiency)},
  };
  double cap = sim::FluidNetwork::kUncapped;
  if (read_bytes > 0 && step.bytes_in_flight > 0) {
    const double bytes_per_ps = step.bytes_in_flight / (latency_s * kPsPerSecond);
    cap = bytes_per_ps / read_bytes;
  }
  auto start_flow = [this, running_index, demands = std::move(demands), cap]() mutable {
    resources_.network().start_flow(std::move(demands), cap,
                                    [this, running_index] { start_next_step(running_index); });
  };
  if (step.waits_for_first_data && read_bytes > 0) {
    simulator_.schedule_after(sim::SimTime::from_seconds(latency_s), sim::EventPriority::normal,
                              std::move(start_flow));
  } else {
    start_flow();
  }
}

}  // namespace tilesim::gpu
