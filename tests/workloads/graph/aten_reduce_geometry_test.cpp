// PyTorch's reduce_kernel layouts, as ATen's setReduceConfig computes them for
// an fp32 mean over the last dimension (H100: 132 SMs, 2048 threads each).
#include "workloads/graph/aten_reduce_geometry.hpp"

#include <gtest/gtest.h>

namespace tilesim::workloads {
namespace {

constexpr int kSms = 132;
constexpr int kSmThreads = 2048;
constexpr double kFp32Bytes = 4;

RowReductionGeometry mean_of(std::int64_t rows, std::int64_t cols) {
  return aten_reduce_geometry(rows, cols, kFp32Bytes, kSms, kSmThreads);
}

// Round trips a thread waits: the CTA's bytes over what it has in flight.
double round_trips(const RowReductionGeometry& geometry, std::int64_t cols) {
  const double cta_bytes = static_cast<double>(geometry.rows_per_cta * cols) /
                           static_cast<double>(geometry.ctas_per_row) * kFp32Bytes;
  return cta_bytes / geometry.bytes_in_flight;
}

TEST(AtenReduceGeometry, OneRowTakesOneCtaOf512LanesAndTwoTrips) {
  const RowReductionGeometry geometry = mean_of(1, 4096);
  EXPECT_EQ(geometry.threads, 512);
  EXPECT_EQ(geometry.rows_per_cta, 1);
  EXPECT_EQ(geometry.ctas_per_row, 1);
  EXPECT_EQ(geometry.cta_count(1), 1);
  EXPECT_DOUBLE_EQ(geometry.bytes_in_flight, 512 * 16.0);
  EXPECT_DOUBLE_EQ(round_trips(geometry, 4096), 2);
}

TEST(AtenReduceGeometry, EightRowsShareOneCtaAndWalkSixteenTrips) {
  const RowReductionGeometry geometry = mean_of(8, 4096);
  EXPECT_EQ(geometry.threads, 512);  // 64 lanes x 8 rows
  EXPECT_EQ(geometry.rows_per_cta, 8);
  EXPECT_EQ(geometry.cta_count(8), 1);
  EXPECT_DOUBLE_EQ(round_trips(geometry, 4096), 16);
}

TEST(AtenReduceGeometry, SixtyFourRowsTakeFourCtasOfSixteenRows) {
  const RowReductionGeometry geometry = mean_of(64, 4096);
  EXPECT_EQ(geometry.rows_per_cta, 16);  // a warp a row
  EXPECT_EQ(geometry.cta_count(64), 4);
  EXPECT_DOUBLE_EQ(round_trips(geometry, 4096), 32);
}

TEST(AtenReduceGeometry, ALongRowWithFewOutputsSpreadsOverCtas) {
  const RowReductionGeometry geometry = mean_of(1, 1 << 20);
  EXPECT_EQ(geometry.rows_per_cta, 1);
  EXPECT_GT(geometry.ctas_per_row, 1);
  EXPECT_EQ(geometry.cta_count(1), geometry.ctas_per_row);
}

TEST(AtenReduceGeometry, AShortRowUsesNarrowerCtas) {
  const RowReductionGeometry geometry = mean_of(1, 64);
  EXPECT_EQ(geometry.threads, 64);  // 64 elements, not vectorized (<= 128 vectors)
}

}  // namespace
}  // namespace tilesim::workloads
