#pragma once
// Times GPU work with CUDA events: warm-up runs first, then each timed run
// between its own pair of events, waited for before the next.

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace tilesim::microbench {

// Microseconds of each of `runs` calls of `enqueue` (which enqueues on `stream`).
std::vector<double> time_on_gpu_us(const std::function<void()>& enqueue, int warmup_runs, int runs,
                                   cudaStream_t stream);

}  // namespace tilesim::microbench
