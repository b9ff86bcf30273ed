#pragma once
// A study's attention workload as something tilesim-measure can run: the
// reference kernel of its variant (kernels/attention) on its shape, or the
// reason it cannot be measured and where in the study that reason lies.

#include <string>
#include <variant>

#include "hwmodels/diagnostics.hpp"
#include "kernels/attention/attention_problem.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::measure {

struct AttentionCase {
  std::string name;
  std::string kernel;  // the study's kernel profile name (tilesim_ref, tilesim_ref_wgmma)
  kernels::AttentionVariant variant = kernels::AttentionVariant::flash;
  kernels::AttentionProblem problem;
};

struct AttentionCaseError {
  config::SourceLocation where;
  std::string message;
};

// `kernel: tilesim_ref` with a variant that has a reference kernel, or `kernel:
// tilesim_ref_wgmma` with `variant: flash` (the FA3-class kernel, flash_wgmma),
// and a shape in its domain; `variant: compare` and `kernel: library` are refused.
std::variant<AttentionCase, AttentionCaseError> make_attention_case(
    const workloads::AttentionWorkload& workload);

}  // namespace tilesim::measure
