// tilesim-unaligned-gather: how fast one SM gathers operand rows that are not
// 16-byte aligned into shared memory with narrow (2- or 4-byte) global loads,
// as cuBLAS's CUTLASS 2.x align1 / align2 kernels do, against the warps in
// flight on the SM. The library profile's unaligned gather rate (bytes per
// cycle per SM) and its latency come from this table.
//
// A panel is `rows` rows of a bf16 matrix with a row pitch of 2049, 2050 or
// 2056 elements (2-, 4- or 16-byte aligned rows). Per round a CTA gathers a
// tile of its panel's rows x 32 elements (a k-block): every thread issues
// `loads` independent loads of `width` bytes (all before the first use), stores
// them to shared memory, and the CTA meets at a barrier; the next round takes
// the next 32 elements of the rows. `lanes` lanes of a warp read one row side
// by side, the other lanes other rows (2: 4 of each 32-byte sector a 2-byte
// request moves are used, as Nsight Compute reads on cuBLAS's align1 kernel;
// 32: a whole 64-byte row segment a request). 16 panels (8-16 MiB) are shared
// round robin, so the reads hit L2 as a GEMM's k-loop does.
//
// Grid: ctas_per_sm x SMs CTAs of `warps` warps, each running for 2 ms of
// %globaltimer. Prints CSV on stdout, one row per point (medians of 5 runs):
//   width,lanes,warps_per_cta,ctas_per_sm,loads,warps_per_sm,sectors_per_request,
//   bytes_per_cycle_per_sm,sectors_per_cycle_per_sm,round_cycles,gbs_per_sm,clock_mhz
// bytes are the gathered (used) bytes; sectors the distinct 32-byte sectors of
// each warp request, counted on the host from the same address map.
// `--once WIDTH LANES WARPS CTAS_PER_SM LOADS` runs one point (for Nsight Compute).
// `--deep` runs the points at cuBLAS's own occupancy instead: 8 warps a SM (one
// CTA of 8 warps as its 256x128 align1 kernel, two of 4 as its 128x128) with
// as many loads a thread as its k-block of 32 takes (16-64: 256x128 align1
// 48, 128x128 64, 256x128 align2 24), every load issued before the first
// shared store (a compiler fence between them; the run script checks SASS).
// Exit status: 0, 1 on a CUDA error or a wrong gather, 2 usage, 77 without a device.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
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

constexpr int kRowBytes = 64;  // a k-block of 32 bf16 elements
constexpr int kPanels = 16;
constexpr int kPanelElements = 2048;  // a row's length: 64 rounds a pass
constexpr int kMaxRows = 512;         // 8 warps x 64 loads x 2 bytes / 64
constexpr int kMaxLoads = 64;
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
  int width;  // bytes a load
  int lanes;  // lanes of a warp side by side on one row
  int warps;  // a CTA
  int ctas_per_sm;
  int loads;  // a thread, per round
};

// The element a thread's load `j` reads in round 0 (row, element in the row):
// warp request q = j x warps + warp covers 32 / lanes rows of `lanes` chunks.
struct Slot {
  int row;
  int element;
};
__host__ __device__ Slot slot_of(const Point& p, int warp, int lane, int j) {
  const int chunks_per_row = kRowBytes / p.width;
  const int groups_per_row = chunks_per_row / p.lanes;
  const int q = j * p.warps + warp;
  const int row = (q / groups_per_row) * (32 / p.lanes) + lane / p.lanes;
  const int chunk = (q % groups_per_row) * p.lanes + lane % p.lanes;
  return {row, chunk * p.width / 2};
}

// gather_kernel
//   grid: ctas_per_sm x SMs CTAs; block: warps x 32 threads.
//   Each CTA gathers k-blocks of panel blockIdx % kPanels (rows x 32 elements)
//   into shared memory until the deadline; CTA 0 copies its first tile to
//   `check`. Thread 0 records the rounds, times and SM cycles of its CTA.
template <int kLoads, typename Word, bool kFenced>
__global__ void __launch_bounds__(kMaxThreads)
    gather_kernel(const std::uint16_t* matrix, int pitch, Point p, unsigned long long run_ns,
                  CtaSample* samples, Word* check) {
  extern __shared__ unsigned char shared[];
  Word* tile = reinterpret_cast<Word*>(shared);
  __shared__ unsigned long long start_ns;
  __shared__ int stop;
  if (threadIdx.x == 0) {
    start_ns = global_time_ns();
    stop = 0;
  }
  __syncthreads();
  const unsigned long long start_cycles = sm_cycles();
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int rows = p.warps * kLoads * 32 * p.width / kRowBytes;
  const std::uint16_t* panel =
      matrix + static_cast<std::size_t>(blockIdx.x % kPanels) * rows * pitch;
  // Offsets in words, not pointers: half the registers, so 32 warps an SM fit.
  int offset[kLoads];
#pragma unroll
  for (int j = 0; j < kLoads; ++j) {
    const Slot s = slot_of(p, warp, lane, j);
    offset[j] = (s.row * pitch + s.element) * 2 / static_cast<int>(sizeof(Word));
  }
  const Word* words = reinterpret_cast<const Word*>(panel);
  unsigned long long rounds = 0;
  int element = 0;
  while (true) {
    Word v[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) v[j] = words[offset[j] + element * 2 / sizeof(Word)];
    // Deep points: no store may start before the last load is issued.
    if constexpr (kFenced) asm volatile("" ::: "memory");
#pragma unroll
    for (int j = 0; j < kLoads; ++j) tile[j * blockDim.x + threadIdx.x] = v[j];
    __syncthreads();
    if (rounds == 0 && blockIdx.x == 0) {
      for (int j = 0; j < kLoads; ++j) {
        check[j * blockDim.x + threadIdx.x] = tile[j * blockDim.x + threadIdx.x];
      }
    }
    ++rounds;
    element += 32;
    if (element == kPanelElements) element = 0;
    if (threadIdx.x == 0 && global_time_ns() - start_ns >= run_ns) stop = 1;
    __syncthreads();
    if (stop) break;
  }
  if (threadIdx.x == 0) {
    samples[blockIdx.x] = {rounds, start_ns, global_time_ns(), sm_cycles() - start_cycles};
  }
}

// Launches `ctas` CTAs (0: none, only returns how many of them fit on an SM).
using Launch = int (*)(const std::uint16_t*, int, Point, unsigned long long, CtaSample*, void*,
                       int ctas);

template <int kLoads, typename Word, bool kFenced = false>
int launch_gather(const std::uint16_t* matrix, int pitch, Point p, unsigned long long run_ns,
                  CtaSample* samples, void* check, int ctas) {
  const int threads = p.warps * 32;
  const std::size_t shared_bytes = sizeof(Word) * threads * kLoads;
  if (ctas == 0) {
    int resident = 0;
    TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, gather_kernel<kLoads, Word, kFenced>, threads, shared_bytes));
    return resident;
  }
  gather_kernel<kLoads, Word, kFenced><<<ctas, threads, shared_bytes>>>(
      matrix, pitch, p, run_ns, samples, static_cast<Word*>(check));
  TILESIM_CUDA_CHECK(cudaGetLastError());
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  return ctas;
}

// The deep points' kernels: all loads of a round in flight.
Launch deep_launcher(int loads, int width) {
  if (width == 2) {
    if (loads == 16) return launch_gather<16, std::uint16_t, true>;
    if (loads == 32) return launch_gather<32, std::uint16_t, true>;
    if (loads == 48) return launch_gather<48, std::uint16_t, true>;
    return launch_gather<64, std::uint16_t, true>;
  }
  if (loads == 16) return launch_gather<16, std::uint32_t, true>;
  if (loads == 24) return launch_gather<24, std::uint32_t, true>;
  return launch_gather<32, std::uint32_t, true>;
}

Launch launcher(int loads, int width) {
  if (width == 2) {
    if (loads == 1) return launch_gather<1, std::uint16_t>;
    if (loads == 4) return launch_gather<4, std::uint16_t>;
    if (loads == 8) return launch_gather<8, std::uint16_t>;
    return launch_gather<16, std::uint16_t>;
  }
  if (loads == 1) return launch_gather<1, std::uint32_t>;
  if (loads == 4) return launch_gather<4, std::uint32_t>;
  if (loads == 8) return launch_gather<8, std::uint32_t>;
  return launch_gather<16, std::uint32_t>;
}

int pitch_for(int width) {
  return width == 2 ? 2049 : 2050;
}

// Distinct 32-byte sectors per warp request, averaged over a round's requests.
double sectors_per_request(const Point& p, int pitch) {
  const std::uintptr_t base = 0;  // cudaMalloc aligns to 256 bytes
  double sectors = 0;
  int requests = 0;
  for (int warp = 0; warp < p.warps; ++warp) {
    for (int j = 0; j < p.loads; ++j) {
      std::set<std::uintptr_t> touched;
      for (int lane = 0; lane < 32; ++lane) {
        const Slot s = slot_of(p, warp, lane, j);
        const std::uintptr_t byte =
            base + 2 * (static_cast<std::uintptr_t>(s.row) * pitch + s.element);
        touched.insert(byte / 32);
        touched.insert((byte + p.width - 1) / 32);
      }
      sectors += static_cast<double>(touched.size());
      ++requests;
    }
  }
  return sectors / requests;
}

// Checks CTA 0's first tile against the matrix gathered on the host.
bool gather_is_right(const Point& p, int pitch, const std::vector<std::uint16_t>& matrix,
                     const DeviceBuffer& check) {
  const int threads = p.warps * 32;
  std::vector<std::uint16_t> got(static_cast<std::size_t>(threads) * p.loads * p.width / 2);
  TILESIM_CUDA_CHECK(cudaMemcpy(got.data(), check.get(), got.size() * 2, cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; ++t) {
    for (int j = 0; j < p.loads; ++j) {
      const Slot s = slot_of(p, t / 32, t % 32, j);
      for (int e = 0; e < p.width / 2; ++e) {
        const std::size_t index = (static_cast<std::size_t>(j) * threads + t) * (p.width / 2) + e;
        if (got[index] != matrix[static_cast<std::size_t>(s.row) * pitch + s.element + e])
          return false;
      }
    }
  }
  return true;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Every point of the table, or only `once` (for Nsight Compute).
bool measure(int sms, std::optional<Point> once, bool deep) {
  const std::size_t elements = static_cast<std::size_t>(kPanels) * kMaxRows * 2056;
  std::vector<std::uint16_t> host(elements);
  std::mt19937 random(20261129);
  for (std::uint16_t& e : host) e = static_cast<std::uint16_t>(random() | 1);
  const DeviceBuffer matrix(elements * 2);
  TILESIM_CUDA_CHECK(cudaMemcpy(matrix.get(), host.data(), elements * 2, cudaMemcpyHostToDevice));
  const DeviceBuffer samples(sizeof(CtaSample) * sms * 8);
  const DeviceBuffer check(static_cast<std::size_t>(kMaxThreads) * kMaxLoads * 4);

  std::vector<Point> points;
  for (const int width : {2, 4}) {
    for (const int lanes : {2, 32}) {
      for (const int loads : {1, 4, 8, 16}) {
        for (const int warps : {4, 8}) {
          for (const int ctas : {1, 2, 4, 8}) {
            if (warps * ctas > 32) continue;
            if (loads == 1 && lanes == 32) continue;
            if (kRowBytes / width % lanes != 0 && lanes != 32) continue;
            points.push_back({width, lanes == 32 ? kRowBytes / width : lanes, warps, ctas, loads});
          }
        }
      }
    }
  }
  if (once) points = {*once};
  if (deep) {
    points.clear();
    for (const int width : {2, 4}) {
      for (const int loads :
           width == 2 ? std::vector<int>{16, 32, 48, 64} : std::vector<int>{16, 24, 32}) {
        for (const int warps : {8, 4}) points.push_back({width, 2, warps, 8 / warps, loads});
      }
    }
    points.push_back({2, 2, 8, 2, 32});  // 16 warps: beyond cuBLAS's occupancy
    points.push_back({2, 2, 4, 4, 32});
  }
  launcher(16, 2)(matrix.as<std::uint16_t>(), pitch_for(2), {2, 2, 8, 1, 16}, kWarmUpNs,
                  samples.as<CtaSample>(), check.get(), sms);
  std::printf(
      "width,lanes,warps_per_cta,ctas_per_sm,loads,warps_per_sm,sectors_per_request,"
      "bytes_per_cycle_per_sm,sectors_per_cycle_per_sm,round_cycles,gbs_per_sm,clock_mhz\n");
  std::vector<CtaSample> got(static_cast<std::size_t>(sms) * 8);
  for (const Point& p : points) {
    const int pitch = pitch_for(p.width);
    const int ctas = sms * p.ctas_per_sm;
    const double round_bytes = p.warps * 32.0 * p.loads * p.width;
    const double sectors = sectors_per_request(p, pitch);
    const Launch launch = deep ? deep_launcher(p.loads, p.width) : launcher(p.loads, p.width);
    if (launch(nullptr, pitch, p, 0, nullptr, nullptr, 0) < p.ctas_per_sm) continue;
    std::vector<double> per_cycle, gbs, clocks, round_cycles;
    for (int r = 0; r < kRepeats; ++r) {
      TILESIM_CUDA_CHECK(cudaMemset(check.get(), 0xff, check.bytes()));
      launch(matrix.as<std::uint16_t>(), pitch, p, kRunNs, samples.as<CtaSample>(), check.get(),
             ctas);
      if (!gather_is_right(p, pitch, host, check)) {
        std::fprintf(stderr, "wrong gather at width %d lanes %d loads %d\n", p.width, p.lanes,
                     p.loads);
        return false;
      }
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
      const double cycles_per_cta = cycles / ctas;
      per_cycle.push_back(bytes / sms / cycles_per_cta);
      gbs.push_back(bytes / sms / ns);
      clocks.push_back(mhz / ctas);
      round_cycles.push_back(cycles / rounds);
    }
    const double bytes_per_cycle = median(per_cycle);
    std::printf("%d,%d,%d,%d,%d,%d,%.2f,%.3f,%.3f,%.1f,%.2f,%.0f\n", p.width, p.lanes, p.warps,
                p.ctas_per_sm, p.loads, p.warps * p.ctas_per_sm, sectors, bytes_per_cycle,
                bytes_per_cycle / (32.0 * p.width) * sectors, median(round_cycles), median(gbs),
                median(clocks));
    std::fflush(stdout);
  }
  return true;
}

}  // namespace

// Usage: tilesim-unaligned-gather [--once WIDTH LANES WARPS CTAS_PER_SM LOADS | --deep]
int main(int argc, char** argv) {
  std::optional<Point> once;
  bool deep = false;
  if (argc == 2 && std::string_view(argv[1]) == "--deep") {
    deep = true;
  } else if (argc == 7 && std::string_view(argv[1]) == "--once") {
    once = Point{std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]), std::atoi(argv[5]),
                 std::atoi(argv[6])};
  } else if (argc != 1) {
    std::fprintf(
        stderr, "usage: tilesim-unaligned-gather [--once WIDTH LANES WARPS CTAS LOADS | --deep]\n");
    return 2;
  }
  const std::optional<int> sms = tilesim::kernels::device_sm_count_or_skip();
  if (!sms) return tilesim::kernels::kExitNoDevice;
  try {
    return measure(*sms, once, deep) ? 0 : 1;
  } catch (const tilesim::kernels::CudaError& error) {
    std::fprintf(stderr, "tilesim-unaligned-gather: %s\n", error.what());
    return 1;
  }
}
