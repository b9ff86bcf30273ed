// A GEMM schedule's CtaProgramSource::build reuses the storage of another
// CTA's program: what it builds must equal program() of the same CTA, field
// by field, whatever the reused program held (the simulation builds every
// program past the load estimate's rounds this way).

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "sim/gpu/kernel_plan.hpp"
#include "tests/support/gemm_workload.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/gemm/gemm_cta_program.hpp"
#include "workloads/gemm/gemm_kernel_config.hpp"
#include "workloads/gemm/gemm_schedule.hpp"
#include "workloads/gemm/whole_tile_programs.hpp"

namespace tilesim::workloads {
namespace {

// The fields of a program's parts, as tuples that compare and print.
auto fields(const gpu::BlockRead& read) {
  return std::tie(read.key, read.bytes, read.multicast, read.part_begin, read.part_end);
}
auto fields(const gpu::CtaWorkLabel& label) {
  return std::tie(label.tile_row, label.tile_col, label.k_begin, label.k_end);
}
auto fields(const gpu::CtaStep& step) {
  return std::make_tuple(step.write_bytes, step.write_key, step.unit, step.mma_type, step.flops,
                         step.bytes_in_flight, step.first_data_waits, step.read_latency_s,
                         step.setup_s, step.wait.has_value(), step.wait ? step.wait->flag : 0,
                         step.wait ? step.wait->count : 0, step.wake_s, step.signal, step.segment);
}

template <typename Part>
void expect_same_parts(const Part& built, const Part& fresh) {
  ASSERT_EQ(built.size(), fresh.size());
  for (std::size_t i = 0; i < built.size(); ++i) EXPECT_EQ(fields(built[i]), fields(fresh[i]));
}

void expect_same_program(const gpu::CtaProgram& built, const gpu::CtaProgram& fresh) {
  EXPECT_EQ(built.tensor_speed, fresh.tensor_speed);
  expect_same_parts(built.segments, fresh.segments);
  expect_same_parts(built.steps, fresh.steps);
  ASSERT_EQ(built.steps.size(), fresh.steps.size());
  for (std::size_t i = 0; i < built.steps.size(); ++i) {
    expect_same_parts(built.steps[i].reads, fresh.steps[i].reads);
  }
}

// Every CTA's program built into one reused program, in reverse order (so
// that longer programs precede shorter ones), equals a fresh one.
void expect_builds_match(GemmWorkload workload) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto kernel = resolve_gemm_kernel(workload, spec);
  ASSERT_TRUE(kernel.ok()) << kernel.diagnostics.format();
  const GemmScheduleRegistry schedules = builtin_gemm_schedules();
  const gpu::KernelPlan plan =
      schedules.find(workload.schedule)->lower(workload, *kernel.value, spec);
  int built = 0;
  for (const gpu::KernelLaunch& launch : plan.kernels) {
    gpu::CtaProgram reused;
    for (std::int64_t cta = launch.cta_count - 1; cta >= 0; --cta) {
      launch.programs->build(cta, reused);
      expect_same_program(reused, launch.programs->program(cta));
      ++built;
    }
  }
  EXPECT_GT(built, 0);
}

// Edge tiles in m, n and k.
GemmWorkload edgy(std::string schedule) {
  return testing::gemm(1000, 1500, 1100, std::move(schedule));
}

TEST(GemmProgramBuild, DataParallel) {
  expect_builds_match(edgy("data_parallel"));
}

// Overlapped output stores take a step out of the program being built.
TEST(GemmProgramBuild, PersistentAndStreamKWithOverlappedStores) {
  GemmWorkload persistent = edgy("data_parallel");
  persistent.persistent = true;
  persistent.kernel = "tilesim_ref_wgmma_tma_store";
  expect_builds_match(persistent);
  GemmWorkload stream_k = edgy("stream_k");
  stream_k.kernel = "tilesim_ref_wgmma_tma_store";
  expect_builds_match(stream_k);
}

TEST(GemmProgramBuild, StreamKEveryMode) {
  for (const StreamKMode mode :
       {StreamKMode::pure, StreamKMode::dp_one_tile, StreamKMode::two_tile}) {
    GemmWorkload workload = edgy("stream_k");
    workload.stream_k_mode = mode;
    expect_builds_match(workload);
    workload.fixup = FixupOrder::atomic;
    expect_builds_match(workload);
  }
}

TEST(GemmProgramBuild, SplitKBothReductions) {
  GemmWorkload workload = edgy("split_k");
  workload.splits = 3;
  expect_builds_match(workload);
  workload.reduction = SplitKReduction::parallel;
  expect_builds_match(workload);
}

// A data-parallel CTA's program is a copy of its tile kind's (WholeTilePrograms):
// equal, field by field, to the one GemmCtaProgramBuilder builds for its tile,
// for every tile (full, last tile-row, last tile-column, corner; one tile-row;
// one tile), copied into storage that held another tile's program.
TEST(GemmProgramBuild, AWholeTileProgramEqualsTheBuiltOne) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  for (const auto& [m, n] :
       {std::pair<std::int64_t, std::int64_t>{1000, 1500}, {100, 1500}, {1000, 200}, {100, 200}}) {
    const GemmWorkload workload = testing::gemm(m, n, 1100, "data_parallel");
    const auto kernel = resolve_gemm_kernel(workload, spec);
    ASSERT_TRUE(kernel.ok()) << kernel.diagnostics.format();
    const GemmCtaProgramBuilder builder(workload.problem, *kernel.value);
    const WholeTilePrograms whole_tiles(builder);
    gpu::CtaProgram reused;
    for (std::int64_t row = builder.tile_rows() - 1; row >= 0; --row) {
      for (std::int64_t col = builder.tile_cols() - 1; col >= 0; --col) {
        const TileCoord tile{row, col};
        gpu::CtaProgram built;
        const std::uint16_t segment = builder.begin_segment(built, tile, 0, builder.k_blocks());
        builder.add_main_loop(built, segment, tile, 0, builder.k_blocks(), true);
        builder.add_epilogue(built, segment, tile);
        whole_tiles.assign(tile, reused);
        expect_same_program(reused, built);
      }
    }
  }
}

// Plain C stores (write bytes, nothing else) of CTA 0 of a persistent
// data-parallel launch with 2 tiles a CTA, and the bytes its steps write.
struct Stores {
  int plain_steps = 0;
  double first_main_loop_write_bytes = 0;  // of the second tile
  double write_bytes = 0;
};

Stores persistent_cta_stores(const std::string& kernel) {
  GemmWorkload workload = testing::gemm(3000, 2000, 1000, "data_parallel");  // 24 x 8 tiles
  workload.persistent = true;
  workload.kernel = kernel;
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto profile = resolve_gemm_kernel(workload, spec);
  EXPECT_TRUE(profile.ok()) << profile.diagnostics.format();
  const gpu::KernelPlan plan =
      builtin_gemm_schedules().find("data_parallel")->lower(workload, *profile.value, spec);
  const gpu::CtaProgram program = plan.kernels.at(0).programs->program(0);
  EXPECT_EQ(program.segments.size(), 2u);
  Stores stores;
  bool second_found = false;
  for (const gpu::CtaStep& step : program.steps) {
    stores.write_bytes += step.write_bytes;
    if (step.write_bytes > 0 && step.flops == 0 && step.reads.empty()) ++stores.plain_steps;
    if (step.segment == 1 && !step.reads.empty() && !second_found) {
      second_found = true;
      stores.first_main_loop_write_bytes = step.write_bytes;
    }
  }
  return stores;
}

// A TMA-store epilogue (output_store: overlapped) writes the first tile's C
// under the second tile's main loop; a register epilogue stops for it. Both
// write the same bytes, and the CTA's last store is a step of its own.
TEST(GemmProgramBuild, OverlappedOutputStoreFlowsWithTheNextTilesMainLoop) {
  const Stores registers = persistent_cta_stores("tilesim_ref_wgmma");
  const Stores overlapped = persistent_cta_stores("tilesim_ref_wgmma_tma_store");
  constexpr double kTileBytes = 128 * 256 * 2;
  EXPECT_EQ(registers.plain_steps, 2);
  EXPECT_EQ(registers.first_main_loop_write_bytes, 0);
  EXPECT_EQ(overlapped.plain_steps, 1);
  EXPECT_EQ(overlapped.first_main_loop_write_bytes, kTileBytes);
  EXPECT_EQ(overlapped.write_bytes, registers.write_bytes);
  EXPECT_EQ(registers.write_bytes, 2 * kTileBytes);
}

}  // namespace
}  // namespace tilesim::workloads
