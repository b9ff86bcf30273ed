#pragma once
// Timing one attention case on the GPU: fresh random inputs built on the host
// (kernels/attention/attention_inputs.hpp) in enough sets to rotate through
// when one set would stay in L2, one checked run against the float64
// reference (output poisoned), then the shared timing method (timed_runs.hpp).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "kernels/measure/attention_case.hpp"
#include "kernels/measure/host_enqueue.hpp"
#include "kernels/measure/timed_runs.hpp"

namespace tilesim::measure {

struct AttentionMeasurement {
  TimedRuns timed;
  double tflops = 0;  // useful FLOPs (visible pairs only) / median
  double gbps = 0;    // Q, K, V read once and O written once / median
  int input_sets = 0;
  double relative_error = 0;  // of the checked run against the float64 reference
  double error_bound = 0;
  std::int64_t non_finite = 0;
  bool guard_intact = true;
  bool check_passed = false;
  int kernels = 0;  // launches per run
  std::size_t workspace_bytes = 0;
  int splits = 0;  // KV splits per sequence used (0: none)
  // Unfused rows: the host's time to enqueue a run, right after the timed runs
  // (host_enqueue.hpp); nullopt for the other variants.
  std::optional<HostEnqueue> host_enqueue;
};

// A case whose checked run fails is not timed: its timing fields stay 0.
AttentionMeasurement measure_attention(const AttentionCase& item, const TimingOptions& options,
                                       cudaStream_t stream);

}  // namespace tilesim::measure
