// tilesim-gemv-calibration: what caps a decode GEMM (GEMV: a few rows of
// activations against a weight matrix) below the HBM read ceiling, for the
// `library` profile's decode path (issue 13). Three parts, each timed as
// tilesim-measure times a row (kernels/measure/timed_runs.hpp: sustained
// warm-up, each run between its own CUDA events, median; the inputs rotate
// over sets so that at least 2x the L2 passes between two uses of one set):
//   hbm_read    the read ceiling: every SM streams a 2 GiB buffer (16-byte
//               loads, 8 in flight a thread), as `hbm_read_bandwidth` does;
//   weight_read the weight stream of a GEMV alone, no math: an n x k bf16
//               matrix (row-major, PyTorch's Linear weight), each CTA of 128
//               threads reading 64 rows x (k / splits) columns in k-blocks of
//               64 (128 bytes of each row, the access pattern of a 64-row tile
//               with split K), and the same bytes as one contiguous run per
//               CTA (`linear`): DRAM page locality against ramp and tail;
//   cublas      cublasGemmEx, bf16 in and out, fp32 accumulation, at
//               m = 1, 2, 4, 8, 16 in PyTorch's layout (`tn`: y = x W^T, the
//               `nvjet ... TNT` kernels of a decode forward) and in
//               tilesim-measure's (`nn`: C = A B, B k x n row-major).
// Named calibration shapes (n x k): 2048x2048, 4096x4096, 11008x4096,
// 4096x11008, 14336x4096, 4096x14336, 8192x8192.
// Prints CSV on stdout:
//   part,layout,m,n,k,splits,ctas,weight_mb,sets,time_us,time_us_min,gbs,clock_mhz
// (gbs: weight bytes / median time). Exit status: 0, 1 on a CUDA or cuBLAS
// error, 77 without a device.

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/gemm/reference_check.hpp"
#include "kernels/measure/sm_clock_sampler.hpp"
#include "kernels/measure/timed_runs.hpp"

namespace {

namespace tk = tilesim::kernels;
namespace ms = tilesim::measure;
using tk::DeviceBuffer;

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kHbmReadBytes = std::size_t{2} << 30;
constexpr std::size_t kRotationBytes = 256 * kMiB;  // > 2x the H100's 50 MiB L2
constexpr int kMaxSets = 8;
constexpr int kReadThreads = 512;
constexpr int kReadCtasPerSm = 4;
constexpr int kInFlight = 8;
constexpr int kTileRows = 64;
constexpr int kTileThreads = 128;
constexpr int kKBlock = 64;                                // bf16 elements: 128 bytes a row
constexpr int kWordsPerRow = kKBlock * 2 / 16;             // 16-byte words of a row's k-block
constexpr int kRowsPerPass = kTileThreads / kWordsPerRow;  // rows one pass of the CTA covers
constexpr int kKBlocksInFlight = 4;
constexpr std::uint32_t kNeverFolded = 0x9e3779b9u;

struct Shape {
  std::int64_t n;
  std::int64_t k;
};

const std::vector<Shape> kShapes = {{2048, 2048},  {4096, 4096},  {11008, 4096}, {4096, 11008},
                                    {14336, 4096}, {4096, 14336}, {8192, 8192}};
const std::vector<int> kBatches = {1, 2, 4, 8, 16};

// Keeps the loads: their xor is written only if it equals a value it never takes.
__device__ void fold(uint4 sum, std::uint32_t* folded) {
  const std::uint32_t x = sum.x ^ sum.y ^ sum.z ^ sum.w;
  if (x == kNeverFolded) *folded = x;
}

__device__ void accumulate(uint4& sum, uint4 word) {
  sum.x ^= word.x;
  sum.y ^= word.y;
  sum.z ^= word.z;
  sum.w ^= word.w;
}

__global__ void linear_read_kernel(const uint4* data, std::size_t words, std::size_t words_per_cta,
                                   std::uint32_t* folded) {
  const std::size_t begin = blockIdx.x * words_per_cta;
  const std::size_t end = begin + words_per_cta < words ? begin + words_per_cta : words;
  uint4 sum{};
  const std::size_t stride = static_cast<std::size_t>(kInFlight) * blockDim.x;
  for (std::size_t i = begin + threadIdx.x; i < end; i += stride) {
    uint4 word[kInFlight];
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) {
      const std::size_t at = i + static_cast<std::size_t>(j) * blockDim.x;
      word[j] = at < end ? __ldcg(data + at) : uint4{};
    }
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) accumulate(sum, word[j]);
  }
  fold(sum, folded);
}

// CTA (row block, k slice): 64 rows x its slice's k-blocks, 128 bytes of each
// row per k-block, kKBlocksInFlight k-blocks of loads in flight a thread.
__global__ void weight_tile_read_kernel(const uint4* weight, std::int64_t k_words,
                                        std::int64_t slice_blocks, std::uint32_t* folded) {
  const std::int64_t row0 = std::int64_t{blockIdx.x} * kTileRows + threadIdx.x / kWordsPerRow;
  const int word = static_cast<int>(threadIdx.x % kWordsPerRow);
  const std::int64_t block_begin = std::int64_t{blockIdx.y} * slice_blocks;
  const std::int64_t k_blocks = k_words / kWordsPerRow;
  const std::int64_t block_end =
      block_begin + slice_blocks < k_blocks ? block_begin + slice_blocks : k_blocks;
  uint4 sum{};
  for (std::int64_t b = block_begin; b < block_end; b += kKBlocksInFlight) {
    uint4 loaded[kKBlocksInFlight][kTileRows / kRowsPerPass];
#pragma unroll
    for (int i = 0; i < kKBlocksInFlight; ++i) {
#pragma unroll
      for (int r = 0; r < kTileRows / kRowsPerPass; ++r) {
        const std::int64_t row = row0 + std::int64_t{r} * kRowsPerPass;
        loaded[i][r] = b + i < block_end
                           ? __ldcg(weight + row * k_words + (b + i) * kWordsPerRow + word)
                           : uint4{};
      }
    }
#pragma unroll
    for (int i = 0; i < kKBlocksInFlight; ++i) {
#pragma unroll
      for (int r = 0; r < kTileRows / kRowsPerPass; ++r) accumulate(sum, loaded[i][r]);
    }
  }
  fold(sum, folded);
}

int sets_for(std::size_t set_bytes) {
  const auto sets = static_cast<int>((kRotationBytes + set_bytes - 1) / set_bytes);
  return std::clamp(sets, 2, kMaxSets);
}

struct Row {
  std::string part;
  std::string layout;
  std::int64_t m = 0;
  Shape shape{};
  int splits = 0;
  std::int64_t ctas = 0;
  double bytes = 0;
  int sets = 0;
};

void print(const Row& row, const ms::TimedRuns& timed) {
  std::printf("%s,%s,%lld,%lld,%lld,%d,%lld,%.2f,%d,%.3f,%.3f,%.1f,%.0f\n", row.part.c_str(),
              row.layout.c_str(), static_cast<long long>(row.m),
              static_cast<long long>(row.shape.n), static_cast<long long>(row.shape.k), row.splits,
              static_cast<long long>(row.ctas), row.bytes / 1e6, row.sets, timed.time_us,
              timed.time_us_min, row.bytes / (timed.time_us * 1e-6) / 1e9,
              timed.clock.sm_clock_mhz);
  std::fflush(stdout);
}

class Bench {
 public:
  Bench(int sms, cudaStream_t stream)
      : sms_(sms), stream_(stream), cublas_(stream), nvml_(ms::open_nvml_device()) {
    options_.warmup_ms = 200;
    options_.target_ms = 30;
    options_.clock_source = nvml_.get();
  }

  void hbm_read() {
    const DeviceBuffer data(kHbmReadBytes);
    TILESIM_CUDA_CHECK(cudaMemsetAsync(data.get(), 1, data.bytes(), stream_));
    const std::size_t words = data.bytes() / sizeof(uint4);
    const int ctas = sms_ * kReadCtasPerSm;
    const std::size_t per_cta = (words + ctas - 1) / ctas;
    const auto launch = [&](int) {
      linear_read_kernel<<<ctas, kReadThreads, 0, stream_>>>(data.as<uint4>(), words, per_cta,
                                                             folded_.as<std::uint32_t>());
    };
    print({"hbm_read", "linear", 0, {0, 0}, 0, ctas, static_cast<double>(data.bytes()), 1},
          ms::time_launches(launch, 1, options_, stream_));
  }

  // One matrix's bytes read as GEMV tiles and as one contiguous run per CTA.
  void weight_read(Shape shape, int splits) {
    const auto bytes = static_cast<std::size_t>(shape.n * shape.k * 2);
    const int sets = sets_for(bytes);
    const DeviceBuffer data(bytes * static_cast<std::size_t>(sets));
    TILESIM_CUDA_CHECK(cudaMemsetAsync(data.get(), 1, data.bytes(), stream_));
    const std::int64_t k_words = shape.k * 2 / 16;
    const std::int64_t k_blocks = shape.k / kKBlock;
    const std::int64_t slice_blocks = (k_blocks + splits - 1) / splits;
    const dim3 grid(static_cast<unsigned>(shape.n / kTileRows), static_cast<unsigned>(splits));
    const std::int64_t ctas = std::int64_t{grid.x} * grid.y;
    const auto set_at = [&](int set) { return data.as<uint4>() + set * (bytes / sizeof(uint4)); };
    const auto tiles = [&](int set) {
      weight_tile_read_kernel<<<grid, kTileThreads, 0, stream_>>>(
          set_at(set), k_words, slice_blocks, folded_.as<std::uint32_t>());
    };
    const Row tile_row{"weight_read", "tile64", 0, shape, splits, ctas, static_cast<double>(bytes),
                       sets};
    print(tile_row, ms::time_launches(tiles, sets, options_, stream_));
    const std::size_t words = bytes / sizeof(uint4);
    const std::size_t per_cta = (words + ctas - 1) / ctas;
    const auto linear = [&](int set) {
      linear_read_kernel<<<static_cast<unsigned>(ctas), kTileThreads, 0, stream_>>>(
          set_at(set), words, per_cta, folded_.as<std::uint32_t>());
    };
    Row linear_row = tile_row;
    linear_row.layout = "linear";
    print(linear_row, ms::time_launches(linear, sets, options_, stream_));
  }

  // cuBLAS at batch m; `tn` as PyTorch's Linear calls it, `nn` as tilesim-measure.
  void cublas(Shape shape, std::int64_t m, bool tn) {
    const auto weight_bytes = static_cast<std::size_t>(shape.n * shape.k * 2);
    const int sets = sets_for(weight_bytes);
    std::vector<DeviceBuffer> w;
    std::vector<DeviceBuffer> x;
    std::vector<DeviceBuffer> y;
    for (int s = 0; s < sets; ++s) {
      w.emplace_back(weight_bytes);
      x.emplace_back(static_cast<std::size_t>(m * shape.k * 2));
      y.emplace_back(static_cast<std::size_t>(m * shape.n * 2));
      tk::fill_random(w.back().get(), tk::ElementType::bf16, shape.n * shape.k, 2 * s + 1, stream_);
      tk::fill_random(x.back().get(), tk::ElementType::bf16, m * shape.k, 2 * s + 2, stream_);
    }
    const float alpha = 1.0f;
    const float beta = 0.0f;
    const int n = static_cast<int>(shape.n);
    const int k = static_cast<int>(shape.k);
    const int rows = static_cast<int>(m);
    const auto launch = [&](int set) {
      const auto s = static_cast<std::size_t>(set);
      // Column-major: y^T (n x m) = op(W) x^T; W is n x k row-major (k x n
      // column-major, transposed: tn) or k x n row-major (n x k column-major: nn).
      const cublasStatus_t status =
          cublasGemmEx(cublas_.get(), tn ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, rows, k,
                       &alpha, w[s].get(), CUDA_R_16BF, tn ? k : n, x[s].get(), CUDA_R_16BF, k,
                       &beta, y[s].get(), CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      if (status != CUBLAS_STATUS_SUCCESS) throw tk::CudaError("cublasGemmEx failed");
    };
    print({"cublas", tn ? "tn" : "nn", m, shape, 0, 0, static_cast<double>(weight_bytes), sets},
          ms::time_launches(launch, sets, options_, stream_));
  }

 private:
  int sms_;
  cudaStream_t stream_;
  tk::CublasHandle cublas_;
  std::shared_ptr<const ms::NvmlDevice> nvml_;
  ms::TimingOptions options_;
  DeviceBuffer folded_{sizeof(std::uint32_t)};
};

void run(int sms) {
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreate(&stream));
  {
    Bench bench(sms, stream);
    std::printf("part,layout,m,n,k,splits,ctas,weight_mb,sets,time_us,time_us_min,gbs,clock_mhz\n");
    bench.hbm_read();
    for (const Shape shape : {Shape{4096, 4096}, Shape{11008, 4096}, Shape{4096, 11008}}) {
      for (const int splits : {1, 2, 4, 8}) bench.weight_read(shape, splits);
    }
    for (const Shape shape : kShapes) {
      for (const std::int64_t m : kBatches) {
        bench.cublas(shape, m, true);
        bench.cublas(shape, m, false);
      }
    }
    bench.hbm_read();  // the ceiling again, after the run: drift
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

int main() {
  const std::optional<int> sms = tk::device_sm_count_or_skip();
  if (!sms) return tk::kExitNoDevice;
  try {
    run(*sms);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tilesim-gemv-calibration: %s\n", error.what());
    return 1;
  }
  return 0;
}
