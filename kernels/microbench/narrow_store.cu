// tilesim-narrow-store: how fast one SM stores rows of C that are not 16-byte
// aligned with narrow (2- or 4-byte) global stores, as the epilogues of
// cuBLAS's CUTLASS 2.x align1 / align2 kernels do (one element or two an
// access, a warp's 32 lanes side by side along a row of C: a 64- or 128-byte
// segment a request), against the warps on the SM and the stores a thread
// issues a round; 16-byte stores on 16-byte rows as the aligned reference.
//
// C is a bf16 matrix of kRows rows x 2048 elements with a row pitch of 2049,
// 2050 or 2056 elements (2-, 4- or 16-byte aligned rows): 134 MiB, more than
// L2 holds, so the stores go on to HBM as an unfused S = Q K^T's do. Per round
// every warp stores `stores` segments (the next ones of the grid's sweep over
// C, row by row), and the CTA meets at a barrier (an epilogue's step).
//
// Grid: ctas_per_sm x SMs CTAs of `warps` warps, each running for 2 ms of
// %globaltimer. Prints CSV on stdout, one row per point (medians of 5 runs):
//   width,warps_per_cta,ctas_per_sm,stores,warps_per_sm,sectors_per_request,
//   bytes_per_cycle_per_sm,round_cycles,gbs_per_sm,total_gbs,clock_mhz
// Every point first runs one round into a poisoned C and checks it on the host.
// Exit status: 0, 1 on a CUDA error or a wrong store, 2 usage, 77 without a device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/microbench/device_clock.cuh"

namespace {

using tilesim::kernels::DeviceBuffer;
using tilesim::microbench::global_time_ns;
using tilesim::microbench::sm_cycles;

constexpr int kRows = 32768;
constexpr int kRowElements = 2048;
constexpr int kMaxPitch = 2056;
constexpr int kMaxThreads = 256;
constexpr unsigned long long kRunNs = 2'000'000;
constexpr unsigned long long kWarmUpNs = 200'000'000;  // clocks up from idle
constexpr int kRepeats = 5;

struct CtaSample {
  unsigned long long rounds;
  unsigned long long start_ns;
  unsigned long long end_ns;
  unsigned long long cycles;
};

struct Point {
  int width;  // bytes a store
  int warps;  // a CTA
  int ctas_per_sm;
  int stores;  // a thread, per round
};

int pitch_for(int width) {
  return width == 2 ? 2049 : width == 4 ? 2050 : kMaxPitch;
}

// Segment s of the sweep: 32 lanes x `width` bytes along one row.
__host__ __device__ std::size_t element_of(long long segment, int lane, int width, int pitch) {
  const int segment_elements = 32 * width / 2;
  const long long per_row = kRowElements / segment_elements;
  const long long row = (segment / per_row) % kRows;
  const long long column = (segment % per_row) * segment_elements + lane * width / 2;
  return static_cast<std::size_t>(row * pitch + column);
}

// The 16-bit value a store of segment s, lane, element e writes.
__host__ __device__ std::uint16_t value_of(long long segment, int lane, int e) {
  return static_cast<std::uint16_t>((segment * 131 + lane * 7 + e) | 1);
}

template <typename Word>
__device__ Word word_of(long long segment, int lane) {
  constexpr int kHalves = sizeof(Word) / 2;
  std::uint16_t halves[kHalves];
#pragma unroll
  for (int e = 0; e < kHalves; ++e) halves[e] = value_of(segment, lane, e);
  Word word;
  memcpy(&word, halves, sizeof(Word));
  return word;
}

// store_kernel
//   grid: ctas_per_sm x SMs CTAs; block: warps x 32 threads.
//   Round r: warp w of CTA b stores segments ((r x grid + b) x warps + w) x
//   stores + j, j < stores, then the CTA meets at a barrier; until the
//   deadline (run_ns 0: one round). Thread 0 records its CTA's rounds, times
//   and SM cycles.
template <typename Word, int kStores>
__global__ void __launch_bounds__(kMaxThreads)
    store_kernel(std::uint16_t* matrix, int pitch, unsigned long long run_ns, CtaSample* samples) {
  __shared__ unsigned long long start_ns;
  __shared__ int stop;
  if (threadIdx.x == 0) {
    start_ns = global_time_ns();
    stop = 0;
  }
  __syncthreads();
  const unsigned long long start_cycles = sm_cycles();
  const int warps = blockDim.x / 32;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int width = sizeof(Word);
  const long long total_segments = static_cast<long long>(kRows) * kRowElements / (32 * width / 2);
  unsigned long long rounds = 0;
  while (true) {
    const long long first =
        ((static_cast<long long>(rounds) * gridDim.x + blockIdx.x) * warps + warp) * kStores;
#pragma unroll
    for (int j = 0; j < kStores; ++j) {
      const long long segment = (first + j) % total_segments;
      *reinterpret_cast<Word*>(matrix + element_of(segment, lane, width, pitch)) =
          word_of<Word>(segment, lane);
    }
    ++rounds;
    if (threadIdx.x == 0 && global_time_ns() - start_ns >= run_ns) stop = 1;
    __syncthreads();
    if (stop) break;
  }
  if (threadIdx.x == 0) {
    samples[blockIdx.x] = {rounds, start_ns, global_time_ns(), sm_cycles() - start_cycles};
  }
}

// Launches `ctas` CTAs (0: none, only returns how many of them fit on an SM).
using Launch = int (*)(std::uint16_t*, int, int, unsigned long long, CtaSample*, int ctas);

template <typename Word, int kStores>
int launch_store(std::uint16_t* matrix, int pitch, int warps, unsigned long long run_ns,
                 CtaSample* samples, int ctas) {
  const int threads = warps * 32;
  if (ctas == 0) {
    int resident = 0;
    TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, store_kernel<Word, kStores>, threads, 0));
    return resident;
  }
  store_kernel<Word, kStores><<<ctas, threads>>>(matrix, pitch, run_ns, samples);
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  return ctas;
}

template <typename Word>
Launch launcher_of(int stores) {
  if (stores == 1) return launch_store<Word, 1>;
  if (stores == 4) return launch_store<Word, 4>;
  return launch_store<Word, 8>;
}

Launch launcher(int width, int stores) {
  if (width == 2) return launcher_of<std::uint16_t>(stores);
  if (width == 4) return launcher_of<std::uint32_t>(stores);
  return launcher_of<uint4>(stores);
}

// Distinct 32-byte sectors of a warp's store (C's base is 256-byte aligned),
// averaged over the first rows' segments.
double sectors_per_request(int width, int pitch) {
  double sectors = 0;
  const int segments = 4 * kRowElements / (32 * width / 2);
  for (int s = 0; s < segments; ++s) {
    std::vector<std::size_t> touched;
    for (int lane = 0; lane < 32; ++lane) {
      const std::size_t byte = 2 * element_of(s, lane, width, pitch);
      touched.push_back(byte / 32);
      touched.push_back((byte + width - 1) / 32);
    }
    std::sort(touched.begin(), touched.end());
    sectors += static_cast<double>(std::unique(touched.begin(), touched.end()) - touched.begin());
  }
  return sectors / segments;
}

// One round into a poisoned C: every segment of it holds its values, and the
// element after each row's last segment (the pitch's padding) is untouched.
bool one_round_is_right(const Point& p, int sms, const DeviceBuffer& matrix,
                        const DeviceBuffer& samples) {
  const int pitch = pitch_for(p.width);
  TILESIM_CUDA_CHECK(cudaMemset(matrix.get(), 0, matrix.bytes()));
  const int ctas = sms * p.ctas_per_sm;
  launcher(p.width, p.stores)(matrix.as<std::uint16_t>(), pitch, p.warps, 0,
                              samples.as<CtaSample>(), ctas);
  std::vector<std::uint16_t> got(matrix.bytes() / 2);
  TILESIM_CUDA_CHECK(cudaMemcpy(got.data(), matrix.get(), matrix.bytes(), cudaMemcpyDeviceToHost));
  const long long segments = static_cast<long long>(ctas) * p.warps * p.stores;
  for (long long s = 0; s < segments; ++s) {
    for (int lane = 0; lane < 32; ++lane) {
      for (int e = 0; e < p.width / 2; ++e) {
        if (got[element_of(s, lane, p.width, pitch) + e] != value_of(s, lane, e)) return false;
      }
    }
  }
  for (int row = 0; row < kRows; row += 97) {
    if (pitch > kRowElements && got[static_cast<std::size_t>(row) * pitch + kRowElements] != 0) {
      return false;
    }
  }
  return true;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

bool measure(int sms) {
  const DeviceBuffer matrix(static_cast<std::size_t>(kRows) * kMaxPitch * 2);
  const DeviceBuffer samples(sizeof(CtaSample) * sms * 8);
  std::vector<Point> points;
  for (const int width : {2, 4, 16}) {
    for (const int stores : {1, 4, 8}) {
      for (const int warps : {4, 8}) {
        for (const int ctas : {1, 2, 4, 8}) {
          if (warps * ctas > 32) continue;
          points.push_back({width, warps, ctas, stores});
        }
      }
    }
  }
  launcher(2, 4)(matrix.as<std::uint16_t>(), pitch_for(2), 8, kWarmUpNs, samples.as<CtaSample>(),
                 sms);
  std::printf(
      "width,warps_per_cta,ctas_per_sm,stores,warps_per_sm,sectors_per_request,"
      "bytes_per_cycle_per_sm,round_cycles,gbs_per_sm,total_gbs,clock_mhz\n");
  std::vector<CtaSample> got(static_cast<std::size_t>(sms) * 8);
  for (const Point& p : points) {
    const int pitch = pitch_for(p.width);
    const int ctas = sms * p.ctas_per_sm;
    const Launch launch = launcher(p.width, p.stores);
    if (launch(nullptr, pitch, p.warps, 0, nullptr, 0) < p.ctas_per_sm) continue;
    if (!one_round_is_right(p, sms, matrix, samples)) {
      std::fprintf(stderr, "wrong store at width %d warps %d stores %d\n", p.width, p.warps,
                   p.stores);
      return false;
    }
    const double round_bytes = p.warps * 32.0 * p.stores * p.width;
    std::vector<double> per_cycle, gbs, clocks, round_cycles;
    for (int r = 0; r < kRepeats; ++r) {
      launch(matrix.as<std::uint16_t>(), pitch, p.warps, kRunNs, samples.as<CtaSample>(), ctas);
      TILESIM_CUDA_CHECK(
          cudaMemcpy(got.data(), samples.get(), sizeof(CtaSample) * ctas, cudaMemcpyDeviceToHost));
      unsigned long long first = got[0].start_ns, last = got[0].end_ns;
      double bytes = 0, cycles = 0, mhz = 0, rounds = 0;
      for (int c = 0; c < ctas; ++c) {
        first = std::min(first, got[c].start_ns);
        last = std::max(last, got[c].end_ns);
        bytes += static_cast<double>(got[c].rounds) * round_bytes;
        rounds += static_cast<double>(got[c].rounds);
        cycles += static_cast<double>(got[c].cycles);
        mhz += 1e3 * static_cast<double>(got[c].cycles) /
               static_cast<double>(got[c].end_ns - got[c].start_ns);
      }
      const double ns = static_cast<double>(last - first);
      per_cycle.push_back(bytes / sms / (cycles / ctas));
      gbs.push_back(bytes / sms / ns);
      clocks.push_back(mhz / ctas);
      round_cycles.push_back(cycles / rounds);
    }
    std::printf("%d,%d,%d,%d,%d,%.2f,%.3f,%.1f,%.2f,%.0f,%.0f\n", p.width, p.warps, p.ctas_per_sm,
                p.stores, p.warps * p.ctas_per_sm, sectors_per_request(p.width, pitch),
                median(per_cycle), median(round_cycles), median(gbs), median(gbs) * sms,
                median(clocks));
    std::fflush(stdout);
  }
  return true;
}

}  // namespace

// Usage: tilesim-narrow-store
int main(int argc, char** argv) {
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s\n", argv[0]);
    return 2;
  }
  const std::optional<int> sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  try {
    return measure(*sms) ? 0 : 1;
  } catch (const tilesim::kernels::CudaError& error) {
    std::fprintf(stderr, "tilesim-narrow-store: %s\n", error.what());
    return 1;
  }
}
