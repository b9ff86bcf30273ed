#pragma once
// An activation tensor [rows x cols], row-major, that the kernels of a graph
// write and read, as the L2 model sees it: blocks of 64 rows x 256 columns,
// read in parts that are rows of a block. A kernel that stores into a block
// makes all of it resident, so a tensor one kernel writes and the next reads
// costs no HBM read while L2 holds it -- the benefit a separate kernel keeps
// and the round trip fusion removes. A read that covers only some columns of
// a block is counted for the rows it names (an approximation at unaligned
// edges; GEMM k-chunks and tiles are multiples of 256 columns in practice).

#include <cstdint>
#include <vector>

#include "hwmodels/data_type.hpp"
#include "sim/gpu/kernel_plan.hpp"

namespace tilesim::workloads {

// Rows [row_begin, row_end) x columns [col_begin, col_end) of a tensor.
struct TensorRegion {
  std::int64_t row_begin = 0;
  std::int64_t row_end = 0;
  std::int64_t col_begin = 0;
  std::int64_t col_end = 0;
  double elements() const {
    return static_cast<double>(row_end - row_begin) * static_cast<double>(col_end - col_begin);
  }
  TensorRegion shifted(std::int64_t col_offset) const {
    return {row_begin, row_end, col_begin + col_offset, col_end + col_offset};
  }
};

// The bytes of one block a store writes.
struct BlockStore {
  gpu::BlockKey key;
  double bytes = 0;
};

class TensorBlocks {
 public:
  static constexpr std::int64_t kBlockRows = 64;
  static constexpr std::int64_t kBlockCols = 256;

  TensorBlocks(std::uint32_t id, std::int64_t rows, std::int64_t cols, hw::DataType dtype);

  std::uint32_t id() const { return id_; }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  hw::DataType dtype() const { return dtype_; }
  double element_bytes() const { return hw::bytes_per_element(dtype_); }
  double bytes() const { return static_cast<double>(rows_ * cols_) * element_bytes(); }
  TensorRegion whole() const { return {0, rows_, 0, cols_}; }

  // One read per block the region touches (clipped to the tensor).
  gpu::BlockReads reads(const TensorRegion& region) const;
  std::vector<BlockStore> stores(const TensorRegion& region) const;

 private:
  template <typename Visit>
  void for_each_block(const TensorRegion& region, Visit&& visit) const;

  std::uint32_t id_;
  std::int64_t rows_;
  std::int64_t cols_;
  hw::DataType dtype_;
};

}  // namespace tilesim::workloads
