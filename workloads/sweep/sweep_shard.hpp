#pragma once
// A share of a sweep for one process of a cluster (`tilesim sweep --shard
// I/N`, docs/sweeps.md): shard I of N takes the jobs I, I + N, I + 2N, ... of
// the sweep (its points x schedules, in grid order). Round robin rather than
// contiguous blocks, so that every shard gets a like mix of the small and
// large points of an axis that grows.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::workloads {

struct SweepShard {
  std::size_t index = 0;
  std::size_t count = 1;

  bool takes(std::size_t job) const { return job % count == index; }
  // How many of a sweep's `total` jobs it takes.
  std::size_t job_count(std::size_t total) const;
  std::string text() const;  // "2/7"
};

// The most shards a sweep can be split into.
inline constexpr std::size_t kMaxSweepShards = 1'000'000;

// "I/N" with 0 <= I < N <= kMaxSweepShards; otherwise what is wrong with it.
struct ParsedSweepShard {
  std::optional<SweepShard> shard;
  std::string problem;
};
ParsedSweepShard parse_sweep_shard(std::string_view text);

// The sweep with only the shard's jobs, each keeping its number in the whole sweep.
SweepSpec shard_spec(SweepSpec spec, SweepShard shard);

}  // namespace tilesim::workloads
