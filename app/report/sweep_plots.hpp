#pragma once
// The plot of a sweep (`tilesim sweep --svg`):
// - one varied key: a line chart of plot.y against it, one line per schedule;
// - two keys and two or more schedules: a heat map of the speedup of the second
//   schedule over the first (time of the first / time of the second);
// - two keys and one schedule: a heat map of plot.y.

#include <string>

#include "workloads/sweep/sweep_runner.hpp"
#include "workloads/sweep/sweep_spec.hpp"

namespace tilesim::report {

std::string sweep_plot_svg(const workloads::SweepSpec& spec, const workloads::SweepResult& result);

}  // namespace tilesim::report
