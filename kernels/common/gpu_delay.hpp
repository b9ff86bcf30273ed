#pragma once
// A kernel that only waits: enqueued ahead of a batch of timed launches, it
// keeps the GPU busy while the host queues the batch, so that the CUDA events
// around each launch measure the GPU, not the host's launch rate.

#include <cuda_runtime_api.h>

namespace tilesim::kernels {

void enqueue_gpu_delay(double microseconds, cudaStream_t stream);

}  // namespace tilesim::kernels
