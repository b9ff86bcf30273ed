#pragma once
// What one SM's execution units sustain, from register-only loops with enough
// independent chains to hide latency: mma.sync.m16n8k16 (bf16, fp16), FP32 FMA,
// ex2.approx (the SFU), and 128-bit shared-memory loads. Rates are per SM, per
// cycle of the SM clock each kernel measured while it ran.

#include <vector>

#include "kernels/microbench/microbench_device.hpp"
#include "kernels/microbench/microbench_result.hpp"

namespace tilesim::microbench {

// mma_sync_bf16, sm_clock_under_load (MHz, during the bf16 mma.sync loop),
// mma_sync_fp16 (flop/clk per SM), fp32_fma (flop/clk), sfu_ex2 (op/clk),
// shared_memory_bandwidth (B/clk).
std::vector<MicrobenchResult> measure_compute_throughput(const MicrobenchDevice& device);

}  // namespace tilesim::microbench
