#include "workloads/gemm/gemm_cta_program.hpp"

#include <algorithm>

namespace tilesim::workloads {
namespace {

// A panel is tracked in L2 as at most this many k-chunks: fine enough that
// CTAs sweeping K in step share chunks, coarse enough to keep a CTA to a
// handful of events.
constexpr std::int64_t kMaxChunksPerPanel = 8;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

GemmCtaProgramBuilder::GemmCtaProgramBuilder(const GemmProblem& problem,
                                             const hw::KernelProfile& config, GemmTensorIds tensors)
    : problem_(problem),
      config_(config),
      tensors_(tensors),
      tile_rows_(ceil_div(problem.m, config.tile_m)),
      tile_cols_(ceil_div(problem.n, config.tile_n)),
      k_blocks_(ceil_div(problem.k, config.tile_k)),
      chunk_blocks_(ceil_div(k_blocks_, kMaxChunksPerPanel)) {}

std::int64_t GemmCtaProgramBuilder::tile_extent_rows(std::int64_t tile_row) const {
  return std::min<std::int64_t>(config_.tile_m, problem_.m - tile_row * config_.tile_m);
}

std::int64_t GemmCtaProgramBuilder::tile_extent_cols(std::int64_t tile_col) const {
  return std::min<std::int64_t>(config_.tile_n, problem_.n - tile_col * config_.tile_n);
}

std::int64_t GemmCtaProgramBuilder::k_elements(std::int64_t k_block_begin,
                                               std::int64_t k_block_end) const {
  return std::min(problem_.k, k_block_end * config_.tile_k) - k_block_begin * config_.tile_k;
}

// MMAs run on whole tiles: edge tiles and the last partial k-block are padded.
gpu::CtaStep GemmCtaProgramBuilder::mma_step(double k_blocks) const {
  gpu::CtaStep step;
  const bool simt = problem_.input_type == hw::DataType::fp32;
  step.unit = simt ? gpu::ExecutionUnit::fp32 : gpu::ExecutionUnit::tensor;
  step.mma_type = problem_.input_type;
  step.flops = 2.0 * config_.tile_m * config_.tile_n * config_.tile_k * k_blocks;
  return step;
}

void GemmCtaProgramBuilder::add_main_loop(gpu::CtaProgram& program, std::int64_t tile_row,
                                          std::int64_t tile_col, std::int64_t k_block_begin,
                                          std::int64_t k_block_end) const {
  if (k_block_end <= k_block_begin) return;
  const double element_bytes = hw::bytes_per_element(problem_.input_type);
  const auto rows = static_cast<double>(tile_extent_rows(tile_row));
  const auto cols = static_cast<double>(tile_extent_cols(tile_col));
  const double bytes_per_k_block = (rows + cols) * config_.tile_k * element_bytes;
  const double in_flight = std::max(1, config_.stages - 1) * bytes_per_k_block;

  for (std::int64_t begin = k_block_begin; begin < k_block_end;) {
    const std::int64_t chunk = begin / chunk_blocks_;
    const std::int64_t end = std::min(k_block_end, (chunk + 1) * chunk_blocks_);
    const auto k = static_cast<double>(k_elements(begin, end));
    // The last k-block's MMAs follow its load and are a step of their own.
    const bool last = end == k_block_end;
    gpu::CtaStep step = mma_step(static_cast<double>(end - begin) - (last ? 1 : 0));
    const auto chunk_id = static_cast<std::uint32_t>(chunk);
    step.reads = {
        {{tensors_.a, static_cast<std::uint32_t>(tile_row), chunk_id},
         rows * k * element_bytes,
         config_.cluster.n},
        {{tensors_.b, static_cast<std::uint32_t>(tile_col), chunk_id},
         cols * k * element_bytes,
         config_.cluster.m},
    };
    step.bytes_in_flight = in_flight;
    step.waits_for_first_data = begin == k_block_begin;
    program.steps.push_back(std::move(step));
    begin = end;
  }
  program.steps.push_back(mma_step(1));
}

void GemmCtaProgramBuilder::add_epilogue(gpu::CtaProgram& program, std::int64_t tile_row,
                                         std::int64_t tile_col) const {
  gpu::CtaStep store;
  store.write_bytes = static_cast<double>(tile_extent_rows(tile_row) * tile_extent_cols(tile_col)) *
                      hw::bytes_per_element(problem_.output_type);
  program.steps.push_back(store);
}

}  // namespace tilesim::workloads
