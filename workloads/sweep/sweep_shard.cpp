#include "workloads/sweep/sweep_shard.hpp"

#include <fmt/format.h>

#include <charconv>

namespace tilesim::workloads {
namespace {

std::optional<std::size_t> whole_number(std::string_view text) {
  std::size_t value = 0;
  const auto [last, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || last != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::size_t SweepShard::job_count(std::size_t total) const {
  return total / count + (index < total % count ? 1 : 0);
}

std::string SweepShard::text() const {
  return fmt::format("{}/{}", index, count);
}

ParsedSweepShard parse_sweep_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  const std::optional<std::size_t> index =
      slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(0, slash));
  const std::optional<std::size_t> count =
      slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count) {
    return {std::nullopt,
            fmt::format("\"{}\" is not I/N; give the shard's index I (from 0) and the number of "
                        "shards N, e.g. 0/4, as with sbatch --array=0-3",
                        text)};
  }
  if (*count < 1 || *count > kMaxSweepShards) {
    return {std::nullopt, fmt::format("{}/{}: the number of shards must be 1 to {}", *index, *count,
                                      kMaxSweepShards)};
  }
  if (*index >= *count) {
    return {std::nullopt, fmt::format("{}/{}: the shard index counts from 0, so it must be 0 to {}",
                                      *index, *count, *count - 1)};
  }
  return {SweepShard{*index, *count}, ""};
}

SweepSpec shard_spec(SweepSpec spec, SweepShard shard) {
  std::vector<SweepJob> jobs;
  jobs.reserve(shard.job_count(spec.jobs.size()));
  for (SweepJob& job : spec.jobs) {
    if (shard.takes(job.number)) jobs.push_back(std::move(job));
  }
  spec.jobs = std::move(jobs);
  return spec;
}

}  // namespace tilesim::workloads
