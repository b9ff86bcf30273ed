#include "workloads/graph/tensor_blocks.hpp"

#include <algorithm>

namespace tilesim::workloads {

TensorBlocks::TensorBlocks(std::uint32_t id, std::int64_t rows, std::int64_t cols,
                           hw::DataType dtype)
    : id_(id), rows_(rows), cols_(cols), dtype_(dtype) {}

// Calls visit(key, first row in the block, end row in the block, elements).
template <typename Visit>
void TensorBlocks::for_each_block(const TensorRegion& region, Visit&& visit) const {
  const std::int64_t row_begin = std::max<std::int64_t>(0, region.row_begin);
  const std::int64_t row_end = std::min(rows_, region.row_end);
  const std::int64_t col_begin = std::max<std::int64_t>(0, region.col_begin);
  const std::int64_t col_end = std::min(cols_, region.col_end);
  if (row_end <= row_begin || col_end <= col_begin) return;
  for (std::int64_t band = row_begin / kBlockRows; band * kBlockRows < row_end; ++band) {
    const std::int64_t band_first = band * kBlockRows;
    const std::int64_t rows_begin = std::max(row_begin, band_first) - band_first;
    const std::int64_t rows_end = std::min(row_end, band_first + kBlockRows) - band_first;
    for (std::int64_t chunk = col_begin / kBlockCols; chunk * kBlockCols < col_end; ++chunk) {
      const std::int64_t cols =
          std::min(col_end, (chunk + 1) * kBlockCols) - std::max(col_begin, chunk * kBlockCols);
      const gpu::BlockKey key{id_, static_cast<std::uint32_t>(band),
                              static_cast<std::uint32_t>(chunk)};
      visit(key, rows_begin, rows_end, static_cast<double>((rows_end - rows_begin) * cols));
    }
  }
}

gpu::BlockReads TensorBlocks::reads(const TensorRegion& region) const {
  gpu::BlockReads reads;
  for_each_block(region, [&](const gpu::BlockKey& key, std::int64_t part_begin,
                             std::int64_t part_end, double elements) {
    reads.push_back({key, elements * element_bytes(), 1, part_begin, part_end});
  });
  return reads;
}

std::vector<BlockStore> TensorBlocks::stores(const TensorRegion& region) const {
  std::vector<BlockStore> stores;
  for_each_block(region,
                 [&](const gpu::BlockKey& key, std::int64_t, std::int64_t, double elements) {
                   stores.push_back({key, elements * element_bytes()});
                 });
  return stores;
}

}  // namespace tilesim::workloads
