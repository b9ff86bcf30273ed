#include "workloads/gemm/tile_rasterizer.hpp"

#include <algorithm>

namespace tilesim::workloads {
namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}
}  // namespace

TileRasterizer::TileRasterizer(std::int64_t tile_rows, std::int64_t tile_cols, int swizzle,
                               hw::ClusterShape cluster)
    : tile_rows_(tile_rows),
      tile_cols_(tile_cols),
      cluster_rows_(ceil_div(tile_rows, cluster.m)),
      cluster_cols_(ceil_div(tile_cols, cluster.n)),
      band_rows_(std::max<std::int64_t>(1, swizzle / cluster.m)),
      cluster_(cluster) {}

std::int64_t TileRasterizer::cta_count() const {
  return cluster_rows_ * cluster_cols_ * cluster_.size();
}

std::optional<TileCoord> TileRasterizer::tile_of(std::int64_t cta) const {
  const std::int64_t cluster_index = cta / cluster_.size();
  const std::int64_t within = cta % cluster_.size();
  const std::int64_t band_size = band_rows_ * cluster_cols_;
  const std::int64_t band = cluster_index / band_size;
  const std::int64_t band_first_row = band * band_rows_;
  const std::int64_t rows_in_band = std::min(band_rows_, cluster_rows_ - band_first_row);
  const std::int64_t in_band = cluster_index - band * band_size;
  const std::int64_t cluster_row = band_first_row + in_band % rows_in_band;
  const std::int64_t cluster_col = in_band / rows_in_band;
  const TileCoord tile{cluster_row * cluster_.m + within % cluster_.m,
                       cluster_col * cluster_.n + within / cluster_.m};
  if (tile.row >= tile_rows_ || tile.col >= tile_cols_) return std::nullopt;
  return tile;
}

std::int64_t TileRasterizer::cta_of(TileCoord tile) const {
  const std::int64_t cluster_row = tile.row / cluster_.m;
  const std::int64_t cluster_col = tile.col / cluster_.n;
  const std::int64_t within = tile.row % cluster_.m + (tile.col % cluster_.n) * cluster_.m;
  const std::int64_t band = cluster_row / band_rows_;
  const std::int64_t band_first_row = band * band_rows_;
  const std::int64_t rows_in_band = std::min(band_rows_, cluster_rows_ - band_first_row);
  const std::int64_t in_band = cluster_col * rows_in_band + (cluster_row - band_first_row);
  const std::int64_t cluster_index = band * band_rows_ * cluster_cols_ + in_band;
  return cluster_index * cluster_.size() + within;
}

}  // namespace tilesim::workloads
