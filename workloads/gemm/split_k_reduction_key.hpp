#pragma once
// The `reduction` key of a split-K GEMM: a study's `gemm` workloads and a
// graph's `gemm` kernels read it the same way.

#include <string>
#include <utility>

#include "hwmodels/yaml_schema.hpp"
#include "workloads/gemm/gemm_workload.hpp"

namespace tilesim::workloads {

inline config::Param split_k_reduction_key(std::string doc) {
  return config::Param::choice("reduction", {"serial", "parallel"})
      .default_to("serial")
      .describe(std::move(doc));
}

inline SplitKReduction parse_split_k_reduction(const std::string& text) {
  return text == "parallel" ? SplitKReduction::parallel : SplitKReduction::serial;
}

}  // namespace tilesim::workloads
