// Shards split a sweep's jobs round robin, every job in exactly one shard,
// and "I/N" is read strictly.

#include "workloads/sweep/sweep_shard.hpp"

#include <gtest/gtest.h>

namespace tilesim::workloads {
namespace {

SweepSpec numbered_jobs(std::size_t count) {
  SweepSpec spec;
  for (std::size_t job = 0; job < count; ++job) {
    spec.jobs.emplace_back();
    spec.jobs.back().number = job;
    spec.jobs.back().point = job / 2;
  }
  return spec;
}

TEST(SweepShard, EveryJobFallsInExactlyOneShardRoundRobin) {
  for (const std::size_t jobs : {0u, 1u, 6u, 7u, 100u}) {
    for (const std::size_t shards : {1u, 2u, 3u, 7u, 150u}) {
      std::vector<int> taken(jobs, 0);
      std::size_t total = 0;
      for (std::size_t index = 0; index < shards; ++index) {
        const SweepShard shard{index, shards};
        const SweepSpec part = shard_spec(numbered_jobs(jobs), shard);
        ASSERT_EQ(part.jobs.size(), shard.job_count(jobs)) << index << "/" << shards;
        for (std::size_t local = 0; local < part.jobs.size(); ++local) {
          EXPECT_EQ(part.jobs[local].number, index + local * shards);
          EXPECT_EQ(part.jobs[local].point, part.jobs[local].number / 2);
          ++taken[part.jobs[local].number];
        }
        total += part.jobs.size();
      }
      EXPECT_EQ(total, jobs);
      for (const int times : taken) EXPECT_EQ(times, 1);
    }
  }
}

TEST(SweepShard, ParsesIOfN) {
  const ParsedSweepShard parsed = parse_sweep_shard("2/7");
  ASSERT_TRUE(parsed.shard);
  EXPECT_EQ(parsed.shard->index, 2u);
  EXPECT_EQ(parsed.shard->count, 7u);
  EXPECT_EQ(parsed.shard->text(), "2/7");
  EXPECT_TRUE(parse_sweep_shard("0/1").shard);
}

TEST(SweepShard, RefusesWhatIsNotAShardOfN) {
  EXPECT_NE(parse_sweep_shard("7/7").problem.find("must be 0 to 6"), std::string::npos);
  EXPECT_NE(parse_sweep_shard("0/0").problem.find("number of shards must be 1 to"),
            std::string::npos);
  EXPECT_NE(parse_sweep_shard("0/2000000").problem.find("number of shards must be 1 to"),
            std::string::npos);
  for (const char* text : {"", "3", "/3", "1/", "-1/3", "1/3x", " 1/3", "1.0/3", "a/b", "1//3"}) {
    const ParsedSweepShard parsed = parse_sweep_shard(text);
    EXPECT_FALSE(parsed.shard) << text;
    EXPECT_NE(parsed.problem.find("is not I/N"), std::string::npos)
        << text << ": " << parsed.problem;
  }
}

}  // namespace
}  // namespace tilesim::workloads
