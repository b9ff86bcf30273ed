// tilesim-cta-drift: how far persistent CTAs that do the same work drift
// apart in time, for the L2 model's sharing between CTAs (pure Stream-K's
// lock-step partners: units one rasterization band apart read the same B
// k-blocks in the same order). One CTA per SM streams its group's region of
// HBM in chunks of 192 KiB (four of the wgmma kernel's 48 KiB stages, all
// loads in flight, then a barrier and a %globaltimer stamp); the CTAs b,
// b + G, b + 2G, ... of a grid of `sms` CTAs (G = sms / sharers) are one
// group and read the same region in the same order, as the partners do.
// sharers = 1: every CTA its own region (no sharing, nothing to catch up on).
//
//   tilesim-cta-drift [SPREAD_CSV]        the table below on stdout
//   tilesim-cta-drift --once SHARERS      one warm-up and one launch (for ncu)
//
// stdout, one row per sharers count (medians of 5 launches):
//   sharers, span_us, chunk_us, sm_gbs, region_gbs, spread_q1_us,
//   spread_half_us, spread_q3_us, spread_end_us, pair_spread_end_us
// spread_*: the median over groups of (latest - earliest) stamp of the
// group's CTAs after 1/4, 1/2, 3/4 and all of the chunks; pair_spread_end_us:
// the same for the CTA pairs (b, b + sms/2) whatever they read (with
// sharers = 1 the drift of CTAs that share nothing). SPREAD_CSV: sharers,
// chunk, elapsed_us, median_spread_us of the median launch, every chunk.
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
constexpr int kWarmUpLaunches = 300;

// drift_kernel
//   grid: one CTA per SM; block: stream::kThreads. CTA b reads region b % groups,
//   chunk by chunk; thread 0 stamps the start and the end of every chunk
//   (stamps[b * (chunks + 1) + c]).
__global__ void __launch_bounds__(stream::kThreads, 1)
    drift_kernel(const uint4* data, int groups, int chunks, unsigned long long* stamps,
                 std::uint32_t* sink) {
  const uint4* region = data + std::size_t(blockIdx.x % groups) * chunks * stream::kChunkWords;
  unsigned long long* own = stamps + std::size_t(blockIdx.x) * (chunks + 1);
  __syncthreads();
  if (threadIdx.x == 0) own[0] = global_time_ns();
  std::uint32_t folded = 0;
  for (int c = 0; c < chunks; ++c) {
    folded = stream::fold_chunk(region, c, folded);
    __syncthreads();
    if (threadIdx.x == 0) own[c + 1] = global_time_ns();
  }
  if (folded == stream::kNeverFolded) *sink = folded;
}

struct Launch {
  double span_us;
  std::vector<double> spread_us;  // per chunk (1..chunks): stream::median over groups
  double pair_spread_end_us;
};

// Median over CTA sets of (latest - earliest) stamp after `chunk` chunks; a
// set is the CTAs b, b + step, b + 2 step, ... below `sms`.
double median_spread(const std::vector<unsigned long long>& stamps, int sms, int step, int chunk) {
  std::vector<double> spreads;
  for (int b = 0; b < step; ++b) {
    unsigned long long first = ~0ull;
    unsigned long long last = 0;
    for (int cta = b; cta < sms; cta += step) {
      const unsigned long long t = stamps[std::size_t(cta) * (stream::kChunks + 1) + chunk];
      first = std::min(first, t);
      last = std::max(last, t);
    }
    spreads.push_back(1e-3 * static_cast<double>(last - first));
  }
  return stream::median(spreads);
}

Launch analyse(const std::vector<unsigned long long>& stamps, int sms, int groups) {
  unsigned long long first = ~0ull;
  unsigned long long last = 0;
  for (int cta = 0; cta < sms; ++cta) {
    first = std::min(first, stamps[std::size_t(cta) * (stream::kChunks + 1)]);
    last = std::max(last, stamps[std::size_t(cta) * (stream::kChunks + 1) + stream::kChunks]);
  }
  Launch launch{1e-3 * static_cast<double>(last - first), {}, 0};
  for (int c = 1; c <= stream::kChunks; ++c)
    launch.spread_us.push_back(median_spread(stamps, sms, groups, c));
  launch.pair_spread_end_us = median_spread(stamps, sms, sms / 2, stream::kChunks);
  return launch;
}

class Bench {
 public:
  explicit Bench(int sms)
      : sms_(sms),
        data_bytes_(std::size_t(sms) * stream::kChunks * stream::kChunkWords * sizeof(uint4)),
        data_(data_bytes_),
        stamps_(sizeof(unsigned long long) * sms * (stream::kChunks + 1)),
        sink_(sizeof(std::uint32_t)) {
    TILESIM_CUDA_CHECK(cudaMemset(data_.get(), 0x5a, data_bytes_));
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(
        drift_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, stream::kSharedBytes));
  }

  std::vector<unsigned long long> run(int sharers) {
    launch(sharers);
    std::vector<unsigned long long> host(std::size_t(sms_) * (stream::kChunks + 1));
    TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), stamps_.get(), host.size() * sizeof(host[0]),
                                  cudaMemcpyDeviceToHost));
    return host;
  }
  void warm_up() {
    for (int i = 0; i < kWarmUpLaunches; ++i) launch(1);
  }
  int groups(int sharers) const { return sms_ / sharers; }

 private:
  void launch(int sharers) {
    drift_kernel<<<sms_, stream::kThreads, stream::kSharedBytes>>>(
        data_.as<uint4>(), groups(sharers), stream::kChunks, stamps_.as<unsigned long long>(),
        sink_.as<std::uint32_t>());
    TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  }

  int sms_;
  std::size_t data_bytes_;
  DeviceBuffer data_;
  DeviceBuffer stamps_;
  DeviceBuffer sink_;
};

void measure(int sms, FILE* spread_csv) {
  Bench bench(sms);
  bench.warm_up();
  std::printf(
      "sharers,span_us,chunk_us,sm_gbs,region_gbs,spread_q1_us,spread_half_us,spread_q3_us,"
      "spread_end_us,pair_spread_end_us\n");
  if (spread_csv) std::fprintf(spread_csv, "sharers,chunk,elapsed_us,median_spread_us\n");
  const double chunk_bytes = static_cast<double>(stream::kChunkWords * sizeof(uint4));
  for (const int sharers : {1, 2, 3, 4}) {
    if (sms % sharers != 0) continue;
    std::vector<Launch> launches;
    for (int r = 0; r < kRepeats; ++r) {
      launches.push_back(analyse(bench.run(sharers), sms, bench.groups(sharers)));
    }
    std::sort(launches.begin(), launches.end(),
              [](const Launch& a, const Launch& b) { return a.span_us < b.span_us; });
    const Launch& mid = launches[launches.size() / 2];
    const double sm_bytes = chunk_bytes * stream::kChunks * sms;
    const auto at = [&](int quarter) { return mid.spread_us[stream::kChunks * quarter / 4 - 1]; };
    std::printf("%d,%.1f,%.3f,%.0f,%.0f,%.2f,%.2f,%.2f,%.2f,%.2f\n", sharers, mid.span_us,
                mid.span_us / stream::kChunks, 1e-3 * sm_bytes / mid.span_us,
                1e-3 * sm_bytes / sharers / mid.span_us, at(1), at(2), at(3), at(4),
                mid.pair_spread_end_us);
    std::fflush(stdout);
    if (spread_csv) {
      for (int c = 1; c <= stream::kChunks; ++c) {
        std::fprintf(spread_csv, "%d,%d,%.2f,%.3f\n", sharers, c, mid.span_us * c / stream::kChunks,
                     mid.spread_us[c - 1]);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<int> sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  try {
    if (argc == 3 && std::strcmp(argv[1], "--once") == 0) {
      const int sharers = std::atoi(argv[2]);
      if (sharers < 1 || *sms % sharers != 0) {
        std::fprintf(stderr, "tilesim-cta-drift: SHARERS must divide %d\n", *sms);
        return 1;
      }
      Bench bench(*sms);
      bench.run(sharers);
      bench.run(sharers);
      return 0;
    }
    FILE* spread_csv = argc == 2 ? std::fopen(argv[1], "w") : nullptr;
    measure(*sms, spread_csv);
    if (spread_csv) std::fclose(spread_csv);
  } catch (const tilesim::kernels::CudaError& error) {
    std::fprintf(stderr, "tilesim-cta-drift: %s\n", error.what());
    return 1;
  }
  return 0;
}
