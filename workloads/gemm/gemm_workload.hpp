#pragma once
// One GEMM workload of a study: C[m x n] = A[m x k] * B[k x n], row-major,
// fp32 accumulation, plus the schedule and kernel the user asked for.

#include <cstdint>
#include <optional>
#include <string>

#include "hwmodels/data_type.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::workloads {

struct GemmProblem {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  hw::DataType input_type = hw::DataType::bf16;
  hw::DataType output_type = hw::DataType::bf16;  // defaults to the input type (fp8 -> bf16)

  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

// Per-field overrides of the kernel profile's tile; unset fields keep the profile's.
struct TileOverride {
  std::optional<int> m, n, k, stages, warps, registers_per_thread, swizzle;
  std::optional<hw::ClusterShape> cluster;
};

struct GemmWorkload {
  std::string name;
  GemmProblem problem;
  std::string schedule = "data_parallel";  // a name in the GEMM schedule registry
  std::string kernel = "library";          // a kernel profile of the hardware
  TileOverride tile;
  std::optional<int> splits;
  config::SourceLocation where;         // of the workload's entry, for later errors
  config::SourceLocation kernel_where;  // of `kernel:` (or the entry), for an unknown profile
};

}  // namespace tilesim::workloads
