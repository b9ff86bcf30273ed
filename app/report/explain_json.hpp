#pragma once
// `tilesim explain --json` (and the `explain` entry `simulate --explain --json`
// adds to each result): per run its bound, roofline position, time breakdown
// in microseconds by cause (docs/explain.md lists the keys), per kernel the
// same breakdown, and the what-ifs.

#include <nlohmann/json.hpp>
#include <vector>

#include "app/explain/run_explanation.hpp"

namespace tilesim::report {

nlohmann::ordered_json explain_json(const explain::RunExplanation& explanation);

}  // namespace tilesim::report
