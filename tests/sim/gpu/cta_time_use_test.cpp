// What CTAs' time went to (KernelRecord::time_use_per_sm), on the tiny GPU of
// tests/support/tiny_gpu.hpp, where every duration can be worked out on paper.

#include "sim/gpu/cta_time_use.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/gpu/gpu_simulation.hpp"
#include "tests/support/tiny_gpu.hpp"

namespace tilesim::gpu {
namespace {

using testing::compute;
using testing::kernel;
using testing::one_us_of_compute;
using testing::read;
using testing::tiny_gpu;

constexpr std::int64_t kUs = 1'000'000;  // in ps

SimulationResult simulate_attributed(const KernelPlan& plan) {
  SimulationOptions options;
  options.attribute_time = true;
  return simulate(plan, tiny_gpu(), options);
}

std::int64_t ps_of(const CtaTimeUses& uses, CtaTimeUse use) {
  return uses[use].ps();
}

TEST(CtaTimeUse, NothingIsRecordedUnlessAsked) {
  KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  EXPECT_TRUE(simulate(plan, tiny_gpu()).kernels[0].time_use_per_sm.empty());
  EXPECT_EQ(simulate_attributed(plan).kernels[0].time_use_per_sm.size(), 2u);
}

TEST(CtaTimeUse, AttributionChangesNoResult) {
  KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const SimulationResult plain = simulate(plan, tiny_gpu());
  const SimulationResult attributed = simulate_attributed(plan);
  EXPECT_EQ(plain.end(), attributed.end());
  EXPECT_EQ(plain.events, attributed.events);
}

TEST(CtaTimeUse, ComputeCtasAreDispatchThenTensorCores) {
  // Three CTAs of 1 us of tensor work on two SMs: SM 0 runs two of them.
  KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const SimulationResult result = simulate_attributed(plan);
  const CtaTimeUses& sm0 = result.kernels[0].time_use_per_sm[0];
  const CtaTimeUses& sm1 = result.kernels[0].time_use_per_sm[1];
  EXPECT_EQ(ps_of(sm0, CtaTimeUse::dispatch), 1 * kUs);  // 2 x 0.5 us
  EXPECT_EQ(ps_of(sm0, CtaTimeUse::tensor), 2 * kUs);
  EXPECT_EQ(sm0.total().ps(), 3 * kUs);
  EXPECT_EQ(ps_of(sm1, CtaTimeUse::dispatch), kUs / 2);
  EXPECT_EQ(ps_of(sm1, CtaTimeUse::tensor), 1 * kUs);
  EXPECT_EQ(sm1.total().ps(), 3 * kUs / 2);
}

TEST(CtaTimeUse, HbmReadsAreFillThenHbm) {
  // Two CTAs each read 1e6 missing bytes: dispatch 0.5 us, the HBM latency
  // 0.5 us before the first data, then 2e6 B at 0.1 B/ps shared: 20 us.
  KernelPlan plan;
  plan.kernels = {kernel("stream", 2, [](std::int64_t cta) {
    return std::vector<CtaStep>{read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, 1e6, true)};
  })};
  const SimulationResult result = simulate_attributed(plan);
  for (const CtaTimeUses& sm : result.kernels[0].time_use_per_sm) {
    EXPECT_EQ(ps_of(sm, CtaTimeUse::dispatch), kUs / 2);
    EXPECT_EQ(ps_of(sm, CtaTimeUse::pipeline_fill), kUs / 2);
    EXPECT_EQ(ps_of(sm, CtaTimeUse::hbm), 20 * kUs);
    EXPECT_EQ(sm.total().ps(), 21 * kUs);
  }
}

TEST(CtaTimeUse, AFlowFirstHeldByHbmThenByItsBytesInFlight) {
  // Two CTAs read missing bytes with 40000 bytes in flight each: Little's law
  // caps each at 40000 B / 500 ns = 0.08 B/ps. Together they would pull 0.16
  // B/ps, so HBM (0.1 B/ps) holds both to 0.05 B/ps. CTA 1 reads 2e5 bytes
  // and is done after 4 us; CTA 0 has read 2e5 of its 1e6 bytes by then and
  // reads the other 8e5 at its own cap: 10 us more.
  KernelPlan plan;
  plan.kernels = {kernel("two_phases", 2, [](std::int64_t cta) {
    CtaStep step = read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, cta == 0 ? 1e6 : 2e5);
    step.bytes_in_flight = 40000;
    return std::vector<CtaStep>{step};
  })};
  const SimulationResult result = simulate_attributed(plan);
  const CtaTimeUses& long_cta = result.kernels[0].time_use_per_sm[0];
  const CtaTimeUses& short_cta = result.kernels[0].time_use_per_sm[1];
  EXPECT_EQ(ps_of(long_cta, CtaTimeUse::hbm), 4 * kUs);
  EXPECT_EQ(ps_of(long_cta, CtaTimeUse::memory_latency), 10 * kUs);
  EXPECT_EQ(ps_of(short_cta, CtaTimeUse::hbm), 4 * kUs);
  EXPECT_EQ(ps_of(short_cta, CtaTimeUse::memory_latency), 0);
}

TEST(CtaTimeUse, L2HitsAreHeldByTheSmPort) {
  // The second kernel re-reads the first one's blocks (all hits): each CTA
  // pulls 1e6 B through its 0.4 B/ps port (2.5 us) after the L2 latency.
  auto same_blocks = [](std::int64_t cta) {
    return std::vector<CtaStep>{read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, 1e6, true)};
  };
  KernelPlan plan;
  plan.kernels = {kernel("first", 2, same_blocks), kernel("again", 2, same_blocks)};
  const SimulationResult result = simulate_attributed(plan);
  for (const CtaTimeUses& sm : result.kernels[1].time_use_per_sm) {
    EXPECT_EQ(ps_of(sm, CtaTimeUse::pipeline_fill), 200'000);
    EXPECT_EQ(ps_of(sm, CtaTimeUse::l2_port), 2'500'000);
  }
}

TEST(CtaTimeUse, EveryCtasUsesAddUpToItsResidency) {
  // Mixed steps on several kernels; per SM and kernel, the recorded uses add
  // up to the CTAs' time between dispatch and finish, to the picosecond.
  KernelPlan plan;
  plan.kernels = {kernel("mixed", 5,
                         [](std::int64_t cta) {
                           CtaStep step = read(BlockKey{1, static_cast<std::uint32_t>(cta % 2), 0},
                                               3e5 + 1e5 * static_cast<double>(cta), true);
                           step.flops = 1.5e6;
                           step.bytes_in_flight = 50000;
                           return std::vector<CtaStep>{step, compute(2e5, ExecutionUnit::sfu)};
                         }),
                  kernel("tail", 3, one_us_of_compute)};
  const SimulationResult result = simulate_attributed(plan);
  std::vector<std::vector<std::int64_t>> residency(2, std::vector<std::int64_t>(2, 0));
  for (const CtaRecord& cta : result.ctas) {
    residency[static_cast<std::size_t>(cta.kernel)][static_cast<std::size_t>(cta.sm)] +=
        (cta.finished - cta.dispatched).ps();
  }
  for (std::size_t k = 0; k < 2; ++k) {
    for (std::size_t sm = 0; sm < 2; ++sm) {
      SCOPED_TRACE(::testing::Message() << "kernel " << k << " sm " << sm);
      EXPECT_EQ(result.kernels[k].time_use_per_sm[sm].total().ps(), residency[k][sm]);
    }
  }
}

}  // namespace
}  // namespace tilesim::gpu
