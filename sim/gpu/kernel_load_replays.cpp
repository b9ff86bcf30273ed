#include "sim/gpu/kernel_load_replays.hpp"

#include <algorithm>

namespace tilesim::gpu {
namespace {

// A sweep over m at every n of a grid of 25 tile columns comes back to a
// column count after 25 points; a kept replay holds two rounds of programs
// (~0.3 MB for 264 GEMM CTAs).
constexpr std::size_t kMostKept = 32;

constexpr hw::DataType kDataTypes[] = {hw::DataType::fp32, hw::DataType::tf32, hw::DataType::fp16,
                                       hw::DataType::bf16, hw::DataType::fp8};

}  // namespace

ReplayedRound ReplayedRound::scaled(double factor) const {
  return {ctas * factor,       flops * factor,    unit_s * factor,   own_s * factor,
          port_bytes * factor, l2_bytes * factor, hbm_bytes * factor};
}

ReplayedRound& ReplayedRound::operator+=(const ReplayedRound& other) {
  ctas += other.ctas;
  flops += other.flops;
  unit_s += other.unit_s;
  own_s += other.own_s;
  port_bytes += other.port_bytes;
  l2_bytes += other.l2_bytes;
  hbm_bytes += other.hbm_bytes;
  return *this;
}

ReplayInputs::ReplayInputs(std::int64_t round_ctas_, double tensor_efficiency_,
                           const hw::HardwareSpec& spec)
    : round_ctas(round_ctas_),
      tensor_efficiency(tensor_efficiency_),
      l2_capacity_bytes(spec.l2.reuse_capacity_bytes()),
      l2_latency_s(spec.l2.latency_s),
      hbm_latency_s(spec.hbm.latency_s),
      fp32_flops_per_s(spec.sm.fp32_flops_per_s),
      sfu_ops_per_s(spec.sm.sfu_ops_per_s) {
  for (const hw::DataType type : kDataTypes)
    mma_flops_per_s.push_back(spec.sm_mma_flops_per_s(type));
}

std::optional<std::vector<ReplayedRound>> KernelLoadReplays::find(
    const ReplayInputs& inputs, std::span<const CtaProgram> programs) const {
  const std::scoped_lock lock(mutex_);
  for (const Replay& replay : replays_) {
    if (replay.programs.size() != programs.size() || !(replay.inputs == inputs)) continue;
    // From the last CTA back: grids that share their first CTAs (the same
    // first band of tiles) differ at their last.
    if (std::equal(replay.programs.rbegin(), replay.programs.rend(), programs.rbegin(),
                   [](const ProgramSteps& kept, const CtaProgram& program) {
                     return kept == program.steps;
                   })) {
      return replay.rounds;
    }
  }
  return std::nullopt;
}

void KernelLoadReplays::keep(const ReplayInputs& inputs, std::span<const CtaProgram> programs,
                             const std::vector<ReplayedRound>& rounds) {
  Replay replay{inputs, {}, rounds};
  replay.programs.reserve(programs.size());
  for (const CtaProgram& program : programs) replay.programs.push_back(program.steps);
  const std::scoped_lock lock(mutex_);
  if (replays_.size() < kMostKept) {
    replays_.push_back(std::move(replay));
    return;
  }
  replays_[next_] = std::move(replay);
  next_ = (next_ + 1) % kMostKept;
}

}  // namespace tilesim::gpu
