#pragma once
// The position of an output tile in the grid of tiles.

#include <cstdint>

namespace tilesim::workloads {

struct TileCoord {
  std::int64_t row = 0;
  std::int64_t col = 0;
};

}  // namespace tilesim::workloads
