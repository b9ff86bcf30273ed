#pragma once
// How Stream-K divides a GEMM: which tiles go to the Stream-K units (spread as
// MAC iterations over a persistent grid, crossing tile boundaries) and which
// run data-parallel, and which unit covers which iterations.

#include <cstdint>

#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

class StreamKPartition {
 public:
  // `persistent_ctas`: CTAs resident at once (SMs x occupancy). Units are
  // capped so that each gets at least `min_iterations_per_unit` iterations:
  // more units would mostly add fixup.
  StreamKPartition(StreamKMode mode, std::int64_t tiles, std::int64_t k_blocks_per_tile,
                   std::int64_t persistent_ctas, std::int64_t min_iterations_per_unit = 1);

  std::int64_t stream_k_tiles() const { return stream_k_tiles_; }  // the first tiles in order
  std::int64_t data_parallel_tiles() const { return tiles_ - stream_k_tiles_; }
  std::int64_t stream_k_units() const { return units_; }
  std::int64_t iterations() const { return stream_k_tiles_ * k_blocks_; }
  // Unit u covers MAC iterations [first_iteration(u), first_iteration(u + 1)).
  std::int64_t first_iteration(std::int64_t unit) const { return unit * iterations() / units_; }
  std::int64_t unit_of(std::int64_t iteration) const;
  // wave_fit on tiles that fit in one wave: no Stream-K kernel, the tiles run
  // as a data-parallel launch (one CTA each).
  bool data_parallel_launch() const { return data_parallel_launch_; }
  // Partitions of different modes that cut the same tiles into the same units
  // (and launch alike) are equal: the mode only chooses the Stream-K tiles.
  bool operator==(const StreamKPartition&) const = default;

 private:
  std::int64_t tiles_;
  std::int64_t k_blocks_;
  std::int64_t stream_k_tiles_ = 0;
  std::int64_t units_ = 0;
  bool data_parallel_launch_ = false;
};

}  // namespace tilesim::workloads
