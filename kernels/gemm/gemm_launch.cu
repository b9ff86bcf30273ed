// Host side of the reference GEMM: checking a config, planning the grid and
// workspace of each schedule, and launching the kernels (gemm_launch.hpp).

#include <algorithm>
#include <climits>
#include <string>

#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/gemm_kernel_params.cuh"
#include "kernels/gemm/gemm_kernel_registry.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/gemm/gemm_tensor_maps.hpp"
#include "kernels/gemm/tile_scheduler_data_parallel.cuh"
#include "kernels/gemm/tile_scheduler_split_k.cuh"
#include "kernels/gemm/tile_scheduler_stream_k.cuh"

namespace tilesim::kernels {

using gemm::SchedulerKind;

namespace {

constexpr std::size_t kWorkspaceAlignment = 256;  // bytes

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::size_t align_up(std::size_t bytes) {
  return (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
}

// Rows of A and B start on 16-byte boundaries: the cp.async kernels apply.
bool vector_loads(const GemmLaunchConfig& config) {
  return config.k % 8 == 0 && config.n % 8 == 0;
}

// What the schedules count as the persistent grid: resident CTAs, or
// resident clusters for a clustered variant (plan.grid_ctas counts CTAs).
std::int64_t resident_units(const GemmLaunchConfig& config) {
  const int cluster = gemm_tile_shape(config.tile).cluster_ctas();
  return std::max(1, config.device.resident_ctas(config.tile) / cluster);
}

// (Cluster) tiles of the config's resolved tile.
std::int64_t tile_count(const GemmLaunchConfig& config) {
  const GemmTileShape tile = gemm_tile_shape(config.tile);
  return ceil_div(config.m, tile.m * tile.cluster_m) * ceil_div(config.n, tile.n * tile.cluster_n);
}

// The config's (cluster) tiles fit one wave of its persistent grid.
bool fits_one_wave(const GemmLaunchConfig& config) {
  return config.device.resident_ctas(config.tile) >= 1 &&
         tile_count(config) <= resident_units(config);
}

// Stream-K's tile_fit: one_wave_tile where its tiles fit one wave (TMA rows).
bool one_wave_tile_fits(const GemmLaunchConfig& requested) {
  if (requested.schedule != GemmSchedule::stream_k ||
      requested.stream_k_mode != StreamKMode::tile_fit || !requested.one_wave_tile ||
      !vector_loads(requested)) {
    return false;
  }
  GemmLaunchConfig config = requested;
  config.tile = *requested.one_wave_tile;
  return fits_one_wave(config);
}

// Stream-K's wave_fit (and tile_fit) leaves tiles that fit one wave of the
// persistent grid whole: there is nothing for Stream-K to balance, only fixup to pay.
bool wave_fit_data_parallel(const GemmLaunchConfig& requested) {
  if (requested.schedule != GemmSchedule::stream_k ||
      (requested.stream_k_mode != StreamKMode::wave_fit &&
       requested.stream_k_mode != StreamKMode::tile_fit)) {
    return false;
  }
  GemmLaunchConfig config = requested;
  config.tile = resolved_gemm_tile(requested);
  return tile_count(config) <= resident_units(config);
}

// Persistent data-parallel runs the Stream-K kernel with no Stream-K tiles;
// Stream-K's wave_fit on tiles that fit one wave runs the data-parallel kernel.
SchedulerKind scheduler_of(const GemmLaunchConfig& config) {
  switch (config.schedule) {
    case GemmSchedule::data_parallel:
      return config.persistent ? SchedulerKind::stream_k : SchedulerKind::data_parallel;
    case GemmSchedule::split_k_serial:
    case GemmSchedule::split_k_parallel:
      return SchedulerKind::split_k;
    case GemmSchedule::stream_k:
      return wave_fit_data_parallel(config) ? SchedulerKind::data_parallel
                                            : SchedulerKind::stream_k;
  }
  return SchedulerKind::data_parallel;
}

// Fewest k-blocks a Stream-K CTA takes. The turnstile serializes a shared tile's
// peers (~2 us each: a 64 KiB workspace read and write plus a flag hand-off),
// so it keeps peers per tile to about 8; atomic peers add concurrently.
std::int64_t min_iters_per_stream_k_cta(FixupMode fixup, std::int64_t iters_per_tile) {
  if (fixup == FixupMode::atomic) return 4;
  return std::max<std::int64_t>(8, ceil_div(iters_per_tile, 8));
}

// Every tile whole, on at most the resident CTAs; no workspace.
void plan_persistent_data_parallel(const GemmLaunchConfig& config, GemmLaunchPlan& plan) {
  const std::int64_t grid = resident_units(config);
  plan.dp_tiles = plan.tiles;
  plan.grid_ctas = std::min(grid, plan.tiles);
}

void plan_stream_k(const GemmLaunchConfig& config, GemmLaunchPlan& plan) {
  const std::int64_t grid = resident_units(config);
  const std::int64_t full_waves = plan.tiles / grid;
  const std::int64_t partial_wave = plan.tiles % grid;
  switch (config.stream_k_mode) {
    case StreamKMode::pure:
      plan.sk_tiles = plan.tiles;
      break;
    case StreamKMode::dp_one_tile:
      plan.sk_tiles = partial_wave;
      break;
    case StreamKMode::two_tile:  // fold one full wave in: 1-2 tiles per Stream-K CTA
    case StreamKMode::wave_fit:  // (tiles that fit one wave never get here)
    case StreamKMode::tile_fit:
      plan.sk_tiles =
          partial_wave == 0 ? 0 : partial_wave + std::min<std::int64_t>(full_waves, 1) * grid;
      break;
  }
  plan.dp_tiles = plan.tiles - plan.sk_tiles;
  const std::int64_t sk_iters = plan.sk_tiles * plan.iters_per_tile;
  plan.sk_ctas = 0;
  if (sk_iters > 0) {
    const std::int64_t min_iters = min_iters_per_stream_k_cta(config.fixup, plan.iters_per_tile);
    plan.sk_ctas = std::clamp<std::int64_t>(sk_iters / min_iters, 1, grid);
  }
  plan.grid_ctas = std::max(plan.sk_ctas, std::min(grid, plan.dp_tiles));
}

// A launch of `kernel` on `grid_ctas` CTAs in clusters of kernel.cluster_ctas;
// `cluster` holds the attribute the config points to.
cudaLaunchConfig_t cluster_launch(const gemm::GemmKernelHandle& kernel, std::int64_t grid_ctas,
                                  cudaLaunchAttribute& cluster) {
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(kernel.cluster_ctas);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t launch{};
  launch.gridDim = dim3(static_cast<unsigned>(grid_ctas));
  launch.blockDim = dim3(static_cast<unsigned>(kernel.threads));
  launch.dynamicSmemBytes = static_cast<std::size_t>(kernel.shared_bytes);
  launch.attrs = &cluster;
  launch.numAttrs = 1;
  return launch;
}

// The main kernel, in clusters of kernel.cluster_ctas CTAs where it has them.
cudaError_t launch_main_kernel(const gemm::GemmKernelHandle& kernel, std::int64_t grid_ctas,
                               void** args, cudaStream_t stream) {
  if (kernel.cluster_ctas == 1) {
    return cudaLaunchKernel(kernel.function, dim3(static_cast<unsigned>(grid_ctas)),
                            dim3(static_cast<unsigned>(kernel.threads)), args,
                            static_cast<std::size_t>(kernel.shared_bytes), stream);
  }
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t launch = cluster_launch(kernel, grid_ctas, cluster);
  launch.stream = stream;
  return cudaLaunchKernelExC(&launch, kernel.function, args);
}

}  // namespace

GemmTileShape gemm_tile_shape(GemmTileVariant variant) {
  switch (variant) {
    case GemmTileVariant::m128n128k32_w8_s4:
      return {"m128n128k32_w8_s4", 128, 128, 32, 4, 8, false};
    case GemmTileVariant::m128n128k32_w4_s4:
      return {"m128n128k32_w4_s4", 128, 128, 32, 4, 4, false};
    case GemmTileVariant::m256n128k64_w8_s3:
      return {"m256n128k64_w8_s3", 256, 128, 64, 3, 8, true};
    case GemmTileVariant::m256n128k64_w8_s4:
      return {"m256n128k64_w8_s4", 256, 128, 64, 4, 8, true};
    case GemmTileVariant::m128n256k32_w8_s4:
      return {"m128n256k32_w8_s4", 128, 256, 32, 4, 8, true};
    case GemmTileVariant::m128n256k64_w12_s4_wgmma:
      return {"m128n256k64_w12_s4_wgmma", 128, 256, 64, 4, 12, false, true};
    case GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store:
      return {"m128n256k64_w12_s4_wgmma_tma_store", 128, 256, 64, 4, 12, false, true};
    case GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2:
      return {"m128n256k64_w12_s4_wgmma_tma_store_c2", 128, 256, 64, 4, 12, false, true, 2};
    case GemmTileVariant::m128n192k64_w12_s4_wgmma_tma_store_c2:
      return {"m128n192k64_w12_s4_wgmma_tma_store_c2", 128, 192, 64, 4, 12, false, true, 2};
    case GemmTileVariant::m192n192k64_w16_s3_wgmma_tma_store_c2:
      return {"m192n192k64_w16_s3_wgmma_tma_store_c2", 192, 192, 64, 3, 16, false, true, 2};
    case GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2:
      return {"m192n96k64_w16_s4_wgmma_tma_store_c2", 192, 96, 64, 4, 16, false, true, 2};
    case GemmTileVariant::m192n96k64_w16_s4_wgmma_tma_store_c2n:
      return {"m192n96k64_w16_s4_wgmma_tma_store_c2n", 192, 96, 64, 4, 16, false, true, 1, 2};
  }
  return {};
}

bool gemm_tile_variant_has_all_types(GemmTileVariant variant) {
  return variant == GemmTileVariant::m128n128k32_w8_s4 ||
         variant == GemmTileVariant::m256n128k64_w8_s3 || gemm_tile_shape(variant).wgmma;
}

GemmTileVariant resolved_gemm_tile(const GemmLaunchConfig& config) {
  if (gemm_tile_shape(config.tile).wgmma && !vector_loads(config)) {
    return GemmTileVariant::m256n128k64_w8_s3;
  }
  if (one_wave_tile_fits(config)) return *config.one_wave_tile;
  return config.tile;
}

std::optional<GemmTileVariant> parse_gemm_tile_variant(std::string_view name) {
  for (int v = 0; v < kGemmTileVariantCount; ++v) {
    const auto variant = static_cast<GemmTileVariant>(v);
    if (gemm_tile_shape(variant).name == name) return variant;
  }
  return std::nullopt;
}

namespace gemm {

GemmKernelHandle find_gemm_kernel(SchedulerKind scheduler, GemmTileVariant variant, ElementType in,
                                  ElementType out, bool vector_loads) {
  switch (scheduler) {
    case SchedulerKind::data_parallel:
      return find_data_parallel_kernel(variant, in, out, vector_loads);
    case SchedulerKind::split_k:
      return find_split_k_kernel(variant, in, out, vector_loads);
    case SchedulerKind::stream_k:
      return find_stream_k_kernel(variant, in, out, vector_loads);
  }
  return {};
}

}  // namespace gemm

int GemmDeviceLimits::resident_ctas(GemmTileVariant variant) const {
  const auto v = static_cast<std::size_t>(variant);
  const int cluster = gemm_tile_shape(variant).cluster_ctas();
  if (cluster > 1) return resident_clusters[v] * cluster;
  return sm_count * ctas_per_sm[v];
}

namespace {

// Clusters of `kernel` that fit the device at once (cudaOccupancyMaxActiveClusters).
int max_active_clusters(const gemm::GemmKernelHandle& kernel) {
  cudaLaunchAttribute cluster{};
  const cudaLaunchConfig_t launch = cluster_launch(kernel, kernel.cluster_ctas, cluster);
  int clusters = 0;
  TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel.function, &launch));
  return clusters;
}

}  // namespace

GemmDeviceLimits query_gemm_device_limits() {
  int device = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&device));
  GemmDeviceLimits limits;
  TILESIM_CUDA_CHECK(
      cudaDeviceGetAttribute(&limits.sm_count, cudaDevAttrMultiProcessorCount, device));
  int major = 0;
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  limits.wgmma = major == 9;  // sm_90a code runs on compute capability 9.0 only
  limits.ctas_per_sm.fill(INT_MAX);
  gemm::for_each_gemm_kernel(
      [&](SchedulerKind scheduler, GemmTileVariant variant, const gemm::GemmKernelHandle& kernel) {
        if (kernel.tensor_maps && !limits.wgmma) return;
        TILESIM_CUDA_CHECK(cudaFuncSetAttribute(
            kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize, kernel.shared_bytes));
        if (scheduler != SchedulerKind::stream_k) return;
        if (kernel.cluster_ctas > 1) {
          int& least = limits.resident_clusters[static_cast<std::size_t>(variant)];
          const int clusters = max_active_clusters(kernel);
          least = least == 0 ? clusters : std::min(least, clusters);
        }
        int resident = 0;
        TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &resident, kernel.function, kernel.threads, kernel.shared_bytes));
        int& least = limits.ctas_per_sm[static_cast<std::size_t>(variant)];
        least = std::min(least, resident);
      });
  for (int& resident : limits.ctas_per_sm) {
    if (resident == INT_MAX) resident = 0;  // no Stream-K kernel of this variant
  }
  if (limits.ctas_per_sm[0] < 1) {
    throw CudaError("query_gemm_device_limits: the Stream-K GEMM kernels cannot be resident");
  }
  return limits;
}

std::optional<std::string> gemm_config_error(const GemmLaunchConfig& requested) {
  GemmLaunchConfig config = requested;
  config.tile = resolved_gemm_tile(requested);
  if (config.m < 1 || config.n < 1 || config.k < 1) return "m, n and k must be at least 1";
  if (config.m > INT_MAX || config.n > INT_MAX || config.k > INT_MAX) {
    return "m, n and k must fit a 32-bit int";
  }
  if (config.input_type == ElementType::fp32) return "inputs must be bf16 or fp16";
  if (config.a == nullptr || config.b == nullptr || config.c == nullptr) {
    return "A, B and C must be device pointers";
  }
  if (config.splits < 1) return "splits must be at least 1";
  if (config.swizzle < 1) return "swizzle must be at least 1";
  const gemm::GemmKernelHandle kernel =
      gemm::find_gemm_kernel(scheduler_of(config), config.tile, config.input_type,
                             config.output_type, vector_loads(config));
  if (config.persistent && config.schedule != GemmSchedule::data_parallel) {
    return "persistent applies to the data_parallel schedule only";
  }
  if (kernel.function == nullptr) {
    return std::string("no kernel variant for ") + std::string(to_string(config.input_type)) +
           " -> " + std::string(to_string(config.output_type)) + " with tile " +
           std::string(gemm_tile_shape(config.tile).name);
  }
  if (kernel.tensor_maps && !config.device.wgmma) {
    return "tile " + std::string(gemm_tile_shape(config.tile).name) +
           " needs an sm_90 device and its limits (query_gemm_device_limits)";
  }
  if (scheduler_of(config) == SchedulerKind::stream_k &&
      config.device.resident_ctas(config.tile) < 1) {
    return std::string(config.persistent ? "persistent data_parallel" : "stream_k") +
           " needs the device limits (query_gemm_device_limits)";
  }
  const GemmLaunchPlan plan = plan_gemm(config);
  if (plan.tiles > INT_MAX || plan.grid_ctas > INT_MAX) return "too many tiles";
  const GemmWorkspace& workspace = config.workspace;
  if ((plan.flag_bytes > 0 &&
       (workspace.flags == nullptr || workspace.flag_bytes < plan.flag_bytes)) ||
      (plan.partial_bytes > 0 &&
       (workspace.partials == nullptr || workspace.partial_bytes < plan.partial_bytes))) {
    return "workspace too small: " + std::to_string(plan.flag_bytes) + " flag bytes and " +
           std::to_string(plan.partial_bytes) + " partial bytes needed";
  }
  return std::nullopt;
}

GemmLaunchPlan plan_gemm(const GemmLaunchConfig& requested) {
  GemmLaunchConfig config = requested;
  config.tile = resolved_gemm_tile(requested);
  const GemmTileShape tile = gemm_tile_shape(config.tile);
  GemmLaunchPlan plan;
  plan.tiles_m = ceil_div(config.m, tile.m * tile.cluster_m);
  plan.tiles_n = ceil_div(config.n, tile.n * tile.cluster_n);
  plan.tiles = plan.tiles_m * plan.tiles_n;
  plan.iters_per_tile = ceil_div(config.k, tile.k);
  // Per shared tile: two int flags and an fp32 tile (gemm_fixup.cuh), one
  // each per CTA of a cluster tile; then `counters` more ints (the wgmma
  // Stream-K kernel's DP tile counter).
  auto reserve_shared_tiles = [&](std::int64_t tiles, std::size_t counters = 0) {
    const auto count = static_cast<std::size_t>(tiles * tile.cluster_ctas());
    plan.flag_bytes = align_up(sizeof(int) * (2 * count + counters));
    plan.partial_bytes = sizeof(float) * static_cast<std::size_t>(tile.m * tile.n) * count;
  };
  switch (config.schedule) {
    case GemmSchedule::data_parallel:
      if (config.persistent) {
        plan_persistent_data_parallel(config, plan);
      } else {
        plan.grid_ctas = plan.tiles;
      }
      break;
    case GemmSchedule::split_k_serial:
    case GemmSchedule::split_k_parallel:
      plan.splits = static_cast<int>(std::clamp<std::int64_t>(
          config.splits, 1, std::max<std::int64_t>(1, plan.iters_per_tile)));
      plan.grid_ctas = plan.tiles * plan.splits;
      if (plan.splits > 1 && config.schedule == GemmSchedule::split_k_serial) {
        reserve_shared_tiles(plan.tiles);
      } else if (plan.splits > 1) {
        plan.kernels = 2;
        plan.partial_bytes = sizeof(float) * static_cast<std::size_t>(plan.splits) *
                             static_cast<std::size_t>(config.m * config.n);
      }
      break;
    case GemmSchedule::stream_k:
      if (wave_fit_data_parallel(config)) {
        plan.dp_tiles = plan.tiles;
        plan.grid_ctas = plan.tiles;
        break;
      }
      plan_stream_k(config, plan);
      reserve_shared_tiles(plan.sk_tiles, tile.wgmma ? 1 : 0);
      break;
  }
  plan.grid_ctas *= tile.cluster_ctas();
  return plan;
}

GemmKernelResources gemm_kernel_resources(const GemmLaunchConfig& config) {
  const gemm::GemmKernelHandle kernel =
      gemm::find_gemm_kernel(scheduler_of(config), resolved_gemm_tile(config), config.input_type,
                             config.output_type, vector_loads(config));
  GemmKernelResources resources;
  if (kernel.function == nullptr) return resources;
  cudaFuncAttributes attributes{};
  TILESIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel.function));
  resources.registers_per_thread = attributes.numRegs;
  resources.threads = kernel.threads;
  resources.shared_bytes = kernel.shared_bytes + static_cast<int>(attributes.sharedSizeBytes);
  TILESIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &resources.ctas_per_sm, kernel.function, kernel.threads, kernel.shared_bytes));
  return resources;
}

cudaError_t launch_gemm(const GemmLaunchConfig& config, cudaStream_t stream) {
  if (gemm_config_error(config)) return cudaErrorInvalidValue;
  const GemmLaunchPlan plan = plan_gemm(config);
  const SchedulerKind kind = scheduler_of(config);
  const GemmTileVariant tile = resolved_gemm_tile(config);
  const gemm::GemmKernelHandle kernel = gemm::find_gemm_kernel(
      kind, tile, config.input_type, config.output_type, vector_loads(config));

  gemm::GemmKernelParams params;
  params.a = config.a;
  params.b = config.b;
  params.c = config.c;
  params.m = static_cast<int>(config.m);
  params.n = static_cast<int>(config.n);
  params.k = static_cast<int>(config.k);
  params.tiles_m = static_cast<int>(plan.tiles_m);
  params.tiles_n = static_cast<int>(plan.tiles_n);
  params.iters_per_tile = static_cast<int>(plan.iters_per_tile);
  params.swizzle = config.swizzle;
  params.atomic_fixup =
      config.schedule == GemmSchedule::stream_k && config.fixup == FixupMode::atomic;
  params.flags = config.workspace.flags;
  params.partials = config.workspace.partials;

  gemm::DataParallelScheduler::Params data_parallel;
  gemm::SplitKScheduler::Params split_k;
  split_k.splits = plan.splits;
  split_k.parallel = config.schedule == GemmSchedule::split_k_parallel;
  gemm::StreamKScheduler::Params stream_k;
  stream_k.sk_tiles = static_cast<int>(plan.sk_tiles);
  stream_k.dp_tiles = static_cast<int>(plan.dp_tiles);
  stream_k.sk_ctas = static_cast<int>(plan.sk_ctas);
  stream_k.sk_iters = plan.sk_tiles * plan.iters_per_tile;
  // Persistent data-parallel keeps the fixed list b, b + grid, ... (no counter),
  // and so do clusters (their CTAs must take the same tiles).
  if (kernel.tensor_maps && config.schedule == GemmSchedule::stream_k) {
    if (kernel.cluster_ctas == 1) {
      stream_k.dp_tile_counter = config.workspace.flags + 2 * plan.sk_tiles;
    }
    stream_k.head_first = true;  // the wgmma loop is fast enough for L2 reuse to decide
  }
  void* schedule_params = nullptr;
  switch (kind) {
    case SchedulerKind::data_parallel:
      schedule_params = &data_parallel;
      break;
    case SchedulerKind::split_k:
      schedule_params = &split_k;
      break;
    case SchedulerKind::stream_k:
      schedule_params = &stream_k;
      break;
  }
  gemm::GemmStoreTensorMaps tensor_maps{};
  if (kernel.tensor_maps) {
    const GemmTileShape shape = gemm_tile_shape(tile);
    const int a_box_rows = shape.m / shape.cluster_n;  // a CTA's share of A's rows
    const cudaError_t encoded =
        kernel.stores_by_tma ? gemm::encode_gemm_store_tensor_maps(tensor_maps, config, a_box_rows,
                                                                   shape.k, kernel.swizzle_bytes_b)
                             : gemm::encode_gemm_tensor_maps(tensor_maps, config, a_box_rows,
                                                             shape.k, kernel.swizzle_bytes_b);
    if (encoded != cudaSuccess) return encoded;
  }
  // The register-store kernels read only the GemmTensorMaps part (A and B).
  void* maps_argument = kernel.stores_by_tma
                            ? static_cast<void*>(&tensor_maps)
                            : static_cast<void*>(static_cast<gemm::GemmTensorMaps*>(&tensor_maps));
  void* args[] = {&params, schedule_params, maps_argument};
  cudaError_t status = launch_main_kernel(kernel, plan.grid_ctas, args, stream);
  if (status != cudaSuccess || plan.kernels == 1) return status;
  return gemm::launch_split_k_reduce(params.partials, config.c, config.output_type,
                                     config.m * config.n, plan.splits, stream);
}

std::string_view to_string(ElementType type) {
  switch (type) {
    case ElementType::bf16:
      return "bf16";
    case ElementType::fp16:
      return "fp16";
    case ElementType::fp32:
      return "fp32";
  }
  return "?";
}

std::string_view to_string(GemmSchedule schedule) {
  switch (schedule) {
    case GemmSchedule::data_parallel:
      return "data_parallel";
    case GemmSchedule::split_k_serial:
      return "split_k_serial";
    case GemmSchedule::split_k_parallel:
      return "split_k_parallel";
    case GemmSchedule::stream_k:
      return "stream_k";
  }
  return "?";
}

std::string_view to_string(StreamKMode mode) {
  switch (mode) {
    case StreamKMode::pure:
      return "pure";
    case StreamKMode::dp_one_tile:
      return "dp_one_tile";
    case StreamKMode::two_tile:
      return "two_tile";
    case StreamKMode::wave_fit:
      return "wave_fit";
    case StreamKMode::tile_fit:
      return "tile_fit";
  }
  return "?";
}

std::string_view to_string(FixupMode mode) {
  return mode == FixupMode::deterministic ? "deterministic" : "atomic";
}

std::optional<ElementType> parse_element_type(std::string_view text) {
  for (const ElementType type : {ElementType::bf16, ElementType::fp16, ElementType::fp32}) {
    if (text == to_string(type)) return type;
  }
  return std::nullopt;
}

std::optional<StreamKMode> parse_stream_k_mode(std::string_view text) {
  for (const StreamKMode mode : {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile,
                                 StreamKMode::wave_fit, StreamKMode::tile_fit}) {
    if (text == to_string(mode)) return mode;
  }
  return std::nullopt;
}

std::optional<FixupMode> parse_fixup_mode(std::string_view text) {
  for (const FixupMode mode : {FixupMode::deterministic, FixupMode::atomic}) {
    if (text == to_string(mode)) return mode;
  }
  return std::nullopt;
}

}  // namespace tilesim::kernels
