#pragma once
// Builds the program of one GEMM CTA that computes output tile (row, col) over
// k-blocks [k_block_begin, k_block_end). Every schedule uses it; they differ
// only in which tiles and k-ranges they give each CTA and in their fixup.
//
// Program: one step per k-chunk (A and B reads overlapped with the tensor-core
// work; the first step waits one memory latency to fill the pipeline), then the
// last k-block's MMAs, which nothing overlaps, then the epilogue store.

#include <cstdint>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

// Tensors of one GEMM for the L2 model's block keys.
struct GemmTensorIds {
  std::uint32_t a = 0;
  std::uint32_t b = 1;
};

class GemmCtaProgramBuilder {
 public:
  GemmCtaProgramBuilder(const GemmProblem& problem, const hw::KernelProfile& config,
                        GemmTensorIds tensors = {});

  std::int64_t tile_rows() const { return tile_rows_; }
  std::int64_t tile_cols() const { return tile_cols_; }
  std::int64_t k_blocks() const { return k_blocks_; }

  // Reads and MMAs for k-blocks [begin, end) of the tile, without the epilogue.
  void add_main_loop(gpu::CtaProgram& program, std::int64_t tile_row, std::int64_t tile_col,
                     std::int64_t k_block_begin, std::int64_t k_block_end) const;
  // Stores the tile's output elements.
  void add_epilogue(gpu::CtaProgram& program, std::int64_t tile_row, std::int64_t tile_col) const;

 private:
  std::int64_t tile_extent_rows(std::int64_t tile_row) const;
  std::int64_t tile_extent_cols(std::int64_t tile_col) const;
  std::int64_t k_elements(std::int64_t k_block_begin, std::int64_t k_block_end) const;
  gpu::CtaStep mma_step(double k_blocks) const;

  GemmProblem problem_;
  hw::KernelProfile config_;
  GemmTensorIds tensors_;
  std::int64_t tile_rows_;
  std::int64_t tile_cols_;
  std::int64_t k_blocks_;
  std::int64_t chunk_blocks_;  // k-blocks per L2-tracked chunk of a panel
};

}  // namespace tilesim::workloads
