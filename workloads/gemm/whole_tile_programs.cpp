#include "workloads/gemm/whole_tile_programs.hpp"

#include "workloads/gemm/gemm_fusion.hpp"

namespace tilesim::workloads {

namespace {

// What GemmCtaProgramBuilder names A's and B's panels by without fusion.
constexpr GemmTensorIds kTensors{};

}  // namespace

WholeTilePrograms::WholeTilePrograms(const GemmCtaProgramBuilder& builder)
    : last_row_(builder.tile_rows() - 1), last_col_(builder.tile_cols() - 1) {
  for (const std::int64_t row : {std::int64_t{0}, last_row_}) {
    for (const std::int64_t col : {std::int64_t{0}, last_col_}) {
      const TileCoord tile{row, col};
      std::optional<gpu::CtaProgram>& program = programs_[kind_of(tile)];
      if (program) continue;  // one tile-row or tile-column: its first is its last
      program.emplace();
      const std::uint16_t segment = builder.begin_segment(*program, tile, 0, builder.k_blocks());
      builder.add_main_loop(*program, segment, tile, 0, builder.k_blocks(), true);
      builder.add_epilogue(*program, segment, tile);
    }
  }
}

std::size_t WholeTilePrograms::kind_of(TileCoord tile) const {
  return (tile.row == last_row_ ? 1 : 0) + (tile.col == last_col_ ? 2 : 0);
}

void WholeTilePrograms::assign(TileCoord tile, gpu::CtaProgram& program) const {
  const gpu::CtaProgram& built = *programs_[kind_of(tile)];
  program.segments = built.segments;
  program.segments.front().tile_row = tile.row;
  program.segments.front().tile_col = tile.col;
  program.steps = built.steps;
  for (gpu::CtaStep& step : program.steps) {
    for (gpu::BlockRead& read : step.reads) {
      if (read.key.tensor == kTensors.a) read.key.panel = static_cast<std::uint32_t>(tile.row);
      if (read.key.tensor == kTensors.b) read.key.panel = static_cast<std::uint32_t>(tile.col);
    }
  }
}

}  // namespace tilesim::workloads
