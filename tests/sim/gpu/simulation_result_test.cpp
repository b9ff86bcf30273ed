// SimulationResult's summaries (start, end, traffic, SM utilization) on
// hand-made records, and end-to-end gpu::simulate runs on a tiny hand-made GPU
// whose every timing can be worked out on paper.

#include "sim/gpu/simulation_result.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "hwmodels/hardware_spec.hpp"
#include "sim/engine/sim_time.hpp"
#include "sim/gpu/gpu_simulation.hpp"
#include "sim/gpu/kernel_plan.hpp"
#include "tests/support/tiny_gpu.hpp"

namespace tilesim::gpu {
namespace {

using testing::compute;
using testing::kernel;
using testing::one_us_of_compute;
using testing::read;
using testing::tiny_gpu;
using testing::write;

sim::SimTime ps(std::int64_t value) {
  return sim::SimTime::from_ps(value);
}
// Whole microseconds in picoseconds.
constexpr std::int64_t kUs = 1'000'000;

// ---------------------------------------------------------------------------
// Summaries of hand-made results.

KernelRecord kernel_record(std::int64_t start_ps, std::int64_t end_ps) {
  KernelRecord kernel;
  kernel.start = ps(start_ps);
  kernel.end = ps(end_ps);
  return kernel;
}

CtaRecord cta_record(int sm, std::int64_t dispatched_ps, std::int64_t finished_ps) {
  CtaRecord cta;
  cta.sm = sm;
  cta.dispatched = ps(dispatched_ps);
  cta.finished = ps(finished_ps);
  return cta;
}

TEST(SimulationResult, AnEmptyResultIsZero) {
  const SimulationResult result;
  EXPECT_EQ(result.start().ps(), 0);
  EXPECT_EQ(result.end().ps(), 0);
  EXPECT_DOUBLE_EQ(result.time_us(), 0);
  EXPECT_DOUBLE_EQ(result.flops(), 0);
  EXPECT_DOUBLE_EQ(result.sm_utilization(), 0);
}

TEST(SimulationResult, StartAndEndSpanAllKernelsWhateverTheirOrder) {
  SimulationResult result;
  result.kernels = {kernel_record(3 * kUs, 5 * kUs), kernel_record(1 * kUs, 4 * kUs),
                    kernel_record(2 * kUs, 2'500'000)};
  EXPECT_EQ(result.start().ps(), 1 * kUs);
  EXPECT_EQ(result.end().ps(), 5 * kUs);
  EXPECT_DOUBLE_EQ(result.time_us(), 4.0);
}

TEST(SimulationResult, TrafficAndFlopsAreSummedOverKernels) {
  SimulationResult result;
  result.kernels = {kernel_record(0, 1), kernel_record(1, 2)};
  result.kernels[0].traffic = MemoryTraffic{100, 40, 7};
  result.kernels[0].flops = 1000;
  result.kernels[1].traffic = MemoryTraffic{20, 5, 3};
  result.kernels[1].flops = 24;
  const MemoryTraffic total = result.traffic();
  EXPECT_DOUBLE_EQ(total.l2_read_bytes, 120);
  EXPECT_DOUBLE_EQ(total.hbm_read_bytes, 45);
  EXPECT_DOUBLE_EQ(total.write_bytes, 10);
  EXPECT_DOUBLE_EQ(total.hbm_bytes(), 55);  // misses + write-back
  EXPECT_DOUBLE_EQ(result.flops(), 1024);
}

TEST(SimulationResult, SmUtilizationCountsOverlappingCtasOnceAndDisjointOnesApart) {
  SimulationResult result;
  result.sm_count = 3;
  result.kernels = {kernel_record(0, 1000)};
  result.ctas = {// SM 0: [0, 600) and [400, 1000) overlap -> busy 1000.
                 cta_record(0, 400, 1000), cta_record(0, 0, 600),
                 // SM 1: [100, 200) and [300, 500) are disjoint -> busy 300; the nested
                 // [350, 450) adds nothing.
                 cta_record(1, 300, 500), cta_record(1, 100, 200), cta_record(1, 350, 450),
                 // SM 2: touching [0, 100) + [100, 250) -> busy 250.
                 cta_record(2, 100, 250), cta_record(2, 0, 100)};
  // (1000 + 300 + 250) / (1000 ps x 3 SMs) = 1550 / 3000.
  EXPECT_DOUBLE_EQ(result.sm_utilization(), 1550.0 / 3000.0);
}

TEST(SimulationResult, SmUtilizationCountsIdleSmsAndGapsBetweenKernels) {
  SimulationResult result;
  result.sm_count = 4;
  result.kernels = {kernel_record(0, 100), kernel_record(300, 400)};
  result.ctas = {cta_record(0, 0, 100), cta_record(0, 300, 400), cta_record(1, 0, 100)};
  // Span 400 ps x 4 SMs = 1600; busy 200 (SM 0) + 100 (SM 1) = 300.
  EXPECT_DOUBLE_EQ(result.sm_utilization(), 300.0 / 1600.0);
}

// ---------------------------------------------------------------------------
// End to end: gpu::simulate on the tiny GPU of tests/support/tiny_gpu.hpp.

TEST(GpuSimulate, ThreeComputeCtasOnTwoSingleSlotSmsTakeTwoWaves) {
  KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const SimulationResult result = simulate(plan, tiny_gpu());
  // Ready at 5 + 2 = 7 us. CTAs 0 and 1 take SMs 0 and 1 at 7 us, start work
  // after the 0.5 us dispatch, end at 8.5 us. CTA 2 then takes SM 0 (both
  // free: lowest index) at 8.5 us and ends at 8.5 + 0.5 + 1 = 10 us.
  ASSERT_EQ(result.kernels.size(), 1u);
  const KernelRecord& record = result.kernels[0];
  EXPECT_EQ(record.start.ps(), 7 * kUs);
  EXPECT_EQ(record.end.ps(), 10 * kUs);
  EXPECT_DOUBLE_EQ(result.time_us(), 3.0);
  EXPECT_EQ(record.ctas_per_sm, 1);
  EXPECT_DOUBLE_EQ(record.waves, 1.5);  // 3 CTAs / (2 SMs x 1)
  EXPECT_EQ(result.sm_count, 2);
  EXPECT_EQ(result.max_ctas_per_sm, 1);

  ASSERT_EQ(result.ctas.size(), 3u);
  const CtaRecord& last = result.ctas.back();  // records are in finishing order
  EXPECT_EQ(last.cta, 2);
  EXPECT_EQ(last.sm, 0);
  EXPECT_EQ(last.slot, 0);
  EXPECT_EQ(last.dispatched.ps(), 8'500'000);
  EXPECT_EQ(last.finished.ps(), 10 * kUs);
  ASSERT_EQ(last.outcome.segments.size(), 1u);
  EXPECT_EQ(last.outcome.segments[0].label.tile_row, 2);
  // SM 0 busy 7..10 us, SM 1 busy 7..8.5 us: 4.5 / (3 x 2) = 0.75.
  EXPECT_DOUBLE_EQ(result.sm_utilization(), 0.75);
}

TEST(GpuSimulate, KernelFlopsAreRecorded) {
  // KernelRecord::flops ("as issued") is summed by SimulationResult::flops()
  // and written to the JSON report; each CTA's record carries its own share.
  KernelPlan plan;
  plan.kernels = {kernel("gemm", 3, one_us_of_compute)};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_DOUBLE_EQ(result.kernels[0].flops, 3e6);
  EXPECT_DOUBLE_EQ(result.flops(), 3e6);
  ASSERT_EQ(result.ctas.size(), 3u);
  for (const CtaRecord& cta : result.ctas) EXPECT_DOUBLE_EQ(cta.outcome.flops, 1e6);
}

TEST(GpuSimulate, ExecutionUnitsAndEfficiencySetComputeTime) {
  // One CTA, three steps in sequence:
  //   tensor 1e6 flops at 50% efficiency: 1e6 / 5e11 = 2 us;
  //   fp32 1e5 flops: 1e5 / 1e11 = 1 us;  sfu 3e4 ops: 3e4 / 1e10 = 3 us.
  KernelPlan plan;
  plan.kernels = {kernel("mixed", 1, [](std::int64_t) {
    return std::vector<CtaStep>{compute(1e6), compute(1e5, ExecutionUnit::fp32),
                                compute(3e4, ExecutionUnit::sfu)};
  })};
  plan.kernels[0].tensor_efficiency = 0.5;
  const SimulationResult result = simulate(plan, tiny_gpu());
  // Starts at 7 us, works from 7.5 us for 2 + 1 + 3 = 6 us.
  EXPECT_EQ(result.kernels[0].end.ps(), 13'500'000);
}

TEST(GpuSimulate, HbmReadsTakeBytesOverSustainedBandwidthPlusLatency) {
  // 2 CTAs each read 1e6 distinct bytes (all L2 misses): 2e6 B at 0.1 B/ps =
  // 20 us (L2 at 1 B/ps and each port at 0.4 B/ps are not binding).
  // Ready 7 us, dispatch 0.5 us, first data after the HBM latency 0.5 us:
  // ends at 7 + 0.5 + 0.5 + 20 = 28 us.
  KernelPlan plan;
  plan.kernels = {kernel("stream", 2, [](std::int64_t cta) {
    return std::vector<CtaStep>{read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, 1e6, true)};
  })};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].start.ps(), 7 * kUs);
  EXPECT_EQ(result.kernels[0].end.ps(), 28 * kUs);
  EXPECT_DOUBLE_EQ(result.time_us(), 21.0);
  const MemoryTraffic traffic = result.traffic();
  EXPECT_DOUBLE_EQ(traffic.l2_read_bytes, 2e6);
  EXPECT_DOUBLE_EQ(traffic.hbm_read_bytes, 2e6);
  EXPECT_DOUBLE_EQ(traffic.write_bytes, 0);
}

TEST(GpuSimulate, BandwidthSamplesFollowTheRateChanges) {
  // The HBM kernel above: both flows start at 8 us (after dispatch and
  // latency), pulling 2 x 1e6 B x 5e-8 /ps = 0.1 B/ps = 1e11 B/s through HBM
  // and L2, and end together at 28 us. Nothing is in flight before 8 us (the
  // latency wait is not a flow), so there are exactly two samples.
  KernelPlan plan;
  plan.kernels = {kernel("stream", 2, [](std::int64_t cta) {
    return std::vector<CtaStep>{read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, 1e6, true)};
  })};
  const SimulationResult result = simulate(plan, tiny_gpu(), SimulationOptions{true});
  ASSERT_EQ(result.bandwidth.size(), 2u);
  EXPECT_EQ(result.bandwidth[0].time.ps(), 8 * kUs);
  EXPECT_NEAR(result.bandwidth[0].hbm_bytes_per_s, 1e11, 1e3);
  EXPECT_NEAR(result.bandwidth[0].l2_bytes_per_s, 1e11, 1e3);
  EXPECT_EQ(result.bandwidth[1].time.ps(), 28 * kUs);
  EXPECT_DOUBLE_EQ(result.bandwidth[1].hbm_bytes_per_s, 0);
  EXPECT_DOUBLE_EQ(result.bandwidth[1].l2_bytes_per_s, 0);
  // Without the option, no samples.
  EXPECT_TRUE(simulate(plan, tiny_gpu()).bandwidth.empty());
}

TEST(GpuSimulate, ASecondKernelRereadingTheSameBlocksHitsInL2) {
  // Kernel 0 as above ends at 28 us. Kernel 1 (ready at 2 x 5 + 2 = 12 us)
  // waits for it and the front end's dependency gap (graph node 1 us - CTA
  // dispatch 0.5 us), starts at 28.5 us and re-reads the same 2 x 1e6 bytes:
  // all hits (8 MiB L2), so no HBM traffic and each CTA is bound by its L2
  // port: 1e6 B / 0.4 B/ps = 2.5 us (L2 itself: 2e6 / 1 = 2 us). Latency is
  // the L2 hit latency 0.2 us: 28.5 + 0.5 + 0.2 + 2.5 = 31.7 us.
  auto same_blocks = [](std::int64_t cta) {
    return std::vector<CtaStep>{read(BlockKey{0, static_cast<std::uint32_t>(cta), 0}, 1e6, true)};
  };
  KernelPlan plan;
  plan.kernels = {kernel("first", 2, same_blocks), kernel("again", 2, same_blocks)};
  const SimulationResult result = simulate(plan, tiny_gpu());
  ASSERT_EQ(result.kernels.size(), 2u);
  EXPECT_EQ(result.kernels[0].end.ps(), 28 * kUs);
  EXPECT_EQ(result.kernels[1].start.ps(), 28'500'000);
  EXPECT_EQ(result.kernels[1].end.ps(), 31'700'000);
  EXPECT_DOUBLE_EQ(result.kernels[0].traffic.hbm_read_bytes, 2e6);
  EXPECT_DOUBLE_EQ(result.kernels[1].traffic.hbm_read_bytes, 0);
  EXPECT_DOUBLE_EQ(result.kernels[1].traffic.l2_read_bytes, 2e6);
}

TEST(GpuSimulate, AMulticastReadIsRequestedFromL2Once) {
  // A cluster of 2 CTAs receives one 1e6-byte block by multicast: each CTA
  // counts 1e6 / 2 bytes of L2 reads (1e6 together); the first read misses
  // (1e6 bytes from HBM), the second finds the block in L2.
  KernelPlan plan;
  plan.kernels = {kernel("multicast", 2, [](std::int64_t) {
    CtaStep step;
    step.reads = {BlockRead{BlockKey{5, 0, 0}, 1e6, 2}};
    return std::vector<CtaStep>{step};
  })};
  plan.kernels[0].cluster_size = 2;
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_DOUBLE_EQ(result.traffic().l2_read_bytes, 1e6);
  EXPECT_DOUBLE_EQ(result.traffic().hbm_read_bytes, 1e6);
  ASSERT_EQ(result.ctas.size(), 2u);
  EXPECT_EQ(result.ctas[0].dispatched, result.ctas[1].dispatched);  // together
}

TEST(GpuSimulate, BytesInFlightLimitOneCtaByLittlesLaw) {
  // One CTA reads 1e6 missing bytes with 10000 bytes in flight: 10000 B per
  // 500 ns HBM latency = 0.02 B/ps (HBM could give 0.1), so 1e6 / 0.02 =
  // 50 us. No pipeline-fill wait: 7 + 0.5 + 50 = 57.5 us.
  KernelPlan plan;
  plan.kernels = {kernel("latency_bound", 1, [](std::int64_t) {
    CtaStep step = read(BlockKey{3, 0, 0}, 1e6);
    step.bytes_in_flight = 10000;
    return std::vector<CtaStep>{step};
  })};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].end.ps(), 57'500'000);
}

TEST(GpuSimulate, ANarrowGatherIsHeldByItsSmsLoadPath) {
  // One CTA reads 1e6 missing bytes whose loads pass the SM's load path at 50
  // bytes a clock (1 GHz): 0.05 B/ps, under HBM's 0.1 and the L2 port's 0.4,
  // so 1e6 / 0.05 = 20 us. 7 + 0.5 + 20 = 27.5 us (HBM alone: 17.5).
  KernelPlan plan;
  plan.kernels = {kernel("gather", 1, [](std::int64_t) {
    CtaStep step = read(BlockKey{3, 0, 0}, 1e6);
    step.load_path_bytes_per_clock = 50;
    return std::vector<CtaStep>{step};
  })};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].end.ps(), 27'500'000);
}

TEST(GpuSimulate, AStepLastsAsLongAsItsSlowestPart) {
  // Reads of 1e5 missing bytes (1 us at 0.1 B/ps) overlapped with 2e6 flops
  // (2 us): 2 us. Then a write of 2e5 bytes through HBM: 2 us.
  // 7 + 0.5 + 2 + 2 = 11.5 us.
  KernelPlan plan;
  plan.kernels = {kernel("overlap", 1, [](std::int64_t) {
    CtaStep step = read(BlockKey{4, 0, 0}, 1e5);
    step.flops = 2e6;
    return std::vector<CtaStep>{step, write(2e5)};
  })};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].end.ps(), 11'500'000);
  EXPECT_DOUBLE_EQ(result.kernels[0].traffic.write_bytes, 2e5);
  EXPECT_DOUBLE_EQ(result.kernels[0].traffic.hbm_bytes(), 3e5);
}

TEST(GpuSimulate, EagerLaunchesOfTinyKernelsAreHostBound) {
  // Three 1-CTA kernels of 1 us: each is done 1.5 us after it is ready, long
  // before the host issues the next one, so they start one host issue (5 us)
  // apart: 7, 12, 17 us; the last ends at 18.5 us.
  KernelPlan plan;
  for (int i = 0; i < 3; ++i) {
    plan.kernels.push_back(kernel(std::to_string(i), 1, one_us_of_compute));
  }
  const SimulationResult result = simulate(plan, tiny_gpu());
  ASSERT_EQ(result.kernels.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const auto i64 = static_cast<std::int64_t>(i);
    EXPECT_EQ(result.kernels[i].start.ps(), 7 * kUs + i64 * 5 * kUs);
    EXPECT_EQ(result.kernels[i].end.ps(), 8'500'000 + i64 * 5 * kUs);
    EXPECT_EQ(result.kernels[i].host_issue_begin.ps(), i64 * 5 * kUs);
    EXPECT_EQ(result.kernels[i].host_issue_end.ps(), (i64 + 1) * 5 * kUs);
  }
  EXPECT_DOUBLE_EQ(result.time_us(), 11.5);
}

TEST(GpuSimulate, ACudaGraphOfTinyKernelsIsDeviceBound) {
  // Nodes arrive at 7, 8, 9 us, but each kernel waits for the previous one of
  // its stream (1.5 us each) and the 0.5 us dependency gap: 7..8.5, 9..10.5,
  // 11..12.5 us -- 2 us a node, where eager launches take the 5 us host issue.
  KernelPlan plan;
  plan.mode = LaunchMode::cuda_graph;
  for (int i = 0; i < 3; ++i) {
    plan.kernels.push_back(kernel(std::to_string(i), 1, one_us_of_compute));
  }
  const SimulationResult result = simulate(plan, tiny_gpu());
  ASSERT_EQ(result.kernels.size(), 3u);
  EXPECT_EQ(result.kernels[0].start.ps(), 7 * kUs);
  EXPECT_EQ(result.kernels[1].start.ps(), 9 * kUs);
  EXPECT_EQ(result.kernels[2].start.ps(), 11 * kUs);
  EXPECT_EQ(result.kernels[2].end.ps(), 12'500'000);
  EXPECT_DOUBLE_EQ(result.time_us(), 5.5);
}

TEST(GpuSimulate, KernelsOnOtherStreamsOverlapAndOnTheSameStreamWait) {
  // A: 1 CTA of 10 us on stream 0 (SM 0, 7.5..17.5 us). B: 1 CTA of 1 us,
  // ready at 12 us.
  auto ten_us = [](std::int64_t) { return std::vector<CtaStep>{compute(1e7)}; };
  {
    // On stream 1, B runs on the free SM 1 at once: 12..13.5 us.
    KernelPlan plan;
    plan.kernels = {kernel("A", 1, ten_us, 0), kernel("B", 1, one_us_of_compute, 1)};
    const SimulationResult result = simulate(plan, tiny_gpu());
    EXPECT_EQ(result.kernels[1].start.ps(), 12 * kUs);
    EXPECT_EQ(result.kernels[1].end.ps(), 13'500'000);
    EXPECT_EQ(result.kernels[0].end.ps(), 17'500'000);
    EXPECT_EQ(result.ctas.front().sm, 1);  // B's CTA finished first, on SM 1
  }
  {
    // On stream 0, B waits for A and the 0.5 us dependency gap: 18..19.5 us.
    KernelPlan plan;
    plan.kernels = {kernel("A", 1, ten_us, 0), kernel("B", 1, one_us_of_compute, 0)};
    const SimulationResult result = simulate(plan, tiny_gpu());
    EXPECT_EQ(result.kernels[1].start.ps(), 18 * kUs);
    EXPECT_EQ(result.kernels[1].end.ps(), 19'500'000);
  }
}

TEST(GpuSimulate, ADependencyOnAnotherStreamIsHonoured) {
  // As above, but B on stream 1 depends on A (a CUDA event): it cannot use the
  // free SM at 12 us and starts 0.5 us after A ends: 18..19.5 us.
  auto ten_us = [](std::int64_t) { return std::vector<CtaStep>{compute(1e7)}; };
  KernelPlan plan;
  plan.kernels = {kernel("A", 1, ten_us, 0), kernel("B", 1, one_us_of_compute, 1)};
  plan.kernels[1].depends_on = {0};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].end.ps(), 17'500'000);
  EXPECT_EQ(result.kernels[1].ready.ps(), 18 * kUs);
  EXPECT_EQ(result.kernels[1].start.ps(), 18 * kUs);
  EXPECT_EQ(result.kernels[1].end.ps(), 19'500'000);
}

TEST(GpuSimulate, AJoinWaitsForTheLastOfItsDependencies) {
  // A (10 us) and B (1 us) on streams 0 and 1; C on stream 2 depends on both:
  // it starts 0.5 us after A, the later one, ends (17.5 us).
  auto ten_us = [](std::int64_t) { return std::vector<CtaStep>{compute(1e7)}; };
  KernelPlan plan;
  plan.kernels = {kernel("A", 1, ten_us, 0), kernel("B", 1, one_us_of_compute, 1),
                  kernel("C", 1, one_us_of_compute, 2)};
  plan.kernels[2].depends_on = {0, 1};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_LT(result.kernels[1].end, result.kernels[0].end);
  EXPECT_EQ(result.kernels[2].start.ps(), 18 * kUs);
}

TEST(GpuSimulate, ADependencyOnALaterLaunchIsRejected) {
  KernelPlan plan;
  plan.kernels = {kernel("A", 1, one_us_of_compute, 0), kernel("B", 1, one_us_of_compute, 1)};
  plan.kernels[0].depends_on = {1};
  EXPECT_THROW(simulate(plan, tiny_gpu()), std::invalid_argument);
}

TEST(GpuSimulate, AKernelStartsWhenItsFirstCtaIsDispatched) {
  // KernelRecord::start is documented as "first CTA dispatched". A fills both
  // SMs (2 CTAs, 7.5..17.5 us); B on another stream is ready at 12 us but gets
  // no SM until 17.5 us, so it starts then (and ends at 19 us). The model sets
  // start when the kernel becomes startable (12 us), which counts 5.5 us of
  // queueing as kernel time.
  auto ten_us = [](std::int64_t) { return std::vector<CtaStep>{compute(1e7)}; };
  KernelPlan plan;
  plan.kernels = {kernel("A", 2, ten_us, 0), kernel("B", 1, one_us_of_compute, 1)};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[1].end.ps(), 19 * kUs);
  EXPECT_EQ(result.kernels[1].start.ps(), 17'500'000);
}

TEST(GpuSimulate, AClusterIsDispatchedWholeOrNotAtAll) {
  // A (stream 0) holds SM 0 for 7.5..17.5 us. B (stream 1) is one cluster of
  // 2 CTAs, ready at 12 us: one free SM is not enough, so both CTAs go out
  // together at 17.5 us and end at 17.5 + 0.5 + 1 = 19 us.
  auto ten_us = [](std::int64_t) { return std::vector<CtaStep>{compute(1e7)}; };
  KernelPlan plan;
  plan.kernels = {kernel("A", 1, ten_us, 0), kernel("B", 2, one_us_of_compute, 1)};
  plan.kernels[1].cluster_size = 2;
  const SimulationResult result = simulate(plan, tiny_gpu());
  ASSERT_EQ(result.ctas.size(), 3u);
  for (const CtaRecord& cta : result.ctas) {
    if (cta.kernel != 1) continue;
    EXPECT_EQ(cta.dispatched.ps(), 17'500'000);
    EXPECT_EQ(cta.finished.ps(), 19 * kUs);
  }
}

TEST(GpuSimulate, AnEmptyKernelStartsAndEndsWhenReady) {
  KernelPlan plan;
  plan.kernels = {kernel("empty", 0, one_us_of_compute)};
  const SimulationResult result = simulate(plan, tiny_gpu());
  EXPECT_EQ(result.kernels[0].start.ps(), 7 * kUs);
  EXPECT_EQ(result.kernels[0].end.ps(), 7 * kUs);
  EXPECT_TRUE(result.ctas.empty());
}

TEST(GpuSimulate, ACtaThatDoesNotFitIsRejected) {
  KernelPlan plan;
  plan.kernels = {kernel("too_big", 1, one_us_of_compute)};
  plan.kernels[0].footprint.shared_memory_bytes = 65536;  // + 1 KiB reserved > 64 KiB
  EXPECT_THROW(simulate(plan, tiny_gpu()), std::invalid_argument);
}

TEST(GpuSimulate, IsDeterministic) {
  // Many CTAs with mixed reads (shared and private blocks) on both SMs.
  auto mixed = [](std::int64_t cta) {
    CtaStep step = read(BlockKey{0, static_cast<std::uint32_t>(cta % 3), 0},
                        3e4 + 1e3 * static_cast<double>(cta));
    step.reads.push_back(BlockRead{BlockKey{1, static_cast<std::uint32_t>(cta), 0}, 2e4, 1});
    step.flops = 1e5 * static_cast<double>(1 + cta % 4);
    step.bytes_in_flight = 8192;
    return std::vector<CtaStep>{step, write(1e4)};
  };
  KernelPlan plan;
  plan.kernels = {kernel("a", 17, mixed, 0), kernel("b", 9, mixed, 1)};
  const SimulationResult first = simulate(plan, tiny_gpu());
  const SimulationResult second = simulate(plan, tiny_gpu());
  ASSERT_EQ(first.ctas.size(), 26u);
  ASSERT_EQ(second.ctas.size(), 26u);
  for (std::size_t i = 0; i < first.ctas.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(first.ctas[i].kernel, second.ctas[i].kernel);
    EXPECT_EQ(first.ctas[i].cta, second.ctas[i].cta);
    EXPECT_EQ(first.ctas[i].sm, second.ctas[i].sm);
    EXPECT_EQ(first.ctas[i].dispatched, second.ctas[i].dispatched);
    EXPECT_EQ(first.ctas[i].finished, second.ctas[i].finished);
  }
  EXPECT_EQ(first.events, second.events);
  EXPECT_GT(first.events, 0u);
}

}  // namespace
}  // namespace tilesim::gpu
