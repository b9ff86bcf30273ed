#include "workloads/gemm/stream_k_partition.hpp"

#include <algorithm>

namespace tilesim::workloads {

StreamKPartition::StreamKPartition(StreamKMode mode, std::int64_t tiles,
                                   std::int64_t k_blocks_per_tile, std::int64_t persistent_ctas,
                                   std::int64_t min_iterations_per_unit)
    : tiles_(tiles), k_blocks_(k_blocks_per_tile) {
  const std::int64_t full_waves = tiles / persistent_ctas;
  const std::int64_t remainder = tiles % persistent_ctas;
  switch (mode) {
    case StreamKMode::pure:
      stream_k_tiles_ = tiles;
      break;
    case StreamKMode::dp_one_tile:
      stream_k_tiles_ = remainder;
      break;
    case StreamKMode::wave_fit:
    case StreamKMode::tile_fit:  // (on the tile it picked: gemm_kernel_config.cpp)
      // Tiles that fit in one wave stay whole; more are cut as two_tile.
      data_parallel_launch_ = tiles <= persistent_ctas;
      if (data_parallel_launch_) break;
      [[fallthrough]];
    case StreamKMode::two_tile:
      // Fold the last full wave into the Stream-K part, so each unit gets
      // between one and two tiles of iterations.
      stream_k_tiles_ =
          remainder == 0 ? 0 : remainder + std::min<std::int64_t>(full_waves, 1) * persistent_ctas;
      break;
  }
  units_ =
      std::clamp<std::int64_t>(iterations() / std::max<std::int64_t>(1, min_iterations_per_unit),
                               std::min<std::int64_t>(1, iterations()), persistent_ctas);
}

std::int64_t StreamKPartition::unit_of(std::int64_t iteration) const {
  std::int64_t unit = iteration * units_ / iterations();
  while (unit + 1 < units_ && first_iteration(unit + 1) <= iteration) ++unit;
  while (unit > 0 && first_iteration(unit) > iteration) --unit;
  return unit;
}

}  // namespace tilesim::workloads
