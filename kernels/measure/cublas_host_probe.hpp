#pragma once
// The host's cost of one cuBLAS call on this machine, measured: what our
// unfused attention path pays per GEMM launch when its sequences are short
// (kernels/attention/unfused_attention.cu issues 2 x group calls and one
// softmax per sequence). The host's speed differs between leases of the same
// GPU (6.5 to 11.4 us a launch for the same launch sequence, docs/validation.md,
// round 9), so each unfused row carries the probe taken just before it, and
// `tilesim compare` simulates that row on that host.

#include <cuda_runtime_api.h>

namespace tilesim::measure {

// Host microseconds per cublasGemmStridedBatchedEx call (bf16 in and out,
// fp32 compute, the unfused path's call), median of several bursts of calls
// on problems too small for the GPU to fall behind: the host time of the call
// with its kernel launch, nothing of the GPU's.
double cublas_call_host_us(cudaStream_t stream);

}  // namespace tilesim::measure
