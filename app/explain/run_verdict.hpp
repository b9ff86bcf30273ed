#pragma once
// What bounds a run, in one line of plain language, from its time breakdown
// and its place on the roofline. A shared bandwidth (HBM, L2) busy at least
// kSaturatedShare of the run bounds it, whatever the SMs do: idle SMs could not
// go faster without more of it. Otherwise the largest group of causes in the
// breakdown names the bound.

#include <string>
#include <string_view>

#include "app/explain/roofline.hpp"
#include "app/explain/time_breakdown.hpp"
#include "workloads/workload_run.hpp"

namespace tilesim::explain {

inline constexpr double kSaturatedShare = 0.8;
// Idle SMs (wave tails, small grids) this share of the time are mentioned
// whatever bounds the run.
inline constexpr double kNotableIdleShare = 0.25;

enum class Bound { hbm, l2, tensor, cuda_cores, latency, fixup, tail, launch };

std::string_view bound_key(Bound bound);  // "hbm", "l2", "tensor", ...
// A share as reasons and tables write it: 92%, 4.2%, 0.31% (enough digits to
// tell a small share from none).
std::string share_text(double share);

struct RunVerdict {
  Bound bound = Bound::tensor;
  std::string reason;  // "bandwidth-bound at HBM: 92% of 3.09 TB/s; tensor cores 11% busy"
};

RunVerdict run_verdict(const workloads::WorkloadRun& run, const TimeBreakdown& breakdown,
                       const RooflineCeilings& ceilings, const RooflinePosition& position);

}  // namespace tilesim::explain
