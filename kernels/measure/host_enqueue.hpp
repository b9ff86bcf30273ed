#pragma once
// The host's time to enqueue one run of a case, measured in the same process
// right after the case's timed runs: the run's own launch sequence, queued
// behind a GPU-side delay kernel so that the GPU never stalls the host and the
// host's wall time is its enqueue cost alone. A row whose run makes many
// launches (our unfused path: 2 x group cuBLAS calls and a softmax per
// sequence) is timed at this host's speed when the host is slower than the
// GPU, and that speed moves from lease to lease and within seconds (-36% to
// +61% on the same rows, docs/validation.md, round 11): `tilesim compare`
// simulates such a row on the host this measured (measurement_comparison.hpp).
// The same runs' CUDA events give the run's time with the host out of the way
// (the GPU's side of the row).

#include <cuda_runtime_api.h>

#include <functional>

namespace tilesim::measure {

struct HostEnqueue {
  // Over the runs wholly queued before the delay ran out (the host never
  // waited on the GPU): the median host wall time to enqueue one, and the
  // median time of those runs between their events (the GPU's side alone).
  double host_us = 0;
  double gpu_us = 0;
  int runs = 0;             // such runs, of 9
  bool host_ahead = false;  // most runs were such runs: the times stand
};

// `launch(set)` enqueues one run on input set `set`; `run_estimate_us` is the
// case's measured time a run (the delay outlasts the host's enqueueing of a
// host-bound run).
HostEnqueue time_host_enqueue(const std::function<void(int)>& launch, int sets,
                              double run_estimate_us, cudaStream_t stream);

}  // namespace tilesim::measure
