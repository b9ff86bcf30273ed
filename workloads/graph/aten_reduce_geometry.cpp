#include "workloads/graph/aten_reduce_geometry.hpp"

#include <algorithm>

namespace tilesim::workloads {
namespace {

constexpr std::int64_t kMaxThreads = 512;
constexpr std::int64_t kWarpThreads = 32;
constexpr std::int64_t kVectorElements = 4;  // vt0 = input_vec_size = 4
constexpr std::int64_t kMinValuesPerThread = 16;
constexpr std::int64_t kMaxValuesPerThread = 256;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

std::int64_t last_pow2(std::int64_t n) {
  std::int64_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace

RowReductionGeometry aten_reduce_geometry(std::int64_t rows, std::int64_t cols,
                                          double element_bytes, int sm_count, int sm_max_threads) {
  // A contiguous row longer than 128 vectors is read as vectors.
  const std::int64_t dim0 = cols / kVectorElements > 128 ? cols / kVectorElements : cols;
  const std::int64_t dim0_pow2 = dim0 < kMaxThreads ? last_pow2(dim0) : kMaxThreads;
  const std::int64_t dim1_pow2 = rows < kMaxThreads ? last_pow2(rows) : kMaxThreads;
  std::int64_t width = std::min(dim0_pow2, kWarpThreads);
  const std::int64_t height = std::min(dim1_pow2, kMaxThreads / width);
  width = std::min(dim0_pow2, kMaxThreads / height);

  RowReductionGeometry geometry;
  geometry.threads = width * height;
  geometry.bytes_in_flight =
      static_cast<double>(geometry.threads * kVectorElements) * element_bytes;
  const std::int64_t values_per_thread = ceil_div(cols, width);
  if (values_per_thread < height * kMinValuesPerThread && values_per_thread < kMaxValuesPerThread) {
    geometry.rows_per_cta = height;  // each warp row reduces its own row
    return geometry;
  }
  // The warps share a row; long rows with few outputs spread over CTAs too.
  const std::int64_t values_per_thread_of_cta = ceil_div(cols, width * height);
  const std::int64_t target_grid = sm_count * (sm_max_threads / geometry.threads);
  if (values_per_thread_of_cta >= kMaxValuesPerThread && rows <= target_grid) {
    geometry.ctas_per_row =
        std::max(std::min(ceil_div(target_grid, rows),
                          ceil_div(values_per_thread_of_cta, kMinValuesPerThread)),
                 ceil_div(values_per_thread_of_cta, kMaxValuesPerThread));
  }
  return geometry;
}

}  // namespace tilesim::workloads
