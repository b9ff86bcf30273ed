#include "workloads/gemm/partial_reduction_kernel.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace tilesim::workloads {
namespace {

// kernels/gemm/split_k_reduce.cu: 256 threads, each adding the slices of four
// consecutive elements, so a CTA covers 1,024 elements of C. One 16-byte load
// per slice, one in flight: the SASS (nvcc 13.0, sm_90a) unrolls the slice
// loop by four, but each load sits in its own branch block and its sum is
// taken before the next load issues.
constexpr int kThreads = 256;
constexpr int kRegistersPerThread = 32;
constexpr std::int64_t kElementsPerCta = kThreads * 4;
constexpr double kBytesInFlight = kThreads * 16.0;

// Scales the work of steps [first, end) of `program` to `share` of a tile.
void scale_steps(gpu::CtaProgram& program, std::size_t first, double share) {
  for (std::size_t i = first; i < program.steps.size(); ++i) {
    gpu::CtaStep& step = program.steps[i];
    for (gpu::BlockRead& read : step.reads) read.bytes *= share;
    step.write_bytes *= share;
    step.flops *= share;
  }
}

class PartialReductionPrograms final : public gpu::CtaProgramSource {
 public:
  PartialReductionPrograms(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                           int splits)
      : builder_(workload.problem, kernel, workload.fusion), splits_(splits) {
    // CTAs of each tile, as a running total: tiles differ at the edges of C.
    first_cta_.reserve(static_cast<std::size_t>(builder_.tile_count()) + 1);
    first_cta_.push_back(0);
    for (std::int64_t row = 0; row < builder_.tile_rows(); ++row) {
      for (std::int64_t col = 0; col < builder_.tile_cols(); ++col) {
        first_cta_.push_back(first_cta_.back() + ctas_of(tile_elements({row, col})));
      }
    }
  }

  std::int64_t cta_count() const { return first_cta_.back(); }

  gpu::CtaProgram program(std::int64_t cta_index) const override {
    const auto after = std::upper_bound(first_cta_.begin(), first_cta_.end(), cta_index);
    const auto tile_index = static_cast<std::int64_t>(after - first_cta_.begin()) - 1;
    const TileCoord tile{tile_index / builder_.tile_cols(), tile_index % builder_.tile_cols()};
    const std::int64_t elements = tile_elements(tile);
    const std::int64_t chunk = cta_index - first_cta_[static_cast<std::size_t>(tile_index)];
    const double share =
        static_cast<double>(std::min(kElementsPerCta, elements - chunk * kElementsPerCta)) /
        static_cast<double>(elements);

    gpu::CtaProgram program;
    const std::uint16_t segment = builder_.begin_segment(program, tile, 0, builder_.k_blocks());
    builder_.add_partial_reduce(program, segment, tile, std::nullopt, splits_,
                                GemmCtaProgramBuilder::PartialLayout::row_major);
    program.steps.back().bytes_in_flight = kBytesInFlight;
    program.steps.back().first_data_waits = 1;
    builder_.add_epilogue(program, segment, tile);
    scale_steps(program, 0, share);
    return program;
  }

 private:
  static std::int64_t ctas_of(std::int64_t elements) {
    return (elements + kElementsPerCta - 1) / kElementsPerCta;
  }
  std::int64_t tile_elements(TileCoord tile) const {
    return builder_.tile_extent_rows(tile.row) * builder_.tile_extent_cols(tile.col);
  }

  GemmCtaProgramBuilder builder_;
  int splits_;
  std::vector<std::int64_t> first_cta_;
};

}  // namespace

gpu::KernelLaunch partial_reduction_kernel(std::string name, const GemmWorkload& workload,
                                           const hw::KernelProfile& kernel, int splits) {
  auto programs = std::make_shared<PartialReductionPrograms>(workload, kernel, splits);
  gpu::KernelLaunch launch;
  launch.name = std::move(name);
  launch.cta_count = programs->cta_count();
  launch.footprint = {kThreads, kRegistersPerThread, 0};
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
