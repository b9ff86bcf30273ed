#pragma once
// What every GEMM kernel receives (problem, tile grid, workspace) and the unit
// of work a tile scheduler hands a CTA: one tile, a range of its k-blocks, and
// how the partial result is fixed up.

#include <cstdint>

namespace tilesim::kernels::gemm {

struct GemmKernelParams {
  const void* a = nullptr;  // m x k, row-major
  const void* b = nullptr;  // k x n, row-major
  void* c = nullptr;        // m x n, row-major
  int m = 0;
  int n = 0;
  int k = 0;
  int tiles_m = 0;
  int tiles_n = 0;
  int iters_per_tile = 0;  // k-blocks per tile
  int swizzle = 1;         // tile-rows per rasterization band
  bool atomic_fixup = false;
  int* flags = nullptr;       // two ints per workspace slot, zero between launches
  float* partials = nullptr;  // fp32 tiles, one per slot (or splits x m x n: split_k_parallel)
};

// How a CTA finishes a work unit.
enum class FixupRole : std::uint8_t {
  whole,           // the unit is the whole tile: write C
  split_parallel,  // write fp32 partials for a separate reduction kernel
  peer,            // a later slice of a shared tile: add into the workspace, then signal
  finisher,        // the slice that writes C once the other `peers` have signalled
};

struct WorkUnit {
  int tile = 0;     // linear tile index before rasterization
  int k_begin = 0;  // first k-block
  int k_end = 0;    // one past the last k-block
  FixupRole role = FixupRole::whole;
  int slot = 0;   // workspace slot (fp32 tile + flags) of a shared tile
  int order = 0;  // peer: turn among the peers that add, 1-based (fixed k order)
  int peers = 0;  // finisher: how many peers add before it
};

// Output tile of linear index `tile`: bands of `swizzle` tile-rows, column by
// column inside a band (as workloads/gemm/tile_rasterizer.cpp with 1x1 clusters).
struct TileCoord {
  int row;
  int col;
};

__device__ __forceinline__ TileCoord rasterize_tile(int tile, int tiles_m, int tiles_n,
                                                    int swizzle) {
  const int band_size = swizzle * tiles_n;
  const int band = tile / band_size;
  const int first_row = band * swizzle;
  const int rows = min(swizzle, tiles_m - first_row);
  const int in_band = tile - band * band_size;
  return {first_row + in_band % rows, in_band / rows};
}

}  // namespace tilesim::kernels::gemm
