#pragma once
// The replays of estimate_kernel_load kept between simulations. A sweep
// simulates point after point, and points that differ only in what the replay
// does not read replay the same rounds: every grid of the same tile columns
// and at least two rounds of CTAs starts with the same CTAs (a sweep over m),
// and a point that varies the HBM bandwidth replays what the one before did
// (bench/README.md round 21). A kept replay is taken only for programs equal
// to the ones it replayed, under equal inputs, so no result depends on it.
// Its runs may be on several threads: the workers of a sweep share one, so
// that a worker takes the replays the others kept.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::gpu {

// What the replay of one round sums over its CTAs.
struct ReplayedRound {
  double ctas = 0;
  double flops = 0;
  double unit_s = 0;      // on the execution units
  double own_s = 0;       // each alone: steps at the slower of unit and Little's-law cap
  double port_bytes = 0;  // through the SMs' L2 ports
  double l2_bytes = 0;
  double hbm_bytes = 0;
  ReplayedRound scaled(double factor) const;
  ReplayedRound& operator+=(const ReplayedRound& other);
};

// Everything the replay reads besides the CTAs' programs.
struct ReplayInputs {
  std::int64_t round_ctas = 0;
  double tensor_efficiency = 0;
  double l2_capacity_bytes = 0;
  double l2_latency_s = 0;
  double hbm_latency_s = 0;
  double fp32_flops_per_s = 0;
  double sfu_ops_per_s = 0;
  std::vector<double> mma_flops_per_s;  // per hw::DataType
  ReplayInputs(std::int64_t round_ctas, double tensor_efficiency, const hw::HardwareSpec& spec);
  bool operator==(const ReplayInputs&) const = default;
};

class KernelLoadReplays {
 public:
  // The rounds replayed of `programs` under `inputs`, if kept.
  std::optional<std::vector<ReplayedRound>> find(const ReplayInputs& inputs,
                                                 std::span<const CtaProgram> programs) const;
  // Keeps a replay (the oldest kept goes beyond a bound).
  void keep(const ReplayInputs& inputs, std::span<const CtaProgram> programs,
            const std::vector<ReplayedRound>& rounds);

 private:
  // Of each program only its steps: the replay reads nothing else.
  using ProgramSteps = std::vector<CtaStep>;
  struct Replay {
    ReplayInputs inputs;
    std::vector<ProgramSteps> programs;
    std::vector<ReplayedRound> rounds;
  };
  mutable std::mutex mutex_;  // guards what follows
  std::vector<Replay> replays_;
  std::size_t next_ = 0;  // the slot the next kept replay takes once the bound is reached
};

}  // namespace tilesim::gpu
