// TileRasterizer: the CTA -> tile order is a bijection onto the tiles (plus
// padding CTAs of edge clusters), swizzled in bands, with clusters adjacent.

#include "workloads/gemm/tile_rasterizer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/hardware_spec.hpp"

namespace tilesim::workloads {
namespace {

struct Grid {
  std::int64_t rows;
  std::int64_t cols;
  int swizzle;
  hw::ClusterShape cluster;
};

std::string describe(const Grid& grid) {
  return std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " swizzle " +
         std::to_string(grid.swizzle) + " cluster " + std::to_string(grid.cluster.m) + "x" +
         std::to_string(grid.cluster.n);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Divisible and non-divisible shapes, swizzles larger than the grid, clusters
// along either dimension and both.
const std::vector<Grid> kGrids = {
    {1, 1, 1, {1, 1}},  {5, 7, 1, {1, 1}},   {16, 16, 8, {1, 1}}, {13, 10, 8, {1, 1}},
    {7, 5, 16, {1, 1}}, {13, 10, 4, {2, 1}}, {9, 7, 8, {2, 2}},   {10, 3, 3, {1, 2}},
    {12, 9, 8, {4, 1}}, {3, 3, 1, {2, 1}},   {31, 17, 5, {1, 1}}, {6, 11, 2, {2, 2}},
    {8, 8, 8, {2, 4}},  {1, 100, 8, {1, 1}}, {100, 1, 8, {1, 1}},
};

TEST(TileRasterizer, TileOfAndCtaOfAreInverseBijections) {
  for (const Grid& grid : kGrids) {
    SCOPED_TRACE(describe(grid));
    const TileRasterizer rasterizer(grid.rows, grid.cols, grid.swizzle, grid.cluster);
    // Whole clusters: ceil(rows / m) x ceil(cols / n) clusters of m x n CTAs.
    const std::int64_t expected_ctas = ceil_div(grid.rows, grid.cluster.m) *
                                       ceil_div(grid.cols, grid.cluster.n) * grid.cluster.size();
    ASSERT_EQ(rasterizer.cta_count(), expected_ctas);

    std::vector<int> times_seen(static_cast<std::size_t>(grid.rows * grid.cols), 0);
    std::int64_t padding = 0;
    for (std::int64_t cta = 0; cta < rasterizer.cta_count(); ++cta) {
      const std::optional<TileCoord> tile = rasterizer.tile_of(cta);
      if (!tile) {
        ++padding;
        continue;
      }
      ASSERT_GE(tile->row, 0);
      ASSERT_LT(tile->row, grid.rows);
      ASSERT_GE(tile->col, 0);
      ASSERT_LT(tile->col, grid.cols);
      ++times_seen[static_cast<std::size_t>(tile->row * grid.cols + tile->col)];
      EXPECT_EQ(rasterizer.cta_of(*tile), cta);
    }
    // Every tile exactly once; the rest of the grid is padding.
    for (int seen : times_seen) EXPECT_EQ(seen, 1);
    EXPECT_EQ(padding, expected_ctas - grid.rows * grid.cols);
    for (std::int64_t row = 0; row < grid.rows; ++row) {
      for (std::int64_t col = 0; col < grid.cols; ++col) {
        const std::int64_t cta = rasterizer.cta_of({row, col});
        ASSERT_GE(cta, 0);
        ASSERT_LT(cta, rasterizer.cta_count());
        const std::optional<TileCoord> back = rasterizer.tile_of(cta);
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->row, row);
        EXPECT_EQ(back->col, col);
      }
    }
  }
}

TEST(TileRasterizer, SwizzleOneIsRowMajor) {
  const TileRasterizer rasterizer(5, 7, 1, {1, 1});
  for (std::int64_t cta = 0; cta < 35; ++cta) {
    const std::optional<TileCoord> tile = rasterizer.tile_of(cta);
    ASSERT_TRUE(tile.has_value());
    EXPECT_EQ(tile->row, cta / 7);
    EXPECT_EQ(tile->col, cta % 7);
  }
}

TEST(TileRasterizer, SwizzleEightWalksDownAColumnOfEightRows) {
  const TileRasterizer rasterizer(16, 16, 8, {1, 1});
  // CTAs 0..7: rows 0..7 of column 0; CTA 8 starts column 1 at row 0.
  for (std::int64_t cta = 0; cta < 8; ++cta) {
    const std::optional<TileCoord> tile = rasterizer.tile_of(cta);
    ASSERT_TRUE(tile.has_value());
    EXPECT_EQ(tile->row, cta);
    EXPECT_EQ(tile->col, 0);
  }
  EXPECT_EQ(rasterizer.tile_of(8)->row, 0);
  EXPECT_EQ(rasterizer.tile_of(8)->col, 1);
  // The first band covers 8 rows x 16 columns = 128 CTAs; the second band
  // starts at row 8, column 0.
  EXPECT_EQ(rasterizer.tile_of(127)->row, 7);
  EXPECT_EQ(rasterizer.tile_of(127)->col, 15);
  EXPECT_EQ(rasterizer.tile_of(128)->row, 8);
  EXPECT_EQ(rasterizer.tile_of(128)->col, 0);
}

TEST(TileRasterizer, ALastPartialBandWalksItsOwnHeight) {
  // 13 rows, swizzle 8: the second band has rows 8..12 (5 rows), so it walks
  // down 5 rows per column. Band 0 holds 8 x 10 = 80 CTAs.
  const TileRasterizer rasterizer(13, 10, 8, {1, 1});
  EXPECT_EQ(rasterizer.tile_of(80)->row, 8);
  EXPECT_EQ(rasterizer.tile_of(80)->col, 0);
  EXPECT_EQ(rasterizer.tile_of(84)->row, 12);
  EXPECT_EQ(rasterizer.tile_of(84)->col, 0);
  EXPECT_EQ(rasterizer.tile_of(85)->row, 8);
  EXPECT_EQ(rasterizer.tile_of(85)->col, 1);
  EXPECT_EQ(rasterizer.cta_of({12, 9}), 129);  // the last tile is the last CTA
}

TEST(TileRasterizer, CtasOfAClusterAreConsecutiveAndAdjacent) {
  for (const Grid& grid : kGrids) {
    SCOPED_TRACE(describe(grid));
    const TileRasterizer rasterizer(grid.rows, grid.cols, grid.swizzle, grid.cluster);
    const int size = grid.cluster.size();
    for (std::int64_t first = 0; first < rasterizer.cta_count(); first += size) {
      // The cluster's tiles all lie in one aligned m x n block.
      std::optional<TileCoord> anchor;
      for (std::int64_t cta = first; cta < first + size; ++cta) {
        const std::optional<TileCoord> tile = rasterizer.tile_of(cta);
        if (!tile) continue;
        if (!anchor) anchor = tile;
        EXPECT_EQ(tile->row / grid.cluster.m, anchor->row / grid.cluster.m) << "cta " << cta;
        EXPECT_EQ(tile->col / grid.cluster.n, anchor->col / grid.cluster.n) << "cta " << cta;
      }
      EXPECT_TRUE(anchor.has_value()) << "cluster of CTA " << first << " is all padding";
    }
  }
}

TEST(TileRasterizer, ClusterLayoutWithinABlock) {
  // 2 x 2 clusters: CTAs 0..3 cover rows 0..1 x cols 0..1, M fastest.
  const TileRasterizer rasterizer(4, 4, 1, {2, 2});
  const std::vector<TileCoord> expected = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::optional<TileCoord> tile = rasterizer.tile_of(static_cast<std::int64_t>(i));
    ASSERT_TRUE(tile.has_value());
    EXPECT_EQ(tile->row, expected[i].row);
    EXPECT_EQ(tile->col, expected[i].col);
  }
  // Swizzle 1 with clusters of 2 rows: the next cluster is to the right.
  EXPECT_EQ(rasterizer.tile_of(4)->row, 0);
  EXPECT_EQ(rasterizer.tile_of(4)->col, 2);
}

TEST(TileRasterizer, SwizzleCountsTileRowsWhenClustersSpanRows) {
  // Clusters of 2 rows with swizzle 8: a band is 4 cluster-rows = 8 tile rows,
  // so CTAs 0..7 still walk down tile rows 0..7 of column 0.
  const TileRasterizer rasterizer(16, 4, 8, {2, 1});
  for (std::int64_t cta = 0; cta < 8; ++cta) {
    const std::optional<TileCoord> tile = rasterizer.tile_of(cta);
    ASSERT_TRUE(tile.has_value());
    EXPECT_EQ(tile->row, cta);
    EXPECT_EQ(tile->col, 0);
  }
  EXPECT_EQ(rasterizer.tile_of(8)->row, 0);
  EXPECT_EQ(rasterizer.tile_of(8)->col, 1);
}

TEST(TileRasterizer, PaddingCtasOfEdgeClustersHaveNoTile) {
  // 3 x 3 tiles in 2 x 1 clusters: 2 cluster-rows x 3 columns x 2 = 12 CTAs,
  // the 3 that would compute row 3 are padding.
  const TileRasterizer rasterizer(3, 3, 1, {2, 1});
  ASSERT_EQ(rasterizer.cta_count(), 12);
  std::vector<std::int64_t> padding;
  for (std::int64_t cta = 0; cta < 12; ++cta) {
    if (!rasterizer.tile_of(cta)) padding.push_back(cta);
  }
  // Row-major over clusters: clusters 3, 4, 5 are the second cluster-row;
  // their second CTA (row 3) is padding: CTAs 7, 9, 11.
  EXPECT_EQ(padding, (std::vector<std::int64_t>{7, 9, 11}));
}

}  // namespace
}  // namespace tilesim::workloads
