// The lower bound `schedule: auto` prunes with must never exceed a simulated
// time, or auto could skip the true winner: checked for every auto candidate
// of shapes that stress each term (compute, L2, HBM), edge tiles and dtypes.

#include "workloads/gemm/gemm_time_bound.hpp"

#include <gtest/gtest.h>

#include "tests/support/shipped_hardware.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/schedule_candidates.hpp"
#include "workloads/study_runner.hpp"

namespace tilesim::workloads {
namespace {

struct Shape {
  std::int64_t m, n, k;
  hw::DataType dtype;
};

class GemmTimeBound : public ::testing::TestWithParam<Shape> {};

TEST_P(GemmTimeBound, NeverExceedsTheSimulatedTimeOfAnyCandidate) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const Shape shape = GetParam();
  GemmWorkload workload;
  workload.name = "bound";
  workload.problem = {shape.m, shape.n, shape.k, shape.dtype, shape.dtype};
  workload.schedule = "auto";
  const auto schedules = builtin_gemm_schedules();
  int tight = 0;
  for (const GemmWorkload& candidate : auto_candidates(workload, spec)) {
    const auto kernel = resolve_gemm_kernel(candidate, spec);
    ASSERT_TRUE(kernel.ok()) << kernel.diagnostics.format();
    const double bound_us = gemm_time_lower_bound_s(candidate.problem, *kernel.value, spec) * 1e6;
    const auto run = simulate_gemm(candidate, spec, schedules, {});
    ASSERT_TRUE(run.ok()) << run.diagnostics.format();
    const double time_us = run.value->result.time_us();
    EXPECT_LE(bound_us, time_us) << run.value->schedule << " " << kernel.value->tile_m << "x"
                                 << kernel.value->tile_n;
    // The bound runs the tensor cores at sm.clock; the power law may hold
    // the simulated kernel to ~2/3 of it, and small kernels pay fixed costs.
    if (bound_us > 0.25 * time_us) ++tight;
  }
  // A bound far below every time would prune nothing.
  EXPECT_GT(tight, 0);
}

// auto also stops a candidate's run once it passes the second-best time: the
// run stops exactly when its full time would exceed the limit, exact or
// approximate (power-limited or not), with the bound on the work it has left
// (bound_remaining_work) or without; at 80% of its time the bound stops it
// no later.
TEST_P(GemmTimeBound, ARunStopsOnlyPastItsTimeLimit) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const Shape shape = GetParam();
  GemmWorkload workload;
  workload.name = "limit";
  workload.problem = {shape.m, shape.n, shape.k, shape.dtype, shape.dtype};
  workload.schedule = "auto";
  const auto schedules = builtin_gemm_schedules();
  for (const bool approximate : {false, true}) {
    for (const GemmWorkload& candidate : auto_candidates(workload, spec)) {
      gpu::SimulationOptions options;
      options.set_approximate(approximate);
      const gpu::SimulationResult full =
          simulate_gemm(candidate, spec, schedules, options).value->result;
      const double full_s = (full.end() - full.start()).seconds();
      options.stop_after_s = 0.8 * full_s;
      const std::uint64_t unbounded_events =
          simulate_gemm(candidate, spec, schedules, options).value->result.events;
      for (const bool bounded : {false, true}) {
        if (bounded) {
          bound_remaining_work(options, candidate.problem,
                               *resolve_gemm_kernel(candidate, spec).value, spec);
          options.stop_after_s = 0.8 * full_s;
          const gpu::SimulationResult sooner =
              simulate_gemm(candidate, spec, schedules, options).value->result;
          EXPECT_TRUE(sooner.stopped);
          EXPECT_LE(sooner.events, unbounded_events);
        }
        options.stop_after_s = full_s;
        const gpu::SimulationResult at_limit =
            simulate_gemm(candidate, spec, schedules, options).value->result;
        EXPECT_FALSE(at_limit.stopped);
        EXPECT_EQ(at_limit.end(), full.end());
        options.stop_after_s = (full.end() - full.start() - sim::SimTime::from_ps(1)).seconds();
        EXPECT_TRUE(simulate_gemm(candidate, spec, schedules, options).value->result.stopped);
      }
    }
  }
}

// At 4096^3 `auto` simulates data-parallel 128x256 first (213.8 us) and stops
// the Stream-K modes (244-279 us) at its time: with the work left bounded,
// each stops after fewer events, exact and approximate (pure Stream-K's 132
// CTAs finish none before either stop).
GemmWorkload bf16_gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  GemmWorkload workload;
  workload.name = "work_left";
  workload.problem = {m, n, k, hw::DataType::bf16, hw::DataType::bf16};
  return workload;
}

TEST(GemmTimeBoundWorkLeft, StopsStreamKLosersSoonerAt4096) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto schedules = builtin_gemm_schedules();
  GemmWorkload workload = bf16_gemm(4096, 4096, 4096);
  for (const bool approximate : {false, true}) {
    gpu::SimulationOptions options;
    options.set_approximate(approximate);
    workload.schedule = "data_parallel";
    const gpu::SimulationResult winner =
        simulate_gemm(workload, spec, schedules, options).value->result;
    options.stop_after_s = (winner.end() - winner.start()).seconds();
    workload.schedule = "stream_k";
    for (const StreamKMode mode :
         {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile}) {
      workload.stream_k_mode = mode;
      gpu::SimulationOptions bounded = options;
      bound_remaining_work(bounded, workload.problem, *resolve_gemm_kernel(workload, spec).value,
                           spec);
      const gpu::SimulationResult without =
          simulate_gemm(workload, spec, schedules, options).value->result;
      const gpu::SimulationResult with =
          simulate_gemm(workload, spec, schedules, bounded).value->result;
      EXPECT_TRUE(without.stopped);
      EXPECT_TRUE(with.stopped);
      EXPECT_LT(with.events, without.events)
          << static_cast<int>(mode) << (approximate ? " approximate" : " exact");
    }
  }
}

// A run pays its kernels' fixed costs after its last CTA (ramp and drain, and
// the timed run's overhead, here made 50 us): one whose CTAs all end within
// its limit but whose fixed costs take it past stops well before its last
// CTA, exact and approximate.
TEST(GemmTimeBoundWorkLeft, CountsTheFixedCostsAfterTheLastCta) {
  hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  spec.kernel_profiles.at("library").kernel_overhead_s = 50e-6;
  const auto schedules = builtin_gemm_schedules();
  GemmWorkload workload = bf16_gemm(4096, 4096, 1024);  // 3.9 waves
  workload.schedule = "data_parallel";
  const hw::KernelProfile kernel = *resolve_gemm_kernel(workload, spec).value;
  const double fixed_s = kernel.ramp_and_drain_s + kernel.kernel_overhead_s;
  for (const bool approximate : {false, true}) {
    gpu::SimulationOptions options;
    options.set_approximate(approximate);
    const gpu::SimulationResult full =
        simulate_gemm(workload, spec, schedules, options).value->result;
    options.stop_after_s = (full.end() - full.start()).seconds() - fixed_s / 2;
    const gpu::SimulationResult unbounded =
        simulate_gemm(workload, spec, schedules, options).value->result;
    bound_remaining_work(options, workload.problem, kernel, spec);
    const gpu::SimulationResult bounded =
        simulate_gemm(workload, spec, schedules, options).value->result;
    EXPECT_TRUE(unbounded.stopped);
    EXPECT_EQ(unbounded.ctas.size(), full.ctas.size());
    EXPECT_TRUE(bounded.stopped);
    EXPECT_LT(bounded.ctas.size(), full.ctas.size()) << (approximate ? "approximate" : "exact");
  }
}

// In approximate mode (the load estimate builds the programs of the first
// rounds), a CTA still to dispatch waits for a resident one to end: at 1536^3,
// data-parallel 128x128 (144 tiles: a second wave of 12 CTAs, 24.8 us) stops
// at 85% of its time before its first wave ends, where the tensor flops left
// alone stop it only once the second wave has started.
TEST(GemmTimeBoundWorkLeft, StopsALoserWhoseNextWaveCannotEndInTime) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto schedules = builtin_gemm_schedules();
  GemmWorkload workload = bf16_gemm(1536, 1536, 1536);
  workload.schedule = "data_parallel";
  workload.tile.m = 128;
  workload.tile.n = 128;
  gpu::SimulationOptions options;
  options.set_approximate(true);
  const gpu::SimulationResult full =
      simulate_gemm(workload, spec, schedules, options).value->result;
  ASSERT_EQ(full.ctas.size(), 144u);
  options.stop_after_s = 0.85 * (full.end() - full.start()).seconds();
  bound_remaining_work(options, workload.problem, *resolve_gemm_kernel(workload, spec).value, spec);
  const gpu::SimulationResult bounded =
      simulate_gemm(workload, spec, schedules, options).value->result;
  EXPECT_TRUE(bounded.stopped);
  EXPECT_LT(bounded.ctas.size(), 132u);
}

// The unit fast-forward moves times once it is armed but counts each CTA's
// skipped flops only when the CTA jumps: a bound that ran on between the two
// counted them twice and stopped 4096x15360x5120's pure Stream-K, the
// approximate winner, at its own time.
TEST(GemmTimeBoundWorkLeft, DoesNotStopAPersistentGridWhileItsUnitsSkip) {
  GemmWorkload workload = bf16_gemm(4096, 15360, 5120);
  workload.schedule = "stream_k";
  workload.stream_k_mode = StreamKMode::pure;
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto schedules = builtin_gemm_schedules();
  gpu::SimulationOptions options;
  options.set_approximate(true);
  const gpu::SimulationResult full =
      simulate_gemm(workload, spec, schedules, options).value->result;
  options.stop_after_s = (full.end() - full.start()).seconds();
  bound_remaining_work(options, workload.problem, *resolve_gemm_kernel(workload, spec).value, spec);
  const gpu::SimulationResult bounded =
      simulate_gemm(workload, spec, schedules, options).value->result;
  EXPECT_FALSE(bounded.stopped);
  EXPECT_EQ(bounded.end(), full.end());
}

INSTANTIATE_TEST_SUITE_P(Shapes, GemmTimeBound,
                         ::testing::Values(Shape{4096, 4096, 4096, hw::DataType::bf16},
                                           Shape{1536, 1536, 1536, hw::DataType::bf16},
                                           Shape{1000, 3000, 700, hw::DataType::fp16},
                                           Shape{32, 4096, 4096, hw::DataType::bf16},
                                           Shape{256, 256, 65536, hw::DataType::bf16},
                                           Shape{2048, 2048, 2048, hw::DataType::fp8},
                                           Shape{512, 512, 512, hw::DataType::fp32}));

}  // namespace
}  // namespace tilesim::workloads
