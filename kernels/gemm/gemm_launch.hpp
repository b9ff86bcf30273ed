#pragma once
// Host API of the reference GEMM: C[m x n] = A[m x k] * B[k x n], all row-major,
// 16-bit inputs (bf16 or fp16), fp32 accumulation, bf16/fp16/fp32 output.
// Every schedule runs the same tensor-core main loop (gemm_mainloop.cuh); they
// differ only in how CTAs map to tiles and k-ranges and how partial tiles are
// fixed up (tile_scheduler_*.cuh, gemm_fixup.cuh).
//
// Use: query_gemm_device_limits() once per device; give the config a workspace
// of at least plan_gemm()'s flag and partial bytes (GemmWorkspaceBuffers does
// this); then launch_gemm() as often as you like. The flags are zeroed once
// when allocated; every launch that completes leaves them zero again.

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilesim::kernels {

enum class ElementType { bf16, fp16, fp32 };

enum class GemmSchedule {
  data_parallel,     // one CTA per output tile, rasterized in bands of `swizzle` tile-rows
                     // (`persistent`: resident CTAs, each taking tiles b, b + grid, ...)
  split_k_serial,    // tiles x splits CTAs; slices of a tile add up in k order (semaphore)
  split_k_parallel,  // tiles x splits CTAs write fp32 partials; a second kernel reduces them
  stream_k,          // persistent grid; MAC iterations split evenly, crossing tile boundaries
};

enum class StreamKMode {
  pure,         // every tile is Stream-K work
  dp_one_tile,  // full data-parallel waves, Stream-K over the tiles of the last partial wave
  two_tile,     // one DP wave fewer; each Stream-K CTA gets 1-2 tiles of iterations
  // two_tile, except that tiles which fit in one wave (tiles <= persistent
  // grid) are left whole: the data-parallel kernel runs them, one CTA (cluster) each.
  wave_fit,
  // wave_fit with the tile picked per shape: the config's one_wave_tile where
  // its (cluster) tiles fit one wave of its persistent grid (so they run
  // whole, data-parallel), the config's tile otherwise.
  tile_fit,
};

enum class FixupMode {
  deterministic,  // turnstile: peers of a tile add into the workspace one by one, fixed k order
  atomic,         // peers add with fp32 atomics in arrival order; not bitwise reproducible
};

// The compiled tile variants. All but the last: cp.async pipeline + mma.sync
// (gemm_tile_config.cuh); m256n128k64_w8_s3 is the tilesim_ref profile
// (configs/kernels/tilesim_ref.yaml). m128n256k64_w12_s4_wgmma: TMA + wgmma
// (sm_90a, fastest on the H100, the default here; the tilesim_ref_wgmma
// profile, configs/kernels/tilesim_ref_wgmma.yaml); on rows that are not 16-byte
// aligned (k or n not a multiple of 8) it runs as m256n128k64_w8_s3.
// m128n128k32_w8_s4, m256n128k64_w8_s3 and the wgmma variants exist for every
// input/output type, the others for bf16 -> bf16.
enum class GemmTileVariant {
  m128n128k32_w8_s4,  // 8 warps of 64x32, 2 CTAs per SM
  m128n128k32_w4_s4,  // 4 warps of 64x64, 2 CTAs per SM
  m256n128k64_w8_s3,  // 8 warps of 64x64, 1 CTA per SM, fragments prefetched
  m256n128k64_w8_s4,
  m128n256k32_w8_s4,
  m128n256k64_w12_s4_wgmma,  // 2 wgmma warpgroups of 64x256 + 1 TMA warpgroup, 1 CTA per SM
  // The same main loop; C leaves through shared memory and TMA stores, which
  // overlap the next unit's main loop (the tilesim_ref_wgmma_tma_store profile).
  m128n256k64_w12_s4_wgmma_tma_store,
  // The tma_store kernel launched in 2-CTA clusters along m: the pair takes
  // 256x256 cluster tiles (each CTA 128x256) and multicasts B, loading half of
  // it each (the tilesim_ref_wgmma_multicast profile).
  m128n256k64_w12_s4_wgmma_tma_store_c2,
  // That kernel with 128x192 tiles (256x192 cluster tiles, wgmma m64n192k16):
  // whole waves where 256 columns leave a partial one (the same profile with
  // tile n: 192).
  m128n192k64_w12_s4_wgmma_tma_store_c2,
  // That kernel with 192x192 tiles (384x192 cluster tiles), three consumer
  // warpgroups and three stages, cuBLAS's tile at 3072x3072x4096 (profile
  // tilesim_ref_wgmma_multicast_m192).
  m192n192k64_w16_s3_wgmma_tma_store_c2,
  // 192x96 tiles (384x96 cluster tiles), three consumer warpgroups, four
  // stages, B and C in 64-byte swizzled boxes: cuBLAS's tile at 1536^3, where
  // the tiles fill one wave (profile tilesim_ref_wgmma_multicast_m192n96).
  m192n96k64_w16_s4_wgmma_tma_store_c2,
  // That tile in 2-CTA clusters along n (192x192 cluster tiles), cuBLAS's
  // pairing: A's rows multicast instead of B's boxes (profile
  // tilesim_ref_wgmma_multicast_m192n96_c2n).
  m192n96k64_w16_s4_wgmma_tma_store_c2n,
};
inline constexpr int kGemmTileVariantCount = 12;

struct GemmTileShape {
  std::string_view name;  // as the enumerator
  int m = 0;
  int n = 0;
  int k = 0;
  int stages = 0;
  int warps = 0;
  bool prefetch_fragments = false;
  bool wgmma = false;  // TMA + wgmma main loop (sm_90a), else cp.async + mma.sync
  // CTAs per cluster along m: schedules see cluster tiles of cluster_m * m rows
  // and count clusters where they count CTAs; each CTA computes m of the rows.
  int cluster_m = 1;
  int cluster_n = 1;  // the same along n (cluster tiles of cluster_n * n columns)
  int cluster_ctas() const { return cluster_m * cluster_n; }
};
GemmTileShape gemm_tile_shape(GemmTileVariant variant);
// Compiled for every input/output type (else bf16 -> bf16 only).
bool gemm_tile_variant_has_all_types(GemmTileVariant variant);
std::optional<GemmTileVariant> parse_gemm_tile_variant(std::string_view name);

// What a persistent (Stream-K) grid may assume: SMs and co-resident CTAs per SM.
struct GemmDeviceLimits {
  int sm_count = 0;
  bool wgmma = false;  // the device runs the sm_90a (wgmma) kernels
  // Per tile variant: the least over its Stream-K kernels (0: none compiled).
  std::array<int, kGemmTileVariantCount> ctas_per_sm{};
  // Per clustered tile variant: co-resident clusters (a GPC fits whole
  // clusters only); 0 for variants without clusters.
  std::array<int, kGemmTileVariantCount> resident_clusters{};
  // What a persistent grid may launch: CTAs, whole clusters for clustered variants.
  int resident_ctas(GemmTileVariant variant) const;
};
// Also raises every GEMM kernel's dynamic shared-memory limit on the current device.
GemmDeviceLimits query_gemm_device_limits();

// Scratch for the fixups, in two regions so that partials never land on flags.
struct GemmWorkspace {
  int* flags = nullptr;  // zero-filled once by its owner; left zero by every launch
  std::size_t flag_bytes = 0;
  float* partials = nullptr;  // fp32 partial tiles; no initial value needed
  std::size_t partial_bytes = 0;
};

struct GemmLaunchConfig {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  ElementType input_type = ElementType::bf16;  // of A and B
  ElementType output_type = ElementType::bf16;
  const void* a = nullptr;  // m x k, row-major
  const void* b = nullptr;  // k x n, row-major
  void* c = nullptr;        // m x n, row-major
  GemmSchedule schedule = GemmSchedule::data_parallel;
  // data_parallel on a persistent grid (SMs x occupancy CTAs): CTA b computes
  // tiles b, b + grid, ... whole, so the producer loads a CTA's next tile
  // while its consumers store the last. Runs the Stream-K kernel with no
  // Stream-K tiles: its data-parallel phase is that loop.
  bool persistent = false;
  int splits = 1;  // split-K slices (clamped to the k-blocks of a tile)
  StreamKMode stream_k_mode = StreamKMode::dp_one_tile;
  FixupMode fixup = FixupMode::deterministic;
  int swizzle = 8;  // tile-rows per rasterization band
  GemmTileVariant tile = GemmTileVariant::m128n256k64_w12_s4_wgmma;
  // stream_k tile_fit: the smaller tile that runs the shapes it fits in one wave.
  std::optional<GemmTileVariant> one_wave_tile;
  GemmDeviceLimits device;  // from query_gemm_device_limits(): every launch needs it
  GemmWorkspace workspace;
};

// How a launch divides the work; pure arithmetic on the config.
struct GemmLaunchPlan {
  std::int64_t tiles_m = 0;  // (cluster) tiles along m
  std::int64_t tiles_n = 0;
  std::int64_t tiles = 0;
  std::int64_t iters_per_tile = 0;  // k-blocks of tile.k per tile
  std::int64_t grid_ctas = 0;
  int splits = 1;              // split-K slices actually used
  std::int64_t sk_tiles = 0;   // stream_k: the first tiles, iterations shared out
  std::int64_t dp_tiles = 0;   // stream_k, persistent data_parallel: tiles done whole
  std::int64_t sk_ctas = 0;    // stream_k: CTAs (clusters) that take Stream-K iterations
  int kernels = 1;             // launches (split_k_parallel: 2)
  std::size_t flag_bytes = 0;  // workspace needed (0 for data-parallel)
  std::size_t partial_bytes = 0;
};

// The variant a config runs: its tile, unless that is the wgmma variant and
// the rows are not 16-byte aligned (then m256n128k64_w8_s3), or Stream-K's
// tile_fit finds that one_wave_tile's tiles fit one wave (then that).
GemmTileVariant resolved_gemm_tile(const GemmLaunchConfig& config);

// Why the config cannot run (nothing when it can).
std::optional<std::string> gemm_config_error(const GemmLaunchConfig& config);
GemmLaunchPlan plan_gemm(const GemmLaunchConfig& config);

// What the main kernel of a config uses on the current device (for records).
struct GemmKernelResources {
  int registers_per_thread = 0;
  int threads = 0;
  int shared_bytes = 0;  // dynamic + static
  int ctas_per_sm = 0;   // resident at once
};
GemmKernelResources gemm_kernel_resources(const GemmLaunchConfig& config);

// Enqueues the GEMM on `stream`. Returns cudaErrorInvalidValue when
// gemm_config_error() has something to say, else the launch status.
cudaError_t launch_gemm(const GemmLaunchConfig& config, cudaStream_t stream);

std::string_view to_string(ElementType type);
std::string_view to_string(GemmSchedule schedule);
std::string_view to_string(StreamKMode mode);
std::string_view to_string(FixupMode mode);
std::optional<ElementType> parse_element_type(std::string_view text);
std::optional<StreamKMode> parse_stream_k_mode(std::string_view text);
std::optional<FixupMode> parse_fixup_mode(std::string_view text);

}  // namespace tilesim::kernels
