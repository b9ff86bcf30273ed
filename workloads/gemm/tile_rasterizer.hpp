#pragma once
// The order in which a GEMM kernel's CTAs visit output tiles. Tiles are grouped
// into clusters (cluster.m x cluster.n tiles, consecutive CTA indices); clusters
// are visited in bands of `swizzle` tile-rows, column by column inside a band,
// so that CTAs running at the same time share A row-panels and B column-panels
// in L2. swizzle = 1 is plain row-major order.

#include <cstdint>
#include <optional>

#include "hwmodels/hardware_spec.hpp"
#include "workloads/gemm/tile_coord.hpp"

namespace tilesim::workloads {

class TileRasterizer {
 public:
  TileRasterizer(std::int64_t tile_rows, std::int64_t tile_cols, int swizzle,
                 hw::ClusterShape cluster);

  // CTAs in the grid: whole clusters, so a few may fall outside the tiles.
  std::int64_t cta_count() const;
  // The tile of CTA `cta`, or nothing for a padding CTA of an edge cluster.
  std::optional<TileCoord> tile_of(std::int64_t cta) const;
  // The CTA that computes `tile` (inverse of tile_of).
  std::int64_t cta_of(TileCoord tile) const;

 private:
  std::int64_t tile_rows_;
  std::int64_t tile_cols_;
  std::int64_t cluster_rows_;  // grid of clusters
  std::int64_t cluster_cols_;
  std::int64_t band_rows_;  // cluster-rows per rasterization band
  hw::ClusterShape cluster_;
};

}  // namespace tilesim::workloads
