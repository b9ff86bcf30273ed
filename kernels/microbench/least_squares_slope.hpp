#pragma once
// The slope of the least-squares line through (x, y) points: the cost each
// added unit of x (graph nodes, CTA waves) adds to y.

#include <utility>
#include <vector>

namespace tilesim::microbench {

// At least two points with different x.
double least_squares_slope(const std::vector<std::pair<double, double>>& points);

}  // namespace tilesim::microbench
