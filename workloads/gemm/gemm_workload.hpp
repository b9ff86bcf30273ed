#pragma once
// One GEMM workload of a study: C[m x n] = A[m x k] * B[k x n], row-major,
// fp32 accumulation, plus the schedule and kernel the user asked for.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "hwmodels/data_type.hpp"
#include "hwmodels/diagnostics.hpp"
#include "hwmodels/hardware_spec.hpp"

namespace tilesim::workloads {

struct GemmFusion;  // workloads/gemm/gemm_fusion.hpp

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

// How split-K adds the slices of a tile: `serial` orders them with a semaphore
// (each reads the previous partial); `parallel` writes fp32 partials and runs a
// separate reduction kernel.
enum class SplitKReduction { serial, parallel };
// Stream-K: `pure` spreads all MAC iterations over a persistent grid;
// `dp_one_tile` runs full data-parallel waves and Stream-K on the partial last
// wave; `two_tile` runs one fewer data-parallel wave so that each Stream-K CTA
// gets between one and two tiles of iterations; `wave_fit` is `two_tile`,
// except that tiles which fit in one wave of the persistent grid are left
// whole and run as a data-parallel kernel (nothing to balance, only fixup to pay);
// `tile_fit` is `wave_fit` with the tile picked per shape: the kernel
// profile's `one_wave_kernel` where its tiles fit in one wave (so they run
// whole), the profile itself otherwise.
enum class StreamKMode { pure, dp_one_tile, two_tile, wave_fit, tile_fit };
// How Stream-K peers fix up a shared tile: `deterministic` adds partials in k
// order (a turnstile); `atomic` adds them as they come.
enum class FixupOrder { deterministic, atomic };

struct GemmWorkload {
  std::string name;
  GemmProblem problem;
  std::string schedule = "data_parallel";  // a name in the GEMM schedule registry
  // data_parallel on a persistent grid: SMs x occupancy CTAs, CTA b running
  // tiles b, b + grid, ... back to back (data_parallel_schedule.hpp).
  bool persistent = false;
  std::string kernel = "library";  // a kernel profile of the hardware
  TileOverride tile;
  std::optional<int> splits;
  SplitKReduction reduction = SplitKReduction::serial;
  StreamKMode stream_k_mode = StreamKMode::two_tile;
  FixupOrder fixup = FixupOrder::deterministic;
  // Set by kernel graphs: shared tensors and fused work (null: a plain GEMM).
  std::shared_ptr<const GemmFusion> fusion;
  config::SourceLocation where;         // of the workload's entry, for later errors
  config::SourceLocation kernel_where;  // of `kernel:` (or the entry), for an unknown profile
};

}  // namespace tilesim::workloads
