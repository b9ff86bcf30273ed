#pragma once
// `tilesim sweep --csv`: one row per run (a grid point with a schedule), in grid
// order: the varied keys' values as set, then the columns of
// `tilesim simulate --csv` (schedule, shape, tile, time, throughput, bytes).

#include <string>

#include "app/report/csv_table.hpp"
#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

CsvTable sweep_table(const workloads::SweepSpec& spec, const workloads::SweepResult& result);
std::string sweep_csv(const workloads::SweepSpec& spec, const workloads::SweepResult& result);

}  // namespace tilesim::report
