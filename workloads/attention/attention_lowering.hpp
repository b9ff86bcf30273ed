#pragma once
// Lowers one attention workload, with its variant, to the kernels it consists
// of, in launch order on stream 0. Kernel graphs (e.g. a decoder layer) embed
// these launches among their own; a study simulates them as one plan.

#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "workloads/attention/attention_variant.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::workloads {

// `workload.variant` must name one variant (not `compare`). Problems (unknown
// variant or kernel profile, a variant that does not apply to the shape) come
// back as diagnostics located at the workload.
config::Loaded<std::vector<gpu::KernelLaunch>> lower_attention(const AttentionWorkload& workload,
                                                               const hw::HardwareSpec& spec);

// The same, with what was simulated ("flash_decoding:splits=15").
config::Loaded<AttentionLowering> lower_attention_variant(const AttentionWorkload& workload,
                                                          const hw::HardwareSpec& spec);

}  // namespace tilesim::workloads
