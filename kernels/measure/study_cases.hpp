#pragma once
// A study's workloads as the cases tilesim-measure runs, in study order: GEMMs
// (gemm_case.hpp) and attention (attention_case.hpp). Workloads without a
// kernel here are reported as file:line:column with the reason.

#include <optional>
#include <variant>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "kernels/gemm/gemm_launch.hpp"
#include "kernels/measure/attention_case.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "workloads/study.hpp"

namespace tilesim::measure {

using MeasureCase = std::variant<GemmCase, AttentionCase>;

// Every problem is printed to stderr at once; with `skip_unsupported` those
// workloads are left out and the rest returned, else nothing is returned.
std::optional<std::vector<MeasureCase>> study_cases(
    const workloads::Study& study, const hw::HardwareSpec& hardware,
    const kernels::GemmDeviceLimits& limits, std::optional<kernels::GemmTileVariant> forced_tile,
    bool skip_unsupported);

}  // namespace tilesim::measure
