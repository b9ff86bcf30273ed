#include "workloads/gemm/row_alignment.hpp"

#include <cmath>

namespace tilesim::workloads {

double row_alignment_bytes(const GemmProblem& problem) {
  const double element_bytes = hw::bytes_per_element(problem.input_type);
  const auto multiple_of = [&](double alignment) {
    return std::fmod(static_cast<double>(problem.k) * element_bytes, alignment) == 0 &&
           std::fmod(static_cast<double>(problem.n) * element_bytes, alignment) == 0;
  };
  for (const double alignment : {16.0, 8.0, 4.0, 2.0}) {
    if (multiple_of(alignment)) return alignment;
  }
  return 1;
}

}  // namespace tilesim::workloads
