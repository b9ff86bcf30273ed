// tilesim-l2-residency: how long a line stays in L2 while the SMs stream HBM,
// for the window of the L2 model's drift (a read of data another CTA used
// last hits only if the two are closer in time than a line's residency).
// One CTA per SM; CTA b < sms / 2 (a leader) streams its own 18 MiB region of
// HBM in 192 KiB chunks (as tilesim-cta-drift), CTA b + sms / 2 (its
// follower) waits `delay` and then reads the same region in the same order.
// A follower closer than a line's residency hits, runs faster than its
// leader and catches up (its lag shrinks); one further behind misses and
// keeps its lag. `pace` spins every CTA that long after each chunk, which
// slows the rate lines enter L2: if the residency is capacity / fill rate
// (and not capacity / L2 bandwidth), the delay a follower survives grows as
// the pace lowers the fill rate.
//
//   tilesim-l2-residency                  the table below on stdout
//   tilesim-l2-residency --once PACE_NS DELAY_US   one warm-up and one launch (for ncu)
//
// stdout, one row per (pace, delay), medians of 5 launches (by span):
//   pace_ns, delay_us, span_us, leader_gbs, lag_q1_us, lag_half_us, lag_end_us
// leader_gbs: the leaders' bytes over the median leader's time (the rate
// lines enter L2 when every follower hits); lag_*: the median over pairs of
// the follower's stamp less its leader's after 1/4, 1/2 and all chunks.
// Exit status: 0, 1 on a CUDA error or bad arguments, 77 without a device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/microbench/device_clock.cuh"
#include "kernels/microbench/hbm_chunk_stream.cuh"

namespace {

using tilesim::kernels::DeviceBuffer;
using tilesim::microbench::global_time_ns;
namespace stream = tilesim::microbench::hbm_stream;

constexpr int kRepeats = 5;
constexpr int kWarmUpLaunches = 200;

__device__ void spin_until(unsigned long long end_ns) {
  while (global_time_ns() < end_ns) {
  }
}

// residency_kernel
//   grid: one CTA per SM (2 x pairs); block: stream::kThreads. CTA b reads region
//   b % pairs; followers (b >= pairs) start `delay_ns` after their first
//   stamp; every CTA spins `pace_ns` after each chunk. Thread 0 stamps the
//   start and every chunk's end (stamps[b * (chunks + 1) + c]).
__global__ void __launch_bounds__(stream::kThreads, 1)
    residency_kernel(const uint4* data, int pairs, unsigned long long delay_ns,
                     unsigned long long pace_ns, unsigned long long* stamps, std::uint32_t* sink) {
  const uint4* region =
      data + std::size_t(blockIdx.x % pairs) * stream::kChunks * stream::kChunkWords;
  unsigned long long* own = stamps + std::size_t(blockIdx.x) * (stream::kChunks + 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    own[0] = global_time_ns();
    if (static_cast<int>(blockIdx.x) >= pairs) spin_until(own[0] + delay_ns);
  }
  __syncthreads();
  std::uint32_t folded = 0;
  for (int c = 0; c < stream::kChunks; ++c) {
    folded = stream::fold_chunk(region, c, folded);
    __syncthreads();
    if (threadIdx.x == 0) {
      own[c + 1] = global_time_ns();
      spin_until(own[c + 1] + pace_ns);
    }
    __syncthreads();
  }
  if (folded == stream::kNeverFolded) *sink = folded;
}

double stamp_us(const std::vector<unsigned long long>& stamps, int cta, int chunk) {
  return 1e-3 * static_cast<double>(stamps[std::size_t(cta) * (stream::kChunks + 1) + chunk]);
}

struct Launch {
  double span_us;
  double leader_us;            // stream::median over leaders of their end less their start
  std::vector<double> lag_us;  // per chunk (1..chunks): stream::median over pairs
};

Launch analyse(const std::vector<unsigned long long>& stamps, int pairs) {
  double first = stamp_us(stamps, 0, 0);
  double last = first;
  std::vector<double> leader_us;
  for (int cta = 0; cta < 2 * pairs; ++cta) {
    first = std::min(first, stamp_us(stamps, cta, 0));
    last = std::max(last, stamp_us(stamps, cta, stream::kChunks));
    if (cta < pairs)
      leader_us.push_back(stamp_us(stamps, cta, stream::kChunks) - stamp_us(stamps, cta, 0));
  }
  Launch launch{last - first, stream::median(leader_us), {}};
  for (int c = 1; c <= stream::kChunks; ++c) {
    std::vector<double> lags;
    for (int b = 0; b < pairs; ++b)
      lags.push_back(stamp_us(stamps, b + pairs, c) - stamp_us(stamps, b, c));
    launch.lag_us.push_back(stream::median(lags));
  }
  return launch;
}

class Bench {
 public:
  explicit Bench(int pairs)
      : pairs_(pairs),
        data_bytes_(std::size_t(pairs) * stream::kChunks * stream::kChunkWords * sizeof(uint4)),
        data_(data_bytes_),
        stamps_(sizeof(unsigned long long) * 2 * pairs * (stream::kChunks + 1)),
        sink_(sizeof(std::uint32_t)) {
    TILESIM_CUDA_CHECK(cudaMemset(data_.get(), 0x5a, data_bytes_));
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(
        residency_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, stream::kSharedBytes));
  }

  std::vector<unsigned long long> run(double pace_ns, double delay_us) {
    residency_kernel<<<2 * pairs_, stream::kThreads, stream::kSharedBytes>>>(
        data_.as<uint4>(), pairs_, static_cast<unsigned long long>(1e3 * delay_us),
        static_cast<unsigned long long>(pace_ns), stamps_.as<unsigned long long>(),
        sink_.as<std::uint32_t>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
    TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> host(std::size_t(2 * pairs_) * (stream::kChunks + 1));
    TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), stamps_.get(), host.size() * sizeof(host[0]),
                                  cudaMemcpyDeviceToHost));
    return host;
  }
  void warm_up() {
    for (int i = 0; i < kWarmUpLaunches; ++i) run(0, 0);
  }
  double leader_bytes() const { return static_cast<double>(data_bytes_); }

 private:
  int pairs_;
  std::size_t data_bytes_;
  DeviceBuffer data_;
  DeviceBuffer stamps_;
  DeviceBuffer sink_;
};

void measure(int pairs) {
  Bench bench(pairs);
  bench.warm_up();
  std::printf("pace_ns,delay_us,span_us,leader_gbs,lag_q1_us,lag_half_us,lag_end_us\n");
  for (const double pace_ns : {0.0, 8000.0, 24000.0}) {
    for (const double delay_us :
         {0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0, 48.0, 64.0}) {
      std::vector<Launch> launches;
      for (int r = 0; r < kRepeats; ++r)
        launches.push_back(analyse(bench.run(pace_ns, delay_us), pairs));
      std::sort(launches.begin(), launches.end(),
                [](const Launch& a, const Launch& b) { return a.span_us < b.span_us; });
      const Launch& mid = launches[launches.size() / 2];
      std::printf("%.0f,%.0f,%.1f,%.0f,%.2f,%.2f,%.2f\n", pace_ns, delay_us, mid.span_us,
                  1e-3 * bench.leader_bytes() / mid.leader_us, mid.lag_us[stream::kChunks / 4 - 1],
                  mid.lag_us[stream::kChunks / 2 - 1], mid.lag_us[stream::kChunks - 1]);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<int> sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  const int pairs = *sms / 2;
  try {
    if (argc == 4 && std::strcmp(argv[1], "--once") == 0) {
      Bench bench(pairs);
      bench.run(0, 0);
      bench.run(std::atof(argv[2]), std::atof(argv[3]));
      return 0;
    }
    if (argc != 1) {
      std::fprintf(stderr, "usage: tilesim-l2-residency [--once PACE_NS DELAY_US]\n");
      return 1;
    }
    measure(pairs);
  } catch (const tilesim::kernels::CudaError& error) {
    std::fprintf(stderr, "tilesim-l2-residency: %s\n", error.what());
    return 1;
  }
  return 0;
}
