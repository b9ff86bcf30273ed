#include <fmt/format.h>

#include <chrono>
#include <string>
#include <utility>

#include "kernels/common/cuda_check.hpp"
#include "kernels/microbench/kernel_timer.hpp"
#include "kernels/microbench/launch_overhead.hpp"
#include "kernels/microbench/least_squares_slope.hpp"

namespace tilesim::microbench {
namespace {

constexpr int kIssueBatch = 2000;  // launches per host-timed batch
constexpr int kIssueBatches = 11;
constexpr int kRoundTrips = 501;
constexpr int kGraphRuns = 21;
constexpr int kWaveRuns = 21;
// Enough dynamic shared memory that only one CTA fits on an SM, so a grid of
// SMs x W CTAs runs in W waves.
constexpr int kOneCtaPerSmSharedBytes = 160 * 1024;
// The chained graph kernels: 16 CTAs of 256 threads, 16 bytes a thread
// (64 KiB), the size of a decode step's elementwise op on 4096 fp32 values x 4.
constexpr int kChainCtas = 16;
constexpr int kChainThreads = 256;

// empty_kernel
//   grid: any; block: any. Does nothing: what is left is the cost of launching it.
__global__ void empty_kernel() {}

// wave_kernel
//   grid: SMs x waves; block: 32 threads, with shared memory for one CTA per SM.
//   Does nothing, so each wave costs dispatch and retirement alone.
__global__ void wave_kernel() {}

// store_kernel
//   grid: any; block: kChainThreads. Each thread stores 16 bytes: a kernel
//   whose only work is a write that must be complete when the kernel is.
__global__ void store_kernel(uint4* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_uint4(threadIdx.x, 1, 2, 3);
}

// copy_kernel
//   grid: any; block: kChainThreads. Each thread loads 16 bytes the previous
//   node stored and stores them elsewhere: a framework's chain of tiny
//   elementwise kernels, one dependent L2 round trip and one write each.
__global__ void copy_kernel(const uint4* in, uint4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

MicrobenchResult host_issue(cudaStream_t stream) {
  std::vector<double> samples;
  for (int batch = 0; batch < kIssueBatches; ++batch) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < kIssueBatch; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    samples.push_back(us_since(start) / kIssueBatch);
    TILESIM_CUDA_CHECK(cudaGetLastError());
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  samples.erase(samples.begin());  // the first batch warms up
  return summarize("host_issue_per_launch", "us",
                   fmt::format("host time of {} back-to-back empty-kernel launches / {}, "
                               "median of {} batches",
                               kIssueBatch, kIssueBatch, kIssueBatches - 1),
                   samples);
}

MicrobenchResult launch_round_trip(cudaStream_t stream) {
  std::vector<double> samples;
  for (int i = 0; i < kRoundTrips; ++i) {
    const Clock::time_point start = Clock::now();
    empty_kernel<<<1, 32, 0, stream>>>();
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (i > 0) samples.push_back(us_since(start));
  }
  return summarize("empty_launch_sync", "us",
                   "host time of one empty-kernel launch + cudaStreamSynchronize", samples);
}

// What each node of a chained graph does.
enum class GraphNode { empty, store, copy };

// GPU time of one replay of a graph of `nodes` kernels of one kind (median).
double graph_replay_us(GraphNode kind, int nodes, uint4* buffers, cudaStream_t stream) {
  constexpr int kValues = kChainCtas * kChainThreads;
  cudaGraph_t graph = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < nodes; ++i) {
    uint4* const even = buffers;
    uint4* const odd = buffers + kValues;
    switch (kind) {
      case GraphNode::empty:
        empty_kernel<<<1, 32, 0, stream>>>();
        break;
      case GraphNode::store:
        store_kernel<<<kChainCtas, kChainThreads, 0, stream>>>(even);
        break;
      case GraphNode::copy:
        copy_kernel<<<kChainCtas, kChainThreads, 0, stream>>>(i % 2 ? odd : even,
                                                              i % 2 ? even : odd);
        break;
    }
  }
  TILESIM_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  TILESIM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const auto times = time_on_gpu_us([&] { TILESIM_CUDA_CHECK(cudaGraphLaunch(exec, stream)); }, 3,
                                    kGraphRuns, stream);
  TILESIM_CUDA_CHECK(cudaGraphExecDestroy(exec));
  TILESIM_CUDA_CHECK(cudaGraphDestroy(graph));
  return median(times);
}

// Slope of a graph's GPU time over its node count: what one more node costs.
MicrobenchResult graph_node_slope(GraphNode kind, std::string name, std::string what,
                                  cudaStream_t stream) {
  uint4* buffers = nullptr;
  TILESIM_CUDA_CHECK(cudaMalloc(&buffers, 2 * sizeof(uint4) * kChainCtas * kChainThreads));
  TILESIM_CUDA_CHECK(cudaMemset(buffers, 1, 2 * sizeof(uint4) * kChainCtas * kChainThreads));
  std::vector<std::pair<double, double>> points;  // nodes, us
  for (const int nodes : {16, 64, 256, 1024}) {
    points.emplace_back(nodes, graph_replay_us(kind, nodes, buffers, stream));
  }
  TILESIM_CUDA_CHECK(cudaFree(buffers));
  const double slope = least_squares_slope(points);
  return {std::move(name),
          slope,
          slope,
          slope,
          "us",
          kGraphRuns,
          fmt::format("slope of the GPU time of a graph replay over its node count (16, 64, 256, "
                      "1024 {}; median of each)",
                      what)};
}

MicrobenchResult cta_dispatch(const MicrobenchDevice& device) {
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(wave_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          kOneCtaPerSmSharedBytes));
  std::vector<std::pair<double, double>> points;  // waves, us
  for (const int waves : {1, 2, 4, 8, 16, 32, 64}) {
    const auto times = time_on_gpu_us(
        [&] {
          wave_kernel<<<device.sm_count * waves, 32, kOneCtaPerSmSharedBytes, device.stream>>>();
        },
        3, kWaveRuns, device.stream);
    points.emplace_back(waves, median(times));
  }
  const double slope = least_squares_slope(points);
  return {"cta_dispatch_per_wave",
          slope,
          slope,
          slope,
          "us",
          kWaveRuns,
          fmt::format("slope of the time of a grid of {} x W empty CTAs (one per SM: {} KiB "
                      "shared memory) over W = 1..64 waves",
                      device.sm_count, kOneCtaPerSmSharedBytes / 1024)};
}

}  // namespace

std::vector<MicrobenchResult> measure_launch_overhead(const MicrobenchDevice& device) {
  return {host_issue(device.stream),
          launch_round_trip(device.stream),
          graph_node_slope(GraphNode::empty, "graph_node", "empty kernels", device.stream),
          graph_node_slope(GraphNode::store, "graph_node_store",
                           fmt::format("kernels of {} x {} threads storing 16 B each", kChainCtas,
                                       kChainThreads),
                           device.stream),
          graph_node_slope(GraphNode::copy, "graph_node_copy",
                           fmt::format("kernels of {} x {} threads each copying 16 B that the "
                                       "previous node stored",
                                       kChainCtas, kChainThreads),
                           device.stream),
          cta_dispatch(device)};
}

}  // namespace tilesim::microbench
