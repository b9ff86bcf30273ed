#include <fmt/format.h>

#include <array>
#include <chrono>
#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/microbench/graph_node_gap.hpp"

namespace tilesim::microbench {
namespace {

constexpr int kNodes = 48;
constexpr int kSkippedNodes = 4;  // the first nodes of a replay wait for its launch
constexpr int kReplays = 7;
constexpr int kThreads = 32;
constexpr int kLargeParamBytes = 2048;  // a framework kernel's iterator state is ~0.5-2 KiB
constexpr int kTimerReads = 4096;
constexpr int kDistinctFunctions = 4;
// Large-code kernels: each runs kLargeCodeFmas dependent FMAs of distinct
// constants (~16 B of SASS each, ~16 KiB a function); kLargeCodeFunctions of
// them in turn hold ~512 KiB of code, so each start misses the instruction
// caches, as a framework's graph of ~30 different kernels may.
constexpr int kLargeCodeFmas = 1024;
constexpr int kLargeCodeFunctions = 32;
constexpr int kMemsetBytes = 4096;

struct NodeStamps {
  unsigned long long first_start_ns;
  unsigned long long last_end_ns;
};

struct LargeParams {
  unsigned long long spin_ns;
  NodeStamps* stamps;
  unsigned char pad[kLargeParamBytes];
};

__device__ unsigned long long globaltimer_ns() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__device__ void spin_and_stamp(unsigned long long spin_ns, NodeStamps* stamps) {
  if (threadIdx.x != 0) return;
  const unsigned long long start = globaltimer_ns();
  atomicMin(&stamps->first_start_ns, start);
  while (globaltimer_ns() - start < spin_ns) {
  }
  atomicMax(&stamps->last_end_ns, globaltimer_ns());
}

// timed_spin_kernel
//   grid: any; block: kThreads. Thread 0 of each CTA spins `spin_ns` on the
//   global timer and stamps when its CTA started and ended (first start, last end).
__global__ void timed_spin_kernel(unsigned long long spin_ns, NodeStamps* stamps) {
  spin_and_stamp(spin_ns, stamps);
}

// timed_spin_kernel_large_params: the same, with kLargeParamBytes of parameters.
__global__ void timed_spin_kernel_large_params(LargeParams params) {
  spin_and_stamp(params.spin_ns, params.stamps);
}

// timed_spin_kernel_copy<Copy>: the same as timed_spin_kernel, one function per
// Copy, so that a graph can cycle through kDistinctFunctions different kernels.
template <int Copy>
__global__ void timed_spin_kernel_copy(unsigned long long spin_ns, NodeStamps* stamps) {
  spin_and_stamp(spin_ns + Copy, stamps);
}

// timed_large_code_kernel<Copy>
//   grid: any; block: kThreads. Thread 0 stamps its start, runs kLargeCodeFmas
//   dependent FMAs whose constants differ per Copy (so no two functions share
//   code), spins the rest of `spin_ns`, and stamps its end.
template <int Copy>
__global__ void timed_large_code_kernel(unsigned long long spin_ns, NodeStamps* stamps) {
  if (threadIdx.x != 0) return;
  const unsigned long long start = globaltimer_ns();
  atomicMin(&stamps->first_start_ns, start);
  float chain = static_cast<float>(spin_ns);
#pragma unroll
  for (int i = 0; i < kLargeCodeFmas; ++i) {
    chain = fmaf(chain, 1.0f + static_cast<float>(Copy * kLargeCodeFmas + i) * 1e-9f, 1e-3f);
  }
  while (globaltimer_ns() - start < spin_ns) {
  }
  // The chain's result decides nothing but must look used.
  atomicMax(&stamps->last_end_ns, globaltimer_ns() + (chain == 0.5f ? 1 : 0));
}

using TimedKernel = void (*)(unsigned long long, NodeStamps*);

template <int... Copy>
constexpr std::array<TimedKernel, sizeof...(Copy)> small_code_kernels(
    std::integer_sequence<int, Copy...>) {
  return {&timed_spin_kernel_copy<Copy>...};
}

template <int... Copy>
constexpr std::array<TimedKernel, sizeof...(Copy)> large_code_kernels(
    std::integer_sequence<int, Copy...>) {
  return {&timed_large_code_kernel<Copy>...};
}

// timer_step_kernel
//   grid: 1; block: 1. The smallest step of %globaltimer seen in kTimerReads changes.
__global__ void timer_step_kernel(unsigned long long* step_ns) {
  unsigned long long smallest = ULLONG_MAX;
  unsigned long long last = globaltimer_ns();
  for (int changes = 0; changes < kTimerReads;) {
    const unsigned long long now = globaltimer_ns();
    if (now == last) continue;
    smallest = min(smallest, now - last);
    last = now;
    ++changes;
  }
  *step_ns = smallest;
}

// How each node's kernel is launched: as `<<<>>>` does, in clusters of two CTAs
// (as cuBLAS's Hopper kernels are), or allowed to start before the previous
// kernel ends (programmatic stream serialization, as libraries may ask).
enum class LaunchStyle { plain, cluster_of_two, programmatic };

struct NodeShape {
  double spin_us = 0;
  int ctas = 1;
  bool large_params = false;
  int functions = 1;        // consecutive nodes cycle through this many kernel functions
  bool large_code = false;  // the kernels are timed_large_code_kernel's
  int nodes = kNodes;
  LaunchStyle style = LaunchStyle::plain;
  int memset_every = 0;  // a memset node before every N-th kernel (0: none)
};

struct NodeTimes {
  std::vector<double> gaps_us;     // next node's first start - this node's last end
  std::vector<double> periods_us;  // next node's first start - this node's first start
  // A replay's CUDA-event time minus its GPU span (node 0's first start to the last
  // node's last end): the launch's cost outside the kernels.
  std::vector<double> outside_span_us;
  std::vector<double> launch_host_us;  // host time of cudaGraphLaunch
};

void launch_with_attribute(const NodeShape& shape, unsigned long long spin_ns, NodeStamps* stamps,
                           cudaStream_t stream) {
  cudaLaunchAttribute attribute{};
  int ctas = shape.ctas;
  if (shape.style == LaunchStyle::cluster_of_two) {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 2;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    ctas = 2 * ((ctas + 1) / 2);
  } else {
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  TILESIM_CUDA_CHECK(cudaLaunchKernelEx(&config, timed_spin_kernel, spin_ns, stamps));
}

void launch_node(const NodeShape& shape, int node, NodeStamps* stamps, cudaStream_t stream) {
  const auto spin_ns = static_cast<unsigned long long>(shape.spin_us * 1000.0);
  static constexpr auto kSmallCode =
      small_code_kernels(std::make_integer_sequence<int, kDistinctFunctions>{});
  static constexpr auto kLargeCode =
      large_code_kernels(std::make_integer_sequence<int, kLargeCodeFunctions>{});
  if (shape.style != LaunchStyle::plain) {
    launch_with_attribute(shape, spin_ns, stamps, stream);
  } else if (shape.large_code || shape.functions > 1) {
    const TimedKernel kernel = shape.large_code ? kLargeCode.at(node % shape.functions)
                                                : kSmallCode.at(node % shape.functions);
    kernel<<<shape.ctas, kThreads, 0, stream>>>(spin_ns, stamps);
  } else if (shape.large_params) {
    LargeParams params{spin_ns, stamps, {}};
    timed_spin_kernel_large_params<<<shape.ctas, kThreads, 0, stream>>>(params);
  } else {
    timed_spin_kernel<<<shape.ctas, kThreads, 0, stream>>>(spin_ns, stamps);
  }
}

NodeTimes time_graph_nodes(const NodeShape& shape, cudaStream_t stream) {
  NodeStamps* stamps = nullptr;
  const int nodes = shape.nodes;
  TILESIM_CUDA_CHECK(cudaMalloc(&stamps, sizeof(NodeStamps) * nodes));
  void* scratch = nullptr;  // allocated before the capture, which forbids cudaMalloc
  TILESIM_CUDA_CHECK(cudaMalloc(&scratch, kMemsetBytes));
  cudaGraph_t graph = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  for (int node = 0; node < nodes; ++node) {
    if (shape.memset_every > 0 && node % shape.memset_every == 0) {
      TILESIM_CUDA_CHECK(cudaMemsetAsync(scratch, 0, kMemsetBytes, stream));
    }
    launch_node(shape, node, stamps + node, stream);
  }
  TILESIM_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  TILESIM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const std::vector<NodeStamps> unset(nodes, NodeStamps{ULLONG_MAX, 0});
  std::vector<NodeStamps> read(nodes);
  cudaEvent_t start = nullptr;
  cudaEvent_t end = nullptr;
  TILESIM_CUDA_CHECK(cudaEventCreate(&start));
  TILESIM_CUDA_CHECK(cudaEventCreate(&end));
  NodeTimes times;
  for (int replay = 0; replay <= kReplays; ++replay) {
    TILESIM_CUDA_CHECK(cudaMemcpyAsync(stamps, unset.data(), sizeof(NodeStamps) * nodes,
                                       cudaMemcpyHostToDevice, stream));
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));  // timed as a framework times a replay
    TILESIM_CUDA_CHECK(cudaEventRecord(start, stream));
    const auto launch_begin = std::chrono::steady_clock::now();
    TILESIM_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    const auto launch_end = std::chrono::steady_clock::now();
    TILESIM_CUDA_CHECK(cudaEventRecord(end, stream));
    TILESIM_CUDA_CHECK(cudaMemcpyAsync(read.data(), stamps, sizeof(NodeStamps) * nodes,
                                       cudaMemcpyDeviceToHost, stream));
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (replay == 0) continue;  // warm-up
    float event_ms = 0;
    TILESIM_CUDA_CHECK(cudaEventElapsedTime(&event_ms, start, end));
    const double span_ns = static_cast<double>(read[nodes - 1].last_end_ns) -
                           static_cast<double>(read[0].first_start_ns);
    times.outside_span_us.push_back(1000.0 * event_ms - span_ns / 1000.0);
    times.launch_host_us.push_back(
        std::chrono::duration<double, std::micro>(launch_end - launch_begin).count());
    for (int node = kSkippedNodes; node < nodes; ++node) {
      const NodeStamps& before = read[node - 1];
      times.gaps_us.push_back((static_cast<double>(read[node].first_start_ns) -
                               static_cast<double>(before.last_end_ns)) /
                              1000.0);
      times.periods_us.push_back((static_cast<double>(read[node].first_start_ns) -
                                  static_cast<double>(before.first_start_ns)) /
                                 1000.0);
    }
  }
  TILESIM_CUDA_CHECK(cudaEventDestroy(start));
  TILESIM_CUDA_CHECK(cudaEventDestroy(end));
  TILESIM_CUDA_CHECK(cudaGraphExecDestroy(exec));
  TILESIM_CUDA_CHECK(cudaGraphDestroy(graph));
  TILESIM_CUDA_CHECK(cudaFree(stamps));
  TILESIM_CUDA_CHECK(cudaFree(scratch));
  return times;
}

MicrobenchResult timer_step(cudaStream_t stream) {
  unsigned long long* step = nullptr;
  TILESIM_CUDA_CHECK(cudaMalloc(&step, sizeof(unsigned long long)));
  timer_step_kernel<<<1, 1, 0, stream>>>(step);
  unsigned long long step_ns = 0;
  TILESIM_CUDA_CHECK(
      cudaMemcpyAsync(&step_ns, step, sizeof(step_ns), cudaMemcpyDeviceToHost, stream));
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  TILESIM_CUDA_CHECK(cudaFree(step));
  return summarize(
      "globaltimer_step", "ns",
      fmt::format("smallest change of %globaltimer over {} changes, one thread", kTimerReads),
      {static_cast<double>(step_ns)});
}

std::string shape_name(const NodeShape& shape) {
  return fmt::format("{}us_{}cta{}{}{}", shape.spin_us, shape.ctas,
                     shape.large_params ? "_2KiB_params" : "",
                     shape.functions > 1 ? fmt::format("_{}_functions", shape.functions) : "",
                     shape.large_code ? "_large_code" : "");
}

std::string shape_method(const NodeShape& shape) {
  return fmt::format(
      "{}-node graph of dependent kernels ({} CTAs x {} threads, thread 0 spinning {} us on "
      "%globaltimer{}{}{}); nodes {}-{} of {} replays",
      shape.nodes, shape.ctas, kThreads, shape.spin_us,
      shape.large_params ? fmt::format(", {} B of parameters", kLargeParamBytes) : "",
      shape.functions > 1 ? fmt::format(", cycling through {} kernel functions", shape.functions)
                          : "",
      shape.large_code ? fmt::format(", each first running {} FMAs of its own code", kLargeCodeFmas)
                       : "",
      kSkippedNodes + 1, shape.nodes, kReplays);
}

}  // namespace

std::vector<MicrobenchResult> measure_graph_node_gap(const MicrobenchDevice& device) {
  std::vector<NodeShape> shapes;
  for (const double spin_us : {0.0, 1.0, 2.0, 4.0, 8.0, 16.0}) shapes.push_back({spin_us, 1});
  shapes.push_back({2.0, device.sm_count});
  shapes.push_back({2.0, 4 * device.sm_count});
  shapes.push_back({0.0, 1, true});
  shapes.push_back({2.0, 1, true});
  shapes.push_back({0.0, 1, false, kDistinctFunctions});
  shapes.push_back({2.0, 1, false, kDistinctFunctions});
  shapes.push_back({0.0, 1, false, 1, true});
  shapes.push_back({0.0, 1, false, kLargeCodeFunctions, true});
  shapes.push_back({0.0, device.sm_count, false, 1, true});
  shapes.push_back({0.0, device.sm_count, false, kLargeCodeFunctions, true});
  std::vector<MicrobenchResult> results{timer_step(device.stream)};
  for (const NodeShape& shape : shapes) {
    NodeTimes times = time_graph_nodes(shape, device.stream);
    results.push_back(
        summarize("graph_gap_" + shape_name(shape), "us",
                  "first CTA start minus the previous node's last CTA end: " + shape_method(shape),
                  std::move(times.gaps_us)));
    results.push_back(summarize(
        "graph_period_" + shape_name(shape), "us",
        "first CTA start minus the previous node's first CTA start: " + shape_method(shape),
        std::move(times.periods_us)));
  }
  // Does a graph launch cost the GPU time in proportion to its nodes before the
  // first one runs? And graphs like a framework's: large parameter blocks,
  // memset nodes, clusters, and kernels allowed to start early.
  std::vector<std::pair<std::string, NodeShape>> launches;
  for (const int nodes : {16, 64, 256, 1024}) {
    for (const double spin_us : {0.0, 2.0}) {
      launches.emplace_back(fmt::format("{}nodes_{}us", nodes, spin_us),
                            NodeShape{spin_us, 1, false, 1, false, nodes});
    }
  }
  NodeShape memsets{0.0, 1, false, 1, false, 256};
  memsets.memset_every = 16;
  launches.emplace_back("256nodes_0us_memset_every_16", memsets);
  launches.emplace_back("256nodes_0us_2KiB_params", NodeShape{0.0, 1, true, 1, false, 256});
  NodeShape clusters = memsets;
  clusters.memset_every = 0;
  clusters.style = LaunchStyle::cluster_of_two;
  launches.emplace_back("256nodes_0us_clusters_of_2", clusters);
  NodeShape programmatic = clusters;
  programmatic.style = LaunchStyle::programmatic;
  launches.emplace_back("256nodes_0us_programmatic", programmatic);
  for (const auto& [name, shape] : launches) {
    NodeTimes times = time_graph_nodes(shape, device.stream);
    const std::string what =
        shape_method(shape) +
        (shape.memset_every > 0 ? fmt::format(", a {} B memset node before every {}th",
                                              kMemsetBytes, shape.memset_every)
                                : "") +
        (shape.style == LaunchStyle::cluster_of_two ? ", launched in clusters of 2 CTAs"
         : shape.style == LaunchStyle::programmatic
             ? ", launched with programmatic stream serialization"
             : "");
    results.push_back(summarize("graph_outside_span_" + name, "us",
                                "CUDA-event time of a replay (after a synchronize) minus node 0's "
                                "first CTA start to the last node's last CTA end: " +
                                    what,
                                std::move(times.outside_span_us)));
    results.push_back(summarize("graph_launch_host_" + name, "us",
                                "host time of cudaGraphLaunch: " + what,
                                std::move(times.launch_host_us)));
  }
  return results;
}

}  // namespace tilesim::microbench
