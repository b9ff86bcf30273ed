// tilesim-gemv-graph-chain: what a cuBLAS GEMV pays once per kernel and what
// once per timed run (issue 13 item 2). A GEMV's time inside a CUDA graph of
// a decode forward is its weight stream plus a fixed start and drain that
// every kernel pays, back to back or not; CUDA events around one standalone
// call also see a cost the graph pays once. One call cannot tell the two
// apart; a chain can: N GEMVs (m = 1, and 16 on two shapes; PyTorch's `tn`
// layout, each on its own weight matrix) captured in one CUDA graph, and the same N launched back
// to back on a stream, for N = 1..64, each timed as tilesim-measure times a row
// (kernels/measure/timed_runs.hpp: sustained warm-up, each run between its
// own CUDA events, median; the weights rotate so that >= 256 MiB pass between
// two uses of one matrix). The slope over N is the time per kernel in the
// chain; the intercept is what the run pays once.
// kernels/microbench/fit_gemv_launch_costs.py fits the library profile's
// parameters on it.
// Checks, per shape: the graph's output equals the stream's bit for bit, and
// 64 rows of it match a float64 host product (relative error < 1e-2).
// Prints CSV on stdout:
//   mode,m,n,k,chain,weight_mb,sets,time_us,time_us_min,time_us_p90,clock_mhz
// (mode graph or stream; weight_mb: one matrix). Exit status: 0, 1 on a CUDA
// or cuBLAS error or a failed check, 77 without a device.

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
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
constexpr std::size_t kRotationBytes = 256 * kMiB;  // > 2x the H100's 50 MiB L2
constexpr std::size_t kWorkspaceBytes = 32 * kMiB;  // PyTorch's cuBLAS workspace on sm90
constexpr int kPoolMatrices = 128;                  // two chains of 64
constexpr int kCheckedRows = 64;
constexpr double kMaxRelativeError = 1e-2;

struct Shape {
  std::int64_t m;  // rows of activations: the decode batch
  std::int64_t n;
  std::int64_t k;
};

// Decode projections of 7-8B models and a small one (n x k, PyTorch's weight).
const std::vector<Shape> kShapes = {{1, 2048, 2048},  {1, 4096, 4096},  {1, 11008, 4096},
                                    {1, 4096, 11008}, {1, 14336, 4096}, {16, 4096, 4096},
                                    {16, 11008, 4096}};
const std::vector<int> kChains = {1, 2, 4, 8, 16, 32, 64};

class Graph {
 public:
  explicit Graph(cudaGraph_t graph) {
    TILESIM_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0));
    TILESIM_CUDA_CHECK(cudaGraphDestroy(graph));
  }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph() { cudaGraphExecDestroy(exec_); }
  void launch(cudaStream_t stream) const { TILESIM_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraphExec_t exec_ = nullptr;
};

// A pool of weight matrices, an input vector and one output per chain slot.
class GemvPool {
 public:
  GemvPool(Shape shape, cudaStream_t stream, cublasHandle_t cublas)
      : shape_(shape), stream_(stream), cublas_(cublas), x_(bytes_of(shape.m * shape.k)) {
    const auto matrix_bytes = static_cast<std::size_t>(shape.n * shape.k * 2);
    weights_ = DeviceBuffer(matrix_bytes * kPoolMatrices);
    outputs_ = DeviceBuffer(output_bytes() * static_cast<std::size_t>(kChains.back()));
    tk::fill_random(weights_.get(), tk::ElementType::bf16, shape.n * shape.k * kPoolMatrices, 11,
                    stream);
    tk::fill_random(x_.get(), tk::ElementType::bf16, shape.m * shape.k, 12, stream);
  }

  double matrix_bytes() const { return static_cast<double>(shape_.n * shape_.k * 2); }

  // Chains of `chain` GEMVs rotate over sets of distinct matrices.
  int sets_for(int chain) const {
    const double chain_bytes = matrix_bytes() * chain;
    const auto sets =
        static_cast<int>(std::ceil(static_cast<double>(kRotationBytes) / chain_bytes));
    return std::clamp(sets, 2, kPoolMatrices / chain);
  }

  // GEMV `slot` of a chain on set `set`: y_slot = x W^T, W n x k row-major
  // (column-major: y^T, n x m, = W x^T with W read as k x n, transposed).
  void gemv(int set, int chain, int slot) const {
    const std::size_t matrix = static_cast<std::size_t>(set * chain + slot);
    const float alpha = 1.0f;
    const float beta = 0.0f;
    const int n = static_cast<int>(shape_.n);
    const int k = static_cast<int>(shape_.k);
    const int rows = static_cast<int>(shape_.m);
    const cublasStatus_t status =
        cublasGemmEx(cublas_, CUBLAS_OP_T, CUBLAS_OP_N, n, rows, k, &alpha, weight(matrix),
                     CUDA_R_16BF, k, x_.get(), CUDA_R_16BF, k, &beta, output(slot), CUDA_R_16BF, n,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (status != CUBLAS_STATUS_SUCCESS) throw tk::CudaError("cublasGemmEx failed");
  }

  void launch_chain(int set, int chain) const {
    for (int slot = 0; slot < chain; ++slot) gemv(set, chain, slot);
  }

  std::unique_ptr<Graph> capture(int set, int chain) const {
    TILESIM_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    launch_chain(set, chain);
    cudaGraph_t graph = nullptr;
    TILESIM_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    return std::make_unique<Graph>(graph);
  }

  void poison_outputs() const { tk::poison(outputs_.get(), outputs_.bytes(), stream_); }

  // The output of the first row of activations (n values).
  std::vector<std::uint16_t> read_output(int slot) const {
    std::vector<std::uint16_t> host(static_cast<std::size_t>(shape_.n));
    TILESIM_CUDA_CHECK(cudaMemcpyAsync(host.data(), output(slot), bytes_of(shape_.n),
                                       cudaMemcpyDeviceToHost, stream_));
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

  // Relative error of the first kCheckedRows of GEMV (set, chain, slot)'s output.
  double error_against_host(int set, int chain, int slot,
                            const std::vector<std::uint16_t>& y) const {
    const auto k = static_cast<std::size_t>(shape_.k);
    std::vector<std::uint16_t> w(kCheckedRows * k);
    std::vector<std::uint16_t> x(k);
    TILESIM_CUDA_CHECK(cudaMemcpy(w.data(), weight(static_cast<std::size_t>(set * chain + slot)),
                                  w.size() * 2, cudaMemcpyDeviceToHost));
    TILESIM_CUDA_CHECK(cudaMemcpy(x.data(), x_.get(), k * 2, cudaMemcpyDeviceToHost));
    double diff = 0;
    double norm = 0;
    for (std::size_t row = 0; row < kCheckedRows; ++row) {
      double sum = 0;
      for (std::size_t i = 0; i < k; ++i) sum += to_double(w[row * k + i]) * to_double(x[i]);
      diff += (to_double(y[row]) - sum) * (to_double(y[row]) - sum);
      norm += sum * sum;
    }
    return std::sqrt(diff / norm);
  }

 private:
  std::size_t output_bytes() const { return bytes_of(shape_.m * shape_.n); }
  static std::size_t bytes_of(std::int64_t elements) {
    return static_cast<std::size_t>(elements) * 2;
  }
  static double to_double(std::uint16_t bf16) {
    const std::uint32_t bits = std::uint32_t{bf16} << 16;
    float value = 0;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  const void* weight(std::size_t matrix) const {
    return weights_.as<const char>() + matrix * static_cast<std::size_t>(matrix_bytes());
  }
  void* output(int slot) const {
    return outputs_.as<char>() + static_cast<std::size_t>(slot) * output_bytes();
  }

  Shape shape_;
  cudaStream_t stream_;
  cublasHandle_t cublas_;
  DeviceBuffer weights_;
  DeviceBuffer x_;
  DeviceBuffer outputs_;
};

class Bench {
 public:
  explicit Bench(cudaStream_t stream)
      : stream_(stream), cublas_(stream), nvml_(ms::open_nvml_device()) {
    options_.warmup_ms = 200;
    options_.target_ms = 30;
    options_.clock_source = nvml_.get();
    // A workspace set once, as PyTorch does: cuBLAS then allocates nothing
    // while a graph is captured.
    if (cublasSetWorkspace(cublas_.get(), workspace_.get(), workspace_.bytes()) !=
        CUBLAS_STATUS_SUCCESS) {
      throw tk::CudaError("cublasSetWorkspace failed");
    }
  }

  void shape(Shape shape) {
    const GemvPool pool(shape, stream_, cublas_.get());
    for (const int chain : kChains) {
      const int sets = pool.sets_for(chain);
      std::vector<std::unique_ptr<Graph>> graphs;
      for (int set = 0; set < sets; ++set) graphs.push_back(pool.capture(set, chain));
      const auto replay = [&](int set) { graphs[static_cast<std::size_t>(set)]->launch(stream_); };
      print("graph", shape, chain, pool, sets, ms::time_launches(replay, sets, options_, stream_));
      const auto stream = [&](int set) { pool.launch_chain(set, chain); };
      print("stream", shape, chain, pool, sets, ms::time_launches(stream, sets, options_, stream_));
      if (chain == kChains.back()) check(pool, *graphs.front(), chain);
    }
  }

 private:
  // The graph's last output against the stream's, and against the host.
  void check(const GemvPool& pool, const Graph& graph, int chain) const {
    const int last = chain - 1;
    pool.poison_outputs();
    graph.launch(stream_);
    const std::vector<std::uint16_t> replayed = pool.read_output(last);
    pool.poison_outputs();
    pool.launch_chain(0, chain);
    const std::vector<std::uint16_t> launched = pool.read_output(last);
    if (replayed != launched) throw tk::CudaError("graph output differs from the stream's");
    const double error = pool.error_against_host(0, chain, last, launched);
    std::fprintf(stderr, "check: relative error %.2e against float64\n", error);
    if (!(error < kMaxRelativeError)) throw tk::CudaError("GEMV output off its reference");
  }

  void print(const char* mode, Shape shape, int chain, const GemvPool& pool, int sets,
             const ms::TimedRuns& timed) const {
    std::printf("%s,%lld,%lld,%lld,%d,%.2f,%d,%.3f,%.3f,%.3f,%.0f\n", mode,
                static_cast<long long>(shape.m), static_cast<long long>(shape.n),
                static_cast<long long>(shape.k), chain, pool.matrix_bytes() / 1e6, sets,
                timed.time_us, timed.time_us_min, timed.time_us_p90, timed.clock.sm_clock_mhz);
    std::fflush(stdout);
  }

  cudaStream_t stream_;
  tk::CublasHandle cublas_;
  std::shared_ptr<const ms::NvmlDevice> nvml_;
  ms::TimingOptions options_;
  DeviceBuffer workspace_{kWorkspaceBytes};
};

void run() {
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    Bench bench(stream);
    std::printf("mode,m,n,k,chain,weight_mb,sets,time_us,time_us_min,time_us_p90,clock_mhz\n");
    for (const Shape shape : kShapes) bench.shape(shape);
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

int main() {
  if (!tk::device_sm_count_or_skip()) return tk::kExitNoDevice;
  try {
    run();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tilesim-gemv-graph-chain: %s\n", error.what());
    return 1;
  }
  return 0;
}
