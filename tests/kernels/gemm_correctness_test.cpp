// Checks every GEMM schedule and fixup of kernels/gemm against cuBLAS
// (cublasGemmEx, fp32 compute and output) on fresh random inputs, with the
// output poisoned (NaN) before each run: relative Frobenius error within the
// output type's bound, no unwritten (non-finite) element, and for every
// deterministic schedule a bitwise-identical second run. One workspace serves
// all runs (flags zeroed once), which also checks that every launch leaves its
// flags zero.
//
// Usage: tilesim-gemm-check [--small] [--schedule NAME] [--tile VARIANT]
//   --small            small shapes only (for compute-sanitizer)
//   --schedule NAME    only variants whose name starts with NAME
//   --tile VARIANT     only shapes on that tile variant
// Exit status: 0 all passed, 1 a check failed, 77 no CUDA device (ctest: skipped).

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/gemm_workspace_buffers.hpp"
#include "kernels/gemm/reference_check.hpp"

namespace tk = tilesim::kernels;

namespace {

constexpr int kExitNoDevice = 77;

struct Shape {
  std::int64_t m, n, k;
  tk::ElementType input = tk::ElementType::bf16;
  tk::ElementType output = tk::ElementType::bf16;
  tk::GemmTileVariant tile = tk::GemmTileVariant::m128n128k32_w8_s4;
  const char* why = "";
};

struct Variant {
  std::string name;
  tk::GemmSchedule schedule;
  int splits = 1;
  tk::StreamKMode mode = tk::StreamKMode::dp_one_tile;
  tk::FixupMode fixup = tk::FixupMode::deterministic;
  bool persistent = false;
};

// Stream-K tile_fit's one-wave tile: the 192x96 pair along n where its
// cluster tiles fit one wave, the case's tile (wave_fit) elsewhere.
constexpr tk::GemmTileVariant kOneWaveTile =
    tk::GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n;

// A wgmma variant on every input and output type: edges in m, n and k (fp16),
// a hybrid Stream-K wave (fp16 -> bf16), huge k (fp32 out), decode-like m.
void add_every_type_cases(std::vector<Shape>& list, tk::GemmTileVariant tile) {
  using tk::ElementType;
  const auto bf16 = ElementType::bf16;
  list.push_back(
      {520, 1032, 776, ElementType::fp16, ElementType::fp16, tile, "edges in m, n and k, fp16"});
  list.push_back({4224, 4224, 256, ElementType::fp16, bf16, tile, "fp16 -> bf16, hybrid SK"});
  list.push_back({64, 256, 65536, bf16, ElementType::fp32, tile, "huge k, fp32 out"});
  list.push_back({8, 4096, 4096, bf16, bf16, tile, "decode-like m = 8"});
}

// A clustered variant's small cases: edges, rank 1's rows all past m
// (fp16 -> fp32), and a grid of cluster tiles (`many_tiles` says how many).
void add_small_cluster_cases(std::vector<Shape>& list, tk::GemmTileVariant tile,
                             const char* many_tiles) {
  using tk::ElementType;
  const auto bf16 = ElementType::bf16;
  list.push_back({300, 520, 200, bf16, bf16, tile, "edges, 2-CTA clusters, B multicast"});
  list.push_back({100, 264, 72, ElementType::fp16, ElementType::fp32, tile,
                  "clusters: rank 1's rows all past m, fp16 -> fp32"});
  list.push_back({2056, 2312, 72, bf16, bf16, tile, many_tiles});
}

// A clustered variant's full cases: tiny k = 8 with rank 1's rows past m
// (tiny_m x tiny_n), every type, the Stream-K target shapes (`at_1536`,
// `at_3072` say how many cluster tiles they make) and edges in m, n and k.
void add_full_cluster_cases(std::vector<Shape>& list, tk::GemmTileVariant tile, int tiny_m,
                            int tiny_n, const char* at_1536, const char* at_3072) {
  const auto bf16 = tk::ElementType::bf16;
  list.push_back({tiny_m, tiny_n, 8, bf16, bf16, tile, "tiny k = 8, rank 1 rows past m"});
  add_every_type_cases(list, tile);
  list.push_back({1536, 1536, 1536, bf16, bf16, tile, at_1536});
  list.push_back({3072, 3072, 4096, bf16, bf16, tile, at_3072});
  list.push_back({2056, 4104, 520, bf16, bf16, tile, "cluster tiles with edges in m, n and k"});
}

std::vector<Shape> shapes(bool small) {
  using tk::ElementType;
  using tk::GemmTileVariant;
  const auto bf16 = ElementType::bf16;
  const auto profile = GemmTileVariant::m128n128k32_w8_s4;
  std::vector<Shape> list;
  if (small) {
    list = {
        {77, 93, 57, bf16, bf16, profile, "unaligned rows (scalar-load kernels)"},
        {200, 136, 40, bf16, bf16, profile, "edges, k = 40"},
        {256, 384, 512, ElementType::fp16, ElementType::fp32, profile,
         "tile multiples, fp16 -> fp32"},
        {300, 264, 200, bf16, bf16, GemmTileVariant::m256n128k64_w8_s3,
         "edges, 256x128x64 prefetching"},
        {300, 520, 200, bf16, bf16, GemmTileVariant::m128n256k64_w12_s4_wgmma,
         "edges, TMA + wgmma"},
        {200, 264, 72, ElementType::fp16, ElementType::fp32,
         GemmTileVariant::m128n256k64_w12_s4_wgmma, "TMA + wgmma, fp16 -> fp32"},
        {150, 270, 104, bf16, bf16, GemmTileVariant::m128n128k32_w4_s4, "edges, 4 warps"},
        {77, 93, 57, bf16, bf16, GemmTileVariant::m128n128k32_w4_s4, "unaligned rows, 4 warps"},
        {140, 300, 96, bf16, bf16, GemmTileVariant::m128n256k32_w8_s4, "edges, 128x256x32"},
        {77, 93, 57, bf16, bf16, GemmTileVariant::m256n128k64_w8_s4, "unaligned rows, 256x128x64"},
        {2056, 2312, 72, bf16, bf16, GemmTileVariant::m128n256k64_w12_s4_wgmma,
         "170 tiles with edges: persistent CTAs take 1-2"},
        {300, 520, 200, bf16, bf16, GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store,
         "edges, C by TMA store"},
        {200, 264, 72, ElementType::fp16, ElementType::fp32,
         GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store, "C by TMA store, fp16 -> fp32"},
        {2056, 2312, 72, bf16, bf16, GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store,
         "170 tiles with edges, C by TMA store: 1-2 tiles a CTA"},
    };
    add_small_cluster_cases(list, GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2,
                            "90 cluster tiles with edges: 1-2 a cluster");
    // 192 columns: B's three boxes split 2 + 1, C's three boxes reuse a buffer across units.
    add_small_cluster_cases(list, GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2,
                            "117 cluster tiles of 256x192 with edges: odd C boxes across units");
    // 192 rows: three consumer warpgroups, three stages.
    add_small_cluster_cases(list, GemmTileVariant::m192n192k64_w16_s3_wgmma_tma_store_c2,
                            "78 cluster tiles of 384x192 with edges: odd C boxes across units");
    // 96 columns: B and C in 64-byte swizzled 32-column boxes (three and three, or six fp32).
    add_small_cluster_cases(list, GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2,
                            "150 cluster tiles of 384x96 with edges: 64-byte swizzle");
    // Along n: A's rows split 96 + 96 and multicast, rank 1's columns past n.
    add_small_cluster_cases(list, GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n,
                            "143 cluster tiles of 192x192 with edges: A multicast");
    return list;
  }
  list = {
      {128, 128, 32, bf16, bf16, profile, "one tile, one k-block"},
      {256, 384, 512, bf16, bf16, profile, "tile multiples"},
      {1000, 1000, 1000, bf16, bf16, profile, "edge tiles"},
      {77, 93, 57, bf16, bf16, profile, "unaligned rows (scalar-load kernels)"},
      {515, 1029, 771, ElementType::fp16, ElementType::fp16, profile,
       "unaligned, several tiles, fp16"},
      {130, 260, 8, bf16, bf16, profile, "tiny k = 8"},
      {300, 200, 40, bf16, ElementType::fp32, profile, "tiny k = 40, fp32 out"},
      {64, 128, 65536, bf16, ElementType::fp32, profile, "huge k, one tile"},
      {256, 256, 65536, bf16, bf16, profile, "huge k, four tiles"},
      {8, 4096, 4096, bf16, bf16, profile, "decode-like m = 8"},
      {1536, 1536, 1536, bf16, bf16, profile, "144 tiles (under one wave)"},
      {2560, 1792, 1024, bf16, bf16, profile, "280 tiles: one wave + 16"},
      {4224, 4224, 256, ElementType::fp16, bf16, profile, "1089 tiles: 4 waves + 33, fp16 -> bf16"},
      {2000, 3000, 700, bf16, ElementType::fp16, profile, "bf16 -> fp16, edges"},
  };
  // Every other tile variant: edges, unaligned rows, hybrid Stream-K.
  for (int v = 1; v < tk::kGemmTileVariantCount; ++v) {
    const auto tile = static_cast<GemmTileVariant>(v);
    list.push_back({1000, 1000, 1000, bf16, bf16, tile, "edge tiles"});
    list.push_back({77, 93, 57, bf16, bf16, tile, "unaligned rows"});
    list.push_back({2560, 1792, 1024, bf16, bf16, tile, "more tiles than one wave"});
  }
  // The other types of the all-types variant besides the profile's.
  const auto big = GemmTileVariant::m256n128k64_w8_s3;
  list.push_back({515, 1029, 771, ElementType::fp16, ElementType::fp16, big, "unaligned, fp16"});
  list.push_back({300, 200, 40, bf16, ElementType::fp32, big, "tiny k = 40, fp32 out"});
  list.push_back({4224, 4224, 256, ElementType::fp16, bf16, big, "fp16 -> bf16, hybrid SK"});
  list.push_back({64, 256, 65536, bf16, ElementType::fp32, big, "huge k, fp32 out"});
  // The TMA + wgmma variant: k-blocks past k and tiles past m, n come in as
  // TMA's zeros; every type; one k-block and very many.
  const auto wgmma = GemmTileVariant::m128n256k64_w12_s4_wgmma;
  list.push_back({128, 256, 64, bf16, bf16, wgmma, "one tile, one k-block"});
  list.push_back({130, 264, 8, bf16, bf16, wgmma, "tiny k = 8"});
  list.push_back({300, 200, 40, bf16, ElementType::fp32, wgmma, "tiny k = 40, fp32 out"});
  add_every_type_cases(list, wgmma);
  list.push_back({2304, 2048, 4096, bf16, bf16, wgmma, "144 tiles: one wave + 12"});
  list.push_back({2056, 4104, 520, bf16, bf16, wgmma, "289 tiles, edges in m, n and k"});
  // The tma_store variant: its C boxes clipped at every edge, every output type.
  const auto tma_store = GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store;
  list.push_back({130, 264, 8, bf16, bf16, tma_store, "tiny k = 8, C by TMA store"});
  list.push_back({300, 200, 40, bf16, ElementType::fp32, tma_store, "tiny k = 40, fp32 out"});
  add_every_type_cases(list, tma_store);
  list.push_back({2056, 4104, 520, bf16, bf16, tma_store, "289 tiles, edges in m, n and k"});
  // The clustered variant: rank 1's rows partly or wholly past m (its A rows
  // come in as zeros, its C boxes clipped away), every type, the Stream-K
  // target shapes (one cluster tile's two halves in two workspace slots).
  const auto c2 = GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2;
  list.push_back({130, 264, 8, bf16, bf16, c2, "tiny k = 8, rank 1 rows past m"});
  list.push_back({100, 200, 40, bf16, ElementType::fp32, c2, "rank 1 idle, fp32 out"});
  add_every_type_cases(list, c2);
  list.push_back({1536, 1536, 1536, bf16, bf16, c2, "36 cluster tiles on 66 clusters"});
  list.push_back({3072, 3072, 4096, bf16, bf16, c2, "144 cluster tiles: 2 waves + 12"});
  list.push_back({2056, 4104, 520, bf16, bf16, c2, "cluster tiles with edges in m, n and k"});
  // The 192-column clustered variant: three B boxes split 2 + 1 between the
  // ranks, three C boxes a unit (bf16/fp16) reusing a buffer across units.
  add_full_cluster_cases(list, GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2, 130, 200,
                         "48 cluster tiles on 66 clusters", "192 cluster tiles: 3 waves - 6");
  // The 192x192 clustered variant: three consumer warpgroups (C boxes at
  // rows 0, 64, 128 of each CTA), three stages, 384x192 cluster tiles.
  add_full_cluster_cases(list, GemmTileVariant::m192n192k64_w16_s3_wgmma_tma_store_c2, 200, 200,
                         "32 cluster tiles on 66 clusters", "128 cluster tiles: 2 waves - 4");
  // The 192x96 clustered variant: B's three 32-column boxes split 2 + 1, C in
  // 64-byte boxes (three bf16/fp16, six fp32), 384x96 cluster tiles.
  add_full_cluster_cases(list, GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2, 200, 100,
                         "64 cluster tiles on 66 clusters", "256 cluster tiles: 4 waves - 8");
  // The same along n (192x192 cluster tiles, A multicast): rank 1's columns
  // partly or wholly past n.
  add_full_cluster_cases(list, GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n, 100, 100,
                         "64 cluster tiles on 66 clusters", "256 cluster tiles: 4 waves - 8");
  list.push_back({200, 72, 40, bf16, ElementType::fp32,
                  GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n,
                  "rank 1 idle along n, fp32 out"});
  return list;
}

std::vector<Variant> variants() {
  using tk::FixupMode;
  using tk::GemmSchedule;
  using tk::StreamKMode;
  std::vector<Variant> list = {
      {"data_parallel", GemmSchedule::data_parallel},
      {"data_parallel/persistent", GemmSchedule::data_parallel, 1, StreamKMode::dp_one_tile,
       FixupMode::deterministic, true},
      {"split_k_serial/3", GemmSchedule::split_k_serial, 3},
      {"split_k_serial/16", GemmSchedule::split_k_serial, 16},
      {"split_k_parallel/4", GemmSchedule::split_k_parallel, 4},
  };
  for (const StreamKMode mode : {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile,
                                 StreamKMode::wave_fit, StreamKMode::tile_fit}) {
    for (const FixupMode fixup : {FixupMode::deterministic, FixupMode::atomic}) {
      list.push_back(
          {"stream_k/" + std::string(tk::to_string(mode)) + "/" + std::string(tk::to_string(fixup)),
           GemmSchedule::stream_k, 1, mode, fixup});
    }
  }
  return list;
}

struct Outcome {
  bool passed = false;
  std::string detail;
};

std::vector<unsigned char> copy_to_host(const tk::DeviceBuffer& buffer) {
  std::vector<unsigned char> host(buffer.bytes());
  TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), buffer.get(), host.size(), cudaMemcpyDeviceToHost));
  return host;
}

Outcome check(const Shape& shape, const Variant& variant, const tk::GemmDeviceLimits& limits,
              const tk::CublasHandle& cublas, tk::GemmWorkspaceBuffers& workspace,
              std::uint64_t seed, cudaStream_t stream) {
  const std::int64_t count = shape.m * shape.n;
  tk::DeviceBuffer a(static_cast<std::size_t>(shape.m * shape.k) * tk::element_bytes(shape.input));
  tk::DeviceBuffer b(static_cast<std::size_t>(shape.k * shape.n) * tk::element_bytes(shape.input));
  tk::DeviceBuffer c(static_cast<std::size_t>(count) * tk::element_bytes(shape.output));
  tk::DeviceBuffer reference(static_cast<std::size_t>(count) * sizeof(float));
  tk::fill_random(a.get(), shape.input, shape.m * shape.k, 2 * seed, stream);
  tk::fill_random(b.get(), shape.input, shape.k * shape.n, 2 * seed + 1, stream);
  tk::poison(reference.get(), reference.bytes(), stream);
  if (tk::cublas_gemm(cublas, shape.m, shape.n, shape.k, shape.input, tk::ElementType::fp32,
                      a.get(), b.get(), reference.get()) != CUBLAS_STATUS_SUCCESS) {
    return {false, "cuBLAS reference failed"};
  }

  tk::GemmLaunchConfig config;
  config.m = shape.m;
  config.n = shape.n;
  config.k = shape.k;
  config.input_type = shape.input;
  config.output_type = shape.output;
  config.a = a.get();
  config.b = b.get();
  config.c = c.get();
  config.schedule = variant.schedule;
  config.splits = variant.splits;
  config.stream_k_mode = variant.mode;
  config.fixup = variant.fixup;
  config.persistent = variant.persistent;
  config.tile = shape.tile;
  if (variant.mode == tk::StreamKMode::tile_fit) config.one_wave_tile = kOneWaveTile;
  config.device = limits;
  config.workspace = workspace.fit(tk::plan_gemm(config));
  if (const auto error = tk::gemm_config_error(config)) return {false, "config: " + *error};

  const bool deterministic = variant.fixup == tk::FixupMode::deterministic ||
                             variant.schedule != tk::GemmSchedule::stream_k;
  std::vector<unsigned char> first;
  Outcome outcome{true, ""};
  for (int run = 0; run < (deterministic ? 2 : 1); ++run) {
    tk::poison(c.get(), c.bytes(), stream);
    TILESIM_CUDA_CHECK(tk::launch_gemm(config, stream));
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    const tk::ReferenceComparison result =
        tk::compare_with_reference(c.get(), shape.output, reference.as<float>(), count, stream);
    const double bound = tk::relative_error_bound(shape.output);
    char text[160];
    std::snprintf(text, sizeof(text), "rel_err %.2e (bound %.0e), non-finite %lld",
                  result.relative_frobenius_error, bound,
                  static_cast<long long>(result.non_finite));
    outcome.detail = text;
    if (result.non_finite != 0 || !(result.relative_frobenius_error <= bound)) {
      outcome.passed = false;
      return outcome;
    }
    if (!deterministic) break;
    if (run == 0) {
      first = copy_to_host(c);
    } else if (copy_to_host(c) != first) {
      outcome.passed = false;
      outcome.detail += ", second run differs bitwise";
    }
  }
  const tk::GemmLaunchPlan plan = tk::plan_gemm(config);
  char text[160];
  std::snprintf(text, sizeof(text), ", grid %lld (dp %lld, sk tiles %lld on %lld CTAs)",
                static_cast<long long>(plan.grid_ctas), static_cast<long long>(plan.dp_tiles),
                static_cast<long long>(plan.sk_tiles), static_cast<long long>(plan.sk_ctas));
  outcome.detail += text;
  if (config.one_wave_tile) {
    outcome.detail +=
        ", tile " + std::string(tk::gemm_tile_shape(tk::resolved_gemm_tile(config)).name);
  }
  return outcome;
}

int run_checks(bool small, const std::string& only, const std::string& only_tile) {
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tk::GemmDeviceLimits limits = tk::query_gemm_device_limits();
  std::printf("device: %d SMs; resident Stream-K CTAs per SM by tile variant:", limits.sm_count);
  for (const int resident : limits.ctas_per_sm) std::printf(" %d", resident);
  std::printf("\n");
  const tk::CublasHandle cublas(stream);
  tk::GemmWorkspaceBuffers workspace;
  int failures = 0;
  int runs = 0;
  std::uint64_t seed = 1;
  for (const Shape& shape : shapes(small)) {
    if (!only_tile.empty() && tk::gemm_tile_shape(shape.tile).name != only_tile) continue;
    std::printf("\n%lldx%lldx%lld %s -> %s, tile %s: %s\n", static_cast<long long>(shape.m),
                static_cast<long long>(shape.n), static_cast<long long>(shape.k),
                tk::to_string(shape.input).data(), tk::to_string(shape.output).data(),
                tk::gemm_tile_shape(shape.tile).name.data(), shape.why);
    for (const Variant& variant : variants()) {
      if (variant.name.rfind(only, 0) != 0) continue;
      const Outcome outcome = check(shape, variant, limits, cublas, workspace, seed++, stream);
      ++runs;
      if (!outcome.passed) ++failures;
      std::printf("  %-4s %-32s %s\n", outcome.passed ? "ok" : "FAIL", variant.name.c_str(),
                  outcome.detail.c_str());
    }
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("\n%d of %d checks passed\n", runs - failures, runs);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even when piped
  bool small = false;
  std::string only;
  std::string only_tile;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--small") {
      small = true;
    } else if (argument == "--schedule" && i + 1 < argc) {
      only = argv[++i];
    } else if (argument == "--tile" && i + 1 < argc) {
      only_tile = argv[++i];
      if (!tk::parse_gemm_tile_variant(only_tile)) {
        std::fprintf(stderr, "unknown tile variant %s\n", only_tile.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: %s [--small] [--schedule NAME] [--tile VARIANT]\n", argv[0]);
      return 2;
    }
  }
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("no CUDA device (%s): skipped\n",
                status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    return kExitNoDevice;
  }
  try {
    return run_checks(small, only, only_tile);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
