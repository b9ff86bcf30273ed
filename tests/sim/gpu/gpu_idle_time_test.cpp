// Launch gaps and SM idle time of hand-made results.

#include "sim/gpu/gpu_idle_time.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace tilesim::gpu {
namespace {

KernelRecord kernel_record(std::int64_t start_ps, std::int64_t end_ps) {
  KernelRecord kernel;
  kernel.start = sim::SimTime::from_ps(start_ps);
  kernel.end = sim::SimTime::from_ps(end_ps);
  return kernel;
}

CtaRecord cta_record(std::int32_t kernel, int sm, std::int64_t dispatched_ps,
                     std::int64_t finished_ps) {
  CtaRecord cta;
  cta.kernel = kernel;
  cta.sm = sm;
  cta.dispatched = sim::SimTime::from_ps(dispatched_ps);
  cta.finished = sim::SimTime::from_ps(finished_ps);
  return cta;
}

TEST(GpuIdleTime, AGapIsTimeWithNoKernelRunning) {
  // 0..100, then 150..400 overlapping 300..350, then 500..600: gaps of 50
  // before the second and 100 before the fourth; none before the third.
  SimulationResult result;
  result.sm_count = 2;
  result.kernels = {kernel_record(0, 100), kernel_record(150, 400), kernel_record(300, 350),
                    kernel_record(500, 600)};
  const std::vector<KernelIdleTime> idle = kernel_idle_times(result);
  ASSERT_EQ(idle.size(), 4u);
  EXPECT_EQ(idle[0].gap_before.ps(), 0);
  EXPECT_EQ(idle[1].gap_before.ps(), 50);
  EXPECT_EQ(idle[2].gap_before.ps(), 0);
  EXPECT_EQ(idle[3].gap_before.ps(), 100);
  EXPECT_EQ(launch_gaps(result).ps(), 150);
}

TEST(GpuIdleTime, SmIdleTimeCountsOnlyTheKernelsOwnCtas) {
  // Kernel 0 spans 0..1000 ps on 2 SMs: SM 0 busy 0..1000 (two overlapping
  // CTAs), SM 1 busy 0..500: idle (2000 - 1500) / 2 = 250 ps. Kernel 1's CTA
  // on SM 1 does not count for kernel 0.
  SimulationResult result;
  result.sm_count = 2;
  result.kernels = {kernel_record(0, 1000), kernel_record(500, 1000)};
  result.ctas = {cta_record(0, 0, 0, 600), cta_record(0, 0, 400, 1000), cta_record(0, 1, 0, 500),
                 cta_record(1, 1, 500, 1000)};
  const std::vector<KernelIdleTime> idle = kernel_idle_times(result);
  EXPECT_NEAR(idle[0].sm_idle_us, 250e-6, 1e-12);
  EXPECT_NEAR(idle[1].sm_idle_us, 250e-6, 1e-12);  // SM 0 has none of its CTAs
  EXPECT_NEAR(sm_idle_us(result), 0, 1e-12);       // every SM busy over 0..1000
}

}  // namespace
}  // namespace tilesim::gpu
