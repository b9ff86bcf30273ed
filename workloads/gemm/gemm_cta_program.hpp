#pragma once
// Builds the programs of GEMM CTAs: the main loop over a tile's k-range, the
// epilogue, and the fixup steps through an fp32 workspace and flags. Every
// schedule uses it; schedules differ only in which tiles and k-ranges they give
// each CTA and in how they order the fixup.
//
// Main loop: one step per k-chunk (A and B reads overlapped with the
// tensor-core work; the first step of a CTA waits one memory latency to fill
// the pipeline), then the last k-block's MMAs, which nothing overlaps. Rows
// that are not 16-byte aligned, on a kernel that gathers them through
// registers (KernelProfile::unaligned_bytes_in_flight_per_thread, per build):
// each chunk's reads, then its MMAs, one after the other.

#include <cstdint>
#include <memory>
#include <optional>

#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_fusion.hpp"
#include "workloads/gemm/gemm_workload.hpp"
#include "workloads/gemm/tile_coord.hpp"

namespace tilesim::workloads {

// Which build of the kernel runs the launch: each scheduler is compiled apart
// (data-parallel; split-K; the persistent one of Stream-K and persistent
// data-parallel), so each gathers unaligned rows with its own loads in flight.
enum class GemmKernelBuild { data_parallel, split_k, persistent };

class GemmCtaProgramBuilder {
 public:
  // `fusion` (from a kernel graph) names the GEMM's tensors and the work fused
  // into its main loop and epilogue.
  GemmCtaProgramBuilder(const GemmProblem& problem, const hw::KernelProfile& kernel,
                        std::shared_ptr<const GemmFusion> fusion = nullptr,
                        GemmKernelBuild build = GemmKernelBuild::data_parallel);

  std::int64_t tile_rows() const { return tile_rows_; }
  std::int64_t tile_cols() const { return tile_cols_; }
  std::int64_t tile_count() const { return tile_rows_ * tile_cols_; }
  std::int64_t k_blocks() const { return k_blocks_; }
  // Rows and columns of C in a tile (fewer at the edges).
  std::int64_t tile_extent_rows(std::int64_t tile_row) const;
  std::int64_t tile_extent_cols(std::int64_t tile_col) const;
  // The flag that orders the fixup of `tile`.
  std::uint32_t tile_flag(TileCoord tile) const {
    return static_cast<std::uint32_t>(tile.row * tile_cols_ + tile.col);
  }

  // The tensor speed of the launch's CTA `cta_index` (the profile's CTA
  // speed spread; 1 without one).
  double cta_pace(std::int64_t cta_index) const;
  // Whether CTAs run at simulated unequal paces (cta_speed_spread): their
  // programs then do not drift in the L2 model as well (CtaProgram::drifts).
  bool paces_simulated() const;

  // Room for `segments` more segments in `program`, so that building them
  // moves no step (begin_segment otherwise grows the program as it goes).
  void reserve_segments(gpu::CtaProgram& program, std::size_t segments) const;
  // Starts a segment (a tile and k-range) of `program`; returns its index.
  std::uint16_t begin_segment(gpu::CtaProgram& program, TileCoord tile, std::int64_t k_block_begin,
                              std::int64_t k_block_end) const;
  // Reads and MMAs for k-blocks [begin, end) of the tile.
  void add_main_loop(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile,
                     std::int64_t k_block_begin, std::int64_t k_block_end,
                     bool fills_pipeline) const;
  // Stores the tile's output elements, after any fused epilogue work.
  void add_epilogue(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile) const;
  // How a tile's fp32 partial sits in the workspace. A fixup (serial split-K,
  // Stream-K) keeps the whole accumulator tile in register order, padding
  // included, so every access is a full-width vector; the parallel split-K
  // workspace is row-major and holds only the elements of C.
  enum class PartialLayout { accumulator_tile, row_major };
  // Writes this CTA's fp32 partial of the tile to workspace slot `slot` (after
  // adding the partial already there when `accumulate`), then raises the
  // tile's flag.
  void add_partial_store(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile,
                         std::optional<gpu::FlagWait> wait, bool accumulate, std::uint32_t slot,
                         PartialLayout layout = PartialLayout::accumulator_tile) const;
  // Waits for `wait` (if any), then reads workspace slots [0, partials) of the
  // tile and adds them to the accumulators.
  void add_partial_reduce(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile,
                          std::optional<gpu::FlagWait> wait, int partials,
                          PartialLayout layout = PartialLayout::accumulator_tile) const;

 private:
  double partial_bytes(TileCoord tile, PartialLayout layout) const;
  // Bytes a CTA's threads keep in flight reading partials: a peer's
  // load-add-store, or (`collect`) the finisher's read of its peers'.
  double fixup_bytes_in_flight(bool collect) const;
  std::int64_t k_elements(std::int64_t k_block_begin, std::int64_t k_block_end) const;
  // Appends the MMAs of `k_blocks` k-blocks to `program`; returns the step.
  gpu::CtaStep& add_mma_step(gpu::CtaProgram& program, double k_blocks,
                             std::uint16_t segment) const;
  void add_a_reads(gpu::BlockReads& reads, TileCoord tile, std::int64_t k_block_begin,
                   std::int64_t k_block_end, std::uint32_t chunk) const;
  // The previous unit's C store, taken out of `program` when the kernel's
  // output store overlaps the next unit (its bytes; 0 when nothing is taken).
  double take_overlapped_store(gpu::CtaProgram& program) const;
  void add_fused_epilogue_work(gpu::CtaProgram& program, std::uint16_t segment,
                               TileCoord tile) const;
  void add_output_stores(gpu::CtaProgram& program, std::uint16_t segment, TileCoord tile) const;

  GemmProblem problem_;
  hw::KernelProfile kernel_;
  std::shared_ptr<const GemmFusion> fusion_;
  GemmTensorIds tensors_;
  std::int64_t tile_rows_;
  std::int64_t tile_cols_;
  std::int64_t k_blocks_;
  std::int64_t chunk_blocks_;  // k-blocks per L2-tracked chunk of a panel
  // Bytes a CTA has in flight in the unaligned main loop; 0: the aligned one runs.
  double unaligned_bytes_in_flight_ = 0;
  // The SM's rate for that gather (KernelProfile::unaligned_gather_bytes_per_clock_per_sm
  // at this problem's load width); 0: the L2 port's.
  double unaligned_gather_bytes_per_clock_ = 0;
  // What A's and B's reads cost per byte: the profile's factor where their rows
  // are not 128-byte aligned, else 1.
  double a_read_factor_ = 1;
  double b_read_factor_ = 1;
};

}  // namespace tilesim::workloads
