#pragma once
// The CSV file of one shard of a sweep (`tilesim sweep --shard I/N`), and the
// merge of every shard's file into the sweep's result (`--merge`), from which
// the CSV, SVG and HTML of one unsharded run follow, byte for byte.
//
// A shard's file is a sweep CSV whose rows lead with `job` (the job's number
// in the whole sweep), ending with a closing line
//
//   # tilesim sweep shard 2/7 of sweep 0123456789abcdef: 143 jobs, 286 rows
//
// that names the shard, the sweep's fingerprint (its file, the hardware, the
// options and the tilesim build) and what the file holds, so that a file cut
// short, a shard given twice or a shard of another sweep is refused, not merged.

#include <cstddef>
#include <string>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_shard.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

// The last line of a shard's file, with its "\n".
std::string shard_closing_line(workloads::SweepShard shard, const std::string& fingerprint,
                               std::size_t jobs, std::size_t rows);

// The result of the whole sweep `spec` from the files of all its shards (in
// any order), each read back and checked; every problem at its file:line.
config::Loaded<workloads::SweepResult> merge_sweep_shards(const workloads::SweepSpec& spec,
                                                          const std::string& fingerprint,
                                                          const std::vector<std::string>& paths);

}  // namespace tilesim::report
