#pragma once
// `tilesim explain` (and `simulate --explain`) as text: per run, what bounds
// it in one line, its roofline position, where its time went, the what-ifs,
// and per kernel of a multi-kernel run its largest causes.

#include <string>
#include <vector>

#include "app/explain/run_explanation.hpp"

namespace tilesim::report {

std::string explain_text(const std::vector<explain::RunExplanation>& explanations);

}  // namespace tilesim::report
