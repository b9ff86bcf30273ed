#pragma once
// The programs of CTAs that each compute one whole tile (a data-parallel
// grid), built once per kind of tile and aimed at a tile by copying.
//
// Such a program depends on its tile only through the tile's extents (every
// tile but those of the last tile-row and tile-column is full) and the panels
// its reads name (A's tile-row, B's tile-column). So one program is built for
// each of the (up to) four kinds of tile, and a CTA's program is a copy with
// its segment's label and its reads' panels set: the same steps, bytes and
// reads as building it, for ~40% of the instructions (bench/README.md, round 23).
// Without fusion only: a graph's tensors name blocks by their own layout.

#include <array>
#include <optional>

#include "sim/gpu/kernel_plan.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/tile_coord.hpp"

namespace tilesim::workloads {

class WholeTilePrograms {
 public:
  // `builder`: without fusion; the programs are built here, at once.
  explicit WholeTilePrograms(const GemmCtaProgramBuilder& builder);

  // Sets `program` (its storage kept) to the whole-tile program of `tile`:
  // segments and steps; tensor_speed and drifts are the caller's.
  void assign(TileCoord tile, gpu::CtaProgram& program) const;

 private:
  // 0: a full tile; +1 in the last tile-row; +2 in the last tile-column.
  std::size_t kind_of(TileCoord tile) const;

  std::int64_t last_row_;
  std::int64_t last_col_;
  std::array<std::optional<gpu::CtaProgram>, 4> programs_;
};

}  // namespace tilesim::workloads
