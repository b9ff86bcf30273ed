#include "workloads/gemm/partial_reduction_kernel.hpp"

#include <memory>

namespace tilesim::workloads {
namespace {

// An elementwise kernel: 256 threads, each with four 16-byte loads in flight.
constexpr int kThreads = 256;
constexpr int kRegistersPerThread = 32;
constexpr double kBytesInFlight = kThreads * 4 * 16.0;

class PartialReductionPrograms final : public gpu::CtaProgramSource {
 public:
  PartialReductionPrograms(const GemmProblem& problem, const hw::KernelProfile& kernel, int splits)
      : builder_(problem, kernel), splits_(splits) {}

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const TileCoord tile{cta_index / builder_.tile_cols(), cta_index % builder_.tile_cols()};
    gpu::CtaProgram program;
    const std::uint16_t segment = builder_.begin_segment(program, tile, 0, builder_.k_blocks());
    builder_.add_partial_reduce(program, segment, tile, std::nullopt, splits_,
                                GemmCtaProgramBuilder::PartialLayout::row_major);
    program.steps.back().bytes_in_flight = kBytesInFlight;
    program.steps.back().waits_for_first_data = true;
    builder_.add_epilogue(program, segment, tile);
    return program;
  }

 private:
  GemmCtaProgramBuilder builder_;
  int splits_;
};

}  // namespace

gpu::KernelLaunch partial_reduction_kernel(std::string name, const GemmProblem& problem,
                                           const hw::KernelProfile& kernel, int splits) {
  auto programs = std::make_shared<PartialReductionPrograms>(problem, kernel, splits);
  const GemmCtaProgramBuilder shape(problem, kernel);
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = shape.tile_count();
  launch.footprint = {kThreads, kRegistersPerThread, 0};
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
