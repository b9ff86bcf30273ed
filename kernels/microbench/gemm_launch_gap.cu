// tilesim-gemm-launch-gap: where a GEMM row's event time goes beyond its
// kernel's own duration (issue 13, "Kernels at library speed"). At 1536^3 our
// 192x96 cluster kernel runs as fast as cuBLAS's by ncu (13.92 against 13.44
// us) but 1.2 us further from it by CUDA events (17.14 against 15.46). Per
// case (cuBLAS and ours, each timed as tilesim-measure times a row:
// kernels/measure/timed_runs.hpp):
//   event  N launches between one pair of events, N = 1, 8, 32 (N = 1 is the
//          row's time); the slope over N is the time a kernel takes back to
//          back in a stream, the intercept what one pair of events adds;
//   graph  the same N launches captured in one CUDA graph;
//   host   the host's wall time to enqueue one launch (measure/host_enqueue.hpp).
// And empty kernels of 128 CTAs, event-timed alone, that add our launch's
// parts one at a time: 512 threads and 173 KiB of shared memory, 2-CTA
// clusters (cudaLaunchKernelExC), three tensor maps as a __grid_constant__
// parameter. `--launches K`: no timing, each case launched K times (for ncu).
// Prints CSV on stdout: case,mode,chain,time_us,time_us_min,time_us_p90,clock_mhz.
// Exit status: 0, 1 on a CUDA or cuBLAS error or a failed check, 77 without a device.

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/standalone_device.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/gemm_workspace_buffers.hpp"
#include "kernels/gemm/reference_check.hpp"
#include "kernels/measure/host_enqueue.hpp"
#include "kernels/measure/sm_clock_sampler.hpp"
#include "kernels/measure/timed_runs.hpp"

namespace {

namespace tk = tilesim::kernels;
namespace ms = tilesim::measure;

constexpr int kEmptyCtas = 128;
constexpr int kEmptyThreads = 512;
constexpr int kEmptySharedBytes = 173 * 1024;  // the 192x96 kernel's 4 stages + C staging

struct ThreeMaps {
  CUtensorMap a, b, c;
};

// empty_kernel
//   grid: any; block: any. Does nothing: what is left is the cost of launching it.
__global__ void empty_kernel() {}

// empty_kernel_with_maps
//   grid: any; block: any. Takes three tensor maps as our kernels do and
//   prefetches none (`never` is 0): the parameter's size and kind alone.
__global__ void empty_kernel_with_maps(const __grid_constant__ ThreeMaps maps, int never) {
  if (never != 0) asm volatile("prefetch.tensormap [%0];" ::"l"(&maps.a) : "memory");
}

// empty_kernel_cluster_dims
//   grid: a multiple of 2; block: any. Does nothing; its 2-CTA clusters are
//   compiled in (__cluster_dims__) rather than asked for at launch.
__global__ void __cluster_dims__(2, 1, 1) empty_kernel_cluster_dims() {}

struct Case {
  std::string name;
  std::function<void(int)> launch;  // one launch on input set `set`
  int sets = 1;
};

struct Operands {
  std::int64_t m, n, k;
  std::vector<tk::DeviceBuffer> a, b, c;
};

Operands make_operands(std::int64_t m, std::int64_t n, std::int64_t k, int sets,
                       cudaStream_t stream) {
  Operands ops{m, n, k, {}, {}, {}};
  for (int s = 0; s < sets; ++s) {
    ops.a.emplace_back(static_cast<std::size_t>(m * k) * 2);
    ops.b.emplace_back(static_cast<std::size_t>(k * n) * 2);
    ops.c.emplace_back(static_cast<std::size_t>(m * n) * 2);
    tk::fill_random(ops.a.back().get(), tk::ElementType::bf16, m * k, 11 + 2 * s, stream);
    tk::fill_random(ops.b.back().get(), tk::ElementType::bf16, k * n, 12 + 2 * s, stream);
  }
  return ops;
}

// Our kernel's output on set 0 against cuBLAS's fp32 product, output poisoned first.
bool check(const std::function<void(int)>& launch, const Operands& ops,
           const tk::CublasHandle& cublas, cudaStream_t stream) {
  tk::DeviceBuffer reference(static_cast<std::size_t>(ops.m * ops.n) * sizeof(float));
  if (tk::cublas_gemm(cublas, ops.m, ops.n, ops.k, tk::ElementType::bf16, tk::ElementType::fp32,
                      ops.a[0].get(), ops.b[0].get(), reference.get()) != CUBLAS_STATUS_SUCCESS) {
    return false;
  }
  tk::poison(ops.c[0].get(), ops.c[0].bytes(), stream);
  launch(0);
  TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  const tk::ReferenceComparison result = tk::compare_with_reference(
      ops.c[0].get(), tk::ElementType::bf16, reference.as<float>(), ops.m * ops.n, stream);
  return result.non_finite == 0 &&
         result.relative_frobenius_error <= tk::relative_error_bound(tk::ElementType::bf16);
}

void print_row(const std::string& name, const char* mode, int chain, const ms::TimedRuns& t) {
  std::printf("%s,%s,%d,%.3f,%.3f,%.3f,%.0f\n", name.c_str(), mode, chain, t.time_us, t.time_us_min,
              t.time_us_p90, t.clock.sm_clock_mhz);
  std::fflush(stdout);
}

// N launches of the case, then the same N captured in a graph, each as one timed run.
void time_chains(const Case& c, const ms::TimingOptions& options, cudaStream_t stream) {
  for (const int chain : {1, 8, 32}) {
    const auto launch_chain = [&](int set) {
      for (int i = 0; i < chain; ++i) c.launch((set * chain + i) % c.sets);
    };
    print_row(c.name, "event", chain, ms::time_launches(launch_chain, c.sets, options, stream));
  }
  for (const int chain : {1, 8, 32}) {
    cudaGraph_t graph = nullptr;
    try {
      TILESIM_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
      for (int i = 0; i < chain; ++i) c.launch(i % c.sets);
      TILESIM_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    } catch (const std::exception& error) {
      // A launch the graph cannot hold: end the capture, report, go on.
      cudaStreamEndCapture(stream, &graph);
      if (graph != nullptr) cudaGraphDestroy(graph);
      cudaGetLastError();
      std::printf("%s,graph,%d,capture failed: %s\n", c.name.c_str(), chain, error.what());
      continue;
    }
    cudaGraphExec_t exec = nullptr;
    TILESIM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    const auto launch_graph = [&](int) { TILESIM_CUDA_CHECK(cudaGraphLaunch(exec, stream)); };
    print_row(c.name, "graph", chain, ms::time_launches(launch_graph, 1, options, stream));
    TILESIM_CUDA_CHECK(cudaGraphExecDestroy(exec));
    TILESIM_CUDA_CHECK(cudaGraphDestroy(graph));
  }
  const ms::TimedRuns one = ms::time_launches(c.launch, c.sets, options, stream);
  const ms::HostEnqueue host = ms::time_host_enqueue(c.launch, c.sets, one.time_us, stream);
  // host row: host_us, the same runs' event time, runs wholly queued ahead, host ahead (0/1).
  std::printf("%s,host,1,%.3f,%.3f,%d,%d\n", c.name.c_str(), host.host_us, host.gpu_us, host.runs,
              host.host_ahead ? 1 : 0);
}

// An empty kernel of kEmptyCtas CTAs, in clusters of `cluster` CTAs when above 1.
std::function<void(int)> empty_launch(int threads, int shared_bytes, int cluster, bool maps,
                                      cudaStream_t stream) {
  static ThreeMaps three{};  // the launches copy it; its contents are never read
  static int never = 0;
  const void* function = maps ? reinterpret_cast<const void*>(&empty_kernel_with_maps)
                              : reinterpret_cast<const void*>(&empty_kernel);
  TILESIM_CUDA_CHECK(
      cudaFuncSetAttribute(function, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  return [=](int) {
    void* args[] = {&three, &never};
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kEmptyCtas);
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = static_cast<std::size_t>(shared_bytes);
    config.stream = stream;
    config.attrs = cluster > 1 ? &attribute : nullptr;
    config.numAttrs = cluster > 1 ? 1 : 0;
    TILESIM_CUDA_CHECK(cudaLaunchKernelExC(&config, function, maps ? args : nullptr));
  };
}

int run(int launches_only) {
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tk::CublasHandle cublas(stream);
  const tk::GemmDeviceLimits device = tk::query_gemm_device_limits();
  ms::TimingOptions options;
  options.warmup_ms = 150;
  options.target_ms = 40;
  options.min_runs = 30;
  int device_id = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&device_id));
  int l2_bytes = 0;
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device_id));
  options.l2_bytes = l2_bytes;
  const std::shared_ptr<const ms::NvmlDevice> nvml = ms::open_nvml_device();
  options.clock_source = nvml.get();

  struct Shape {
    const char* name;
    std::int64_t m, n, k;
  };
  struct Own {
    const char* name;
    tk::GemmTileVariant tile;
    tk::GemmSchedule schedule;
    tk::StreamKMode mode;
  };
  const std::vector<std::pair<Shape, std::vector<Own>>> plan = {
      {{"1536", 1536, 1536, 1536},
       {{"m192n96_dp", tk::GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2,
         tk::GemmSchedule::data_parallel, tk::StreamKMode::two_tile},
        {"n192_dp", tk::GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2,
         tk::GemmSchedule::data_parallel, tk::StreamKMode::two_tile},
        {"m192n96_sk_two_tile", tk::GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2,
         tk::GemmSchedule::stream_k, tk::StreamKMode::two_tile}}},
      {{"3072x3072x4096", 3072, 3072, 4096},
       {{"c2_sk_two_tile", tk::GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2,
         tk::GemmSchedule::stream_k, tk::StreamKMode::two_tile}}},
  };
  bool all_checked = true;
  for (const auto& [shape, owns] : plan) {
    const std::size_t set_bytes =
        static_cast<std::size_t>(2 * (shape.m * shape.k + shape.k * shape.n + shape.m * shape.n));
    const int sets = ms::input_sets_for(set_bytes, options);
    Operands ops = make_operands(shape.m, shape.n, shape.k, sets, stream);
    std::vector<Case> cases;
    cases.push_back({std::string(shape.name) + "_cublas",
                     [&](int s) {
                       if (tk::cublas_gemm(cublas, ops.m, ops.n, ops.k, tk::ElementType::bf16,
                                           tk::ElementType::bf16, ops.a[s].get(), ops.b[s].get(),
                                           ops.c[s].get()) != CUBLAS_STATUS_SUCCESS) {
                         throw tk::CudaError("cublasGemmEx failed");
                       }
                     },
                     sets});
    std::vector<std::unique_ptr<tk::GemmWorkspaceBuffers>> workspaces;
    for (const Own& own : owns) {
      tk::GemmLaunchConfig config;
      config.m = shape.m;
      config.n = shape.n;
      config.k = shape.k;
      config.tile = own.tile;
      config.schedule = own.schedule;
      config.stream_k_mode = own.mode;
      config.device = device;
      config.a = config.b = config.c = ops.a[0].get();
      workspaces.push_back(std::make_unique<tk::GemmWorkspaceBuffers>());
      config.workspace = workspaces.back()->fit(tk::plan_gemm(config));
      Case c{std::string(shape.name) + "_" + own.name,
             [&ops, config, stream](int s) mutable {
               config.a = ops.a[s].get();
               config.b = ops.b[s].get();
               config.c = ops.c[s].get();
               TILESIM_CUDA_CHECK(tk::launch_gemm(config, stream));
             },
             sets};
      if (!check(c.launch, ops, cublas, stream)) {
        std::printf("%s,CHECK FAILED\n", c.name.c_str());
        all_checked = false;
        continue;
      }
      cases.push_back(std::move(c));
    }
    for (const Case& c : cases) {
      if (launches_only > 0) {
        for (int i = 0; i < launches_only; ++i) c.launch(i % c.sets);
        TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
        continue;
      }
      time_chains(c, options, stream);
    }
  }
  if (launches_only > 0) return all_checked ? 0 : 1;
  struct Empty {
    const char* name;
    int threads, shared_bytes, cluster;
    bool maps;
  };
  for (const Empty& e :
       {Empty{"empty_32thr", 32, 0, 1, false},
        Empty{"empty_512thr_173k", kEmptyThreads, kEmptySharedBytes, 1, false},
        Empty{"empty_512thr_173k_c2", kEmptyThreads, kEmptySharedBytes, 2, false},
        Empty{"empty_512thr_173k_c2_maps", kEmptyThreads, kEmptySharedBytes, 2, true},
        Empty{"empty_512thr_173k_maps", kEmptyThreads, kEmptySharedBytes, 1, true}}) {
    const auto launch = empty_launch(e.threads, e.shared_bytes, e.cluster, e.maps, stream);
    print_row(e.name, "event", 1, ms::time_launches(launch, 1, options, stream));
  }
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(&empty_kernel_cluster_dims),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          kEmptySharedBytes));
  const auto compiled_clusters = [&](int) {
    empty_kernel_cluster_dims<<<kEmptyCtas, kEmptyThreads, kEmptySharedBytes, stream>>>();
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  print_row("empty_512thr_173k_cluster_dims", "event", 1,
            ms::time_launches(compiled_clusters, 1, options, stream));
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  return all_checked ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (!tk::device_sm_count_or_skip()) return tk::kExitNoDevice;
  const int launches_only =
      argc == 3 && std::strcmp(argv[1], "--launches") == 0 ? std::atoi(argv[2]) : 0;
  try {
    std::printf("case,mode,chain,time_us,time_us_min,time_us_p90,clock_mhz\n");
    return run(launches_only);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tilesim-gemm-launch-gap: %s\n", error.what());
    return 1;
  }
}
