#include "workloads/gemm/gemm_cta_program.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "workloads/gemm/gemm_kernel_launch.hpp"
#include "workloads/gemm/row_alignment.hpp"

namespace tilesim::workloads {
namespace {

// A panel is tracked in L2 as at most this many k-chunks: fine enough that
// CTAs sweeping K in step share chunks, coarse enough to keep a CTA to a
// handful of events.
constexpr std::int64_t kMaxChunksPerPanel = 4;
constexpr double kFp32Bytes = 4;
// Main-loop chunks, the last k-block, a fixup or epilogue step and a store,
// with room for a fused prologue: reserved per segment, so a program's steps
// are not copied as it grows.
constexpr std::size_t kStepsPerSegment = kMaxChunksPerPanel + 4;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// A row of `elements` that starts a 128-byte L2 line whenever the previous does.
bool row_128_byte_aligned(std::int64_t elements, const GemmProblem& problem) {
  return std::fmod(static_cast<double>(elements) * hw::bytes_per_element(problem.input_type),
                   128.0) == 0;
}

double read_factor(std::int64_t row_elements, const GemmProblem& problem,
                   const hw::KernelProfile& kernel) {
  return row_128_byte_aligned(row_elements, problem) ? 1.0 : kernel.misaligned_row_read_factor;
}

// Elements each load of the unaligned gather moves: as many as the rows and the kernel allow.
double unaligned_load_elements(const GemmProblem& problem, const hw::KernelProfile& kernel) {
  const double element_bytes = hw::bytes_per_element(problem.input_type);
  return std::max(element_bytes,
                  std::min(row_alignment_bytes(problem), kernel.unaligned_widest_load_bytes)) /
         element_bytes;
}

double unaligned_bytes_in_flight(const GemmProblem& problem, const hw::KernelProfile& kernel,
                                 GemmKernelBuild build) {
  if (kernel.unaligned_bytes_in_flight_per_thread <= 0 || rows_16_byte_aligned(problem)) return 0;
  double per_thread = 0;
  if (build == GemmKernelBuild::split_k) {
    per_thread = kernel.split_k_unaligned_bytes_in_flight_per_thread;
  } else if (build == GemmKernelBuild::persistent) {
    per_thread = kernel.persistent_unaligned_bytes_in_flight_per_thread;
  }
  if (per_thread <= 0) per_thread = kernel.unaligned_bytes_in_flight_per_thread;
  // As many loads in flight, each as wide as the rows and the kernel allow.
  return kernel.warps * kThreadsPerWarp * per_thread * unaligned_load_elements(problem, kernel);
}

}  // namespace

GemmCtaProgramBuilder::GemmCtaProgramBuilder(const GemmProblem& problem,
                                             const hw::KernelProfile& kernel,
                                             std::shared_ptr<const GemmFusion> fusion,
                                             GemmKernelBuild build)
    : problem_(problem),
      kernel_(kernel),
      fusion_(std::move(fusion)),
      tensors_(fusion_ ? fusion_->tensors : GemmTensorIds{}),
      tile_rows_(ceil_div(problem.m, kernel.tile_m)),
      tile_cols_(ceil_div(problem.n, kernel.tile_n)),
      k_blocks_(ceil_div(problem.k, kernel.tile_k)),
      chunk_blocks_(ceil_div(k_blocks_, kMaxChunksPerPanel)),
      unaligned_bytes_in_flight_(unaligned_bytes_in_flight(problem, kernel, build)),
      unaligned_gather_bytes_per_clock_(kernel.unaligned_gather_bytes_per_clock_per_sm *
                                        unaligned_load_elements(problem, kernel)),
      // Rows not 16-byte aligned take the gathered loop, which the factor is not for.
      a_read_factor_(unaligned_bytes_in_flight_ > 0 ? 1 : read_factor(problem.k, problem, kernel)),
      b_read_factor_(unaligned_bytes_in_flight_ > 0 ? 1 : read_factor(problem.n, problem, kernel)) {
}

std::int64_t GemmCtaProgramBuilder::tile_extent_rows(std::int64_t tile_row) const {
  return std::min<std::int64_t>(kernel_.tile_m, problem_.m - tile_row * kernel_.tile_m);
}

std::int64_t GemmCtaProgramBuilder::tile_extent_cols(std::int64_t tile_col) const {
  return std::min<std::int64_t>(kernel_.tile_n, problem_.n - tile_col * kernel_.tile_n);
}

double GemmCtaProgramBuilder::fixup_bytes_in_flight(bool collect) const {
  constexpr double kLoadBytes = 16;
  const double loads = collect && kernel_.collect_loads_in_flight > 0
                           ? kernel_.collect_loads_in_flight
                           : kernel_.fixup_loads_in_flight;
  return kernel_.warps * kThreadsPerWarp * kLoadBytes * loads;
}

double GemmCtaProgramBuilder::partial_bytes(TileCoord tile, PartialLayout layout) const {
  if (layout == PartialLayout::accumulator_tile) {
    return static_cast<double>(kernel_.tile_m) * kernel_.tile_n * kFp32Bytes;
  }
  return static_cast<double>(tile_extent_rows(tile.row) * tile_extent_cols(tile.col)) * kFp32Bytes;
}

std::int64_t GemmCtaProgramBuilder::k_elements(std::int64_t k_block_begin,
                                               std::int64_t k_block_end) const {
  return std::min(problem_.k, k_block_end * kernel_.tile_k) - k_block_begin * kernel_.tile_k;
}

// MMAs run on whole tiles: edge tiles and the last partial k-block are padded.
// Built in place: a step keeps its reads inline, so moving one copies them.
gpu::CtaStep& GemmCtaProgramBuilder::add_mma_step(gpu::CtaProgram& program, double k_blocks,
                                                  std::uint16_t segment) const {
  gpu::CtaStep& step = program.steps.emplace_back();
  const bool simt = problem_.input_type == hw::DataType::fp32;
  step.unit = simt ? gpu::ExecutionUnit::fp32 : gpu::ExecutionUnit::tensor;
  step.mma_type = problem_.input_type;
  step.flops = 2.0 * kernel_.tile_m * kernel_.tile_n * kernel_.tile_k * k_blocks;
  step.segment = segment;
  return step;
}

// r in [0, 1) from the golden-ratio sequence over the CTA index: even over any
// number of CTAs, unrelated to the order of their tiles.
double GemmCtaProgramBuilder::cta_pace(std::int64_t cta_index) const {
  constexpr double kGoldenRatioFraction = 0.6180339887498949;
  // x - floor(x) is fmod(x, 1) exactly for x > 0 (Sterbenz: floor(x) <= x <
  // 2 floor(x) once x >= 1), without fmod's library call.
  const double x = static_cast<double>(cta_index + 1) * kGoldenRatioFraction;
  const double r = x - std::floor(x);
  return 1 / (1 + kernel_.cta_speed_spread * (r - 0.5));
}

bool GemmCtaProgramBuilder::paces_simulated() const {
  return kernel_.cta_speed_spread > 0;
}

void GemmCtaProgramBuilder::reserve_segments(gpu::CtaProgram& program, std::size_t segments) const {
  program.segments.reserve(program.segments.size() + segments);
  program.steps.reserve(program.steps.size() + segments * kStepsPerSegment);
}

std::uint16_t GemmCtaProgramBuilder::begin_segment(gpu::CtaProgram& program, TileCoord tile,
                                                   std::int64_t k_block_begin,
                                                   std::int64_t k_block_end) const {
  const std::size_t steps = program.steps.size() + kStepsPerSegment;
  if (program.steps.capacity() < steps) {
    program.steps.reserve(std::max(steps, 2 * program.steps.capacity()));
  }
  program.segments.push_back({tile.row, tile.col, k_block_begin, k_block_end});
  return static_cast<std::uint16_t>(program.segments.size() - 1);
}

// With an overlapped output store, the CTA's last step, when it is the
// previous unit's plain C store, is taken out: its bytes flow with the next
// main-loop step instead (the copy engine stores while the MMAs run).
double GemmCtaProgramBuilder::take_overlapped_store(gpu::CtaProgram& program) const {
  if (kernel_.output_store != hw::OutputStore::overlapped || program.steps.empty()) return 0;
  const gpu::CtaStep& last = program.steps.back();
  const bool plain_store = last.write_bytes > 0 && last.flops == 0 && last.reads.empty() &&
                           !last.write_key && !last.wait && !last.signal;
  if (!plain_store) return 0;
  const double bytes = last.write_bytes;
  program.steps.pop_back();
  return bytes;
}

void GemmCtaProgramBuilder::add_main_loop(gpu::CtaProgram& program, std::uint16_t segment,
                                          TileCoord tile, std::int64_t k_block_begin,
                                          std::int64_t k_block_end, bool fills_pipeline) const {
  if (k_block_end <= k_block_begin) return;
  double carried_store_bytes = take_overlapped_store(program);
  const double element_bytes = hw::bytes_per_element(problem_.input_type);
  const auto rows = static_cast<double>(tile_extent_rows(tile.row));
  const auto cols = static_cast<double>(tile_extent_cols(tile.col));
  const double bytes_per_k_block = (rows + cols) * kernel_.tile_k * element_bytes;
  const double in_flight = std::max(1, kernel_.stages - 1) * bytes_per_k_block;

  for (std::int64_t begin = k_block_begin; begin < k_block_end;) {
    const std::int64_t chunk = begin / chunk_blocks_;
    const std::int64_t end = std::min(k_block_end, (chunk + 1) * chunk_blocks_);
    const auto k = static_cast<double>(k_elements(begin, end));
    // The last k-block's MMAs follow its load and are a step of their own.
    const bool last = end == k_block_end;
    gpu::CtaStep& step =
        add_mma_step(program, static_cast<double>(end - begin) - (last ? 1 : 0), segment);
    const auto chunk_id = static_cast<std::uint32_t>(chunk);
    add_a_reads(step.reads, tile, begin, end, chunk_id);
    step.reads.push_back({{tensors_.b, static_cast<std::uint32_t>(tile.col), chunk_id},
                          cols * k * element_bytes * b_read_factor_,
                          kernel_.cluster.m,
                          begin,
                          end});
    step.bytes_in_flight = in_flight;
    step.write_bytes = std::exchange(carried_store_bytes, 0.0);
    step.first_data_waits = fills_pipeline && begin == k_block_begin ? 1 : 0;
    if (step.first_data_waits > 0) step.setup_s = kernel_.work_unit_overhead_s;
    if (unaligned_bytes_in_flight_ > 0) {
      // Where the SM's load path holds the gather, its rate binds, not the
      // loads in flight: the kernel issues a k-block's loads before storing
      // them (CUTLASS 2.x MmaPipelined; cuBLAS's 256x128 align1: 48 a thread),
      // and sustains 6.7 B/clk with its MMAs at 8 warps a SM (ncu, calibration).
      step.bytes_in_flight = unaligned_gather_bytes_per_clock_ > 0 ? 0 : unaligned_bytes_in_flight_;
      step.read_latency_s = kernel_.unaligned_load_latency_s;
      step.load_path_bytes_per_clock = unaligned_gather_bytes_per_clock_;
      // Gathered through registers: the MMAs wait for the loads, nothing overlaps.
      const double flops = std::exchange(step.flops, 0.0);
      add_mma_step(program, 0, segment).flops = flops;  // `step` may move here
    }
    begin = end;
  }
  add_mma_step(program, 1, segment);
  if (fusion_ && fusion_->prologue_flops_per_a_element > 0) {
    // Counted after the MMAs, though a kernel overlaps it with them: an upper bound.
    gpu::CtaStep prologue;
    prologue.unit = gpu::ExecutionUnit::fp32;
    prologue.flops = fusion_->prologue_flops_per_a_element * rows *
                     static_cast<double>(k_elements(k_block_begin, k_block_end));
    prologue.segment = segment;
    program.steps.push_back(prologue);
  }
}

// A from a graph's tensor: the blocks of its rows and k-columns; otherwise the
// GEMM's own row-panel chunk.
void GemmCtaProgramBuilder::add_a_reads(gpu::BlockReads& reads, TileCoord tile,
                                        std::int64_t k_block_begin, std::int64_t k_block_end,
                                        std::uint32_t chunk) const {
  const std::int64_t row_begin = tile.row * kernel_.tile_m;
  const std::int64_t rows = tile_extent_rows(tile.row);
  if (!fusion_ || !fusion_->a) {
    const auto k = static_cast<double>(k_elements(k_block_begin, k_block_end));
    reads.push_back({{tensors_.a, static_cast<std::uint32_t>(tile.row), chunk},
                     static_cast<double>(rows) * k * hw::bytes_per_element(problem_.input_type) *
                         a_read_factor_,
                     kernel_.cluster.n,
                     k_block_begin,
                     k_block_end});
    return;
  }
  for (gpu::BlockRead read : fusion_->a->reads(
           {row_begin, row_begin + rows, k_block_begin * kernel_.tile_k,
            k_block_begin * kernel_.tile_k + k_elements(k_block_begin, k_block_end)})) {
    read.multicast = kernel_.cluster.n;
    reads.push_back(read);
  }
}

void GemmCtaProgramBuilder::add_epilogue(gpu::CtaProgram& program, std::uint16_t segment,
                                         TileCoord tile) const {
  if (fusion_) add_fused_epilogue_work(program, segment, tile);
  add_output_stores(program, segment, tile);
}

// Residual and bias reads with the fp32 work, then the special-function work:
// the whole tile's operands are loaded at once.
void GemmCtaProgramBuilder::add_fused_epilogue_work(gpu::CtaProgram& program, std::uint16_t segment,
                                                    TileCoord tile) const {
  const auto rows = static_cast<double>(tile_extent_rows(tile.row));
  const auto cols = static_cast<double>(tile_extent_cols(tile.col));
  gpu::CtaStep math;
  math.unit = gpu::ExecutionUnit::fp32;
  math.flops = fusion_->epilogue_flops_per_element * rows * cols;
  if (fusion_->residual) {
    const std::int64_t row_begin = tile.row * kernel_.tile_m;
    const std::int64_t col_begin = tile.col * kernel_.tile_n / fusion_->output_column_divisor;
    math.reads = fusion_->residual->reads(
        {row_begin, row_begin + tile_extent_rows(tile.row), col_begin,
         col_begin + tile_extent_cols(tile.col) / fusion_->output_column_divisor});
  }
  if (fusion_->bias) {
    math.reads.push_back({{tensors_.bias, static_cast<std::uint32_t>(tile.col), 0},
                          cols * hw::bytes_per_element(problem_.output_type),
                          1,
                          0,
                          1});
  }
  for (const gpu::BlockRead& read : math.reads) math.bytes_in_flight += read.bytes;
  math.first_data_waits = math.reads.empty() ? 0 : 1;
  math.segment = segment;
  if (math.flops > 0 || !math.reads.empty()) program.steps.push_back(std::move(math));
  if (fusion_->epilogue_sfu_ops_per_element > 0) {
    gpu::CtaStep special;
    special.unit = gpu::ExecutionUnit::sfu;
    special.flops = fusion_->epilogue_sfu_ops_per_element * rows * cols;
    special.segment = segment;
    program.steps.push_back(special);
  }
}

// One store per block of a graph's output tensor, so the next kernel's reads
// find them in L2; otherwise one plain store.
void GemmCtaProgramBuilder::add_output_stores(gpu::CtaProgram& program, std::uint16_t segment,
                                              TileCoord tile) const {
  const int divisor = fusion_ ? fusion_->output_column_divisor : 1;
  const std::int64_t rows = tile_extent_rows(tile.row);
  const std::int64_t cols = tile_extent_cols(tile.col) / divisor;
  if (!fusion_ || !fusion_->output) {
    gpu::CtaStep store;
    store.write_bytes =
        static_cast<double>(rows * cols) * hw::bytes_per_element(problem_.output_type);
    store.segment = segment;
    program.steps.push_back(store);
    return;
  }
  const std::int64_t row_begin = tile.row * kernel_.tile_m;
  const std::int64_t col_begin = tile.col * kernel_.tile_n / divisor;
  for (const BlockStore& block :
       fusion_->output->stores({row_begin, row_begin + rows, col_begin, col_begin + cols})) {
    gpu::CtaStep store;
    store.write_bytes = block.bytes;
    store.write_key = block.key;
    store.segment = segment;
    program.steps.push_back(store);
  }
}

void GemmCtaProgramBuilder::add_partial_store(gpu::CtaProgram& program, std::uint16_t segment,
                                              TileCoord tile, std::optional<gpu::FlagWait> wait,
                                              bool accumulate, std::uint32_t slot,
                                              PartialLayout layout) const {
  gpu::CtaStep store;
  const double bytes = partial_bytes(tile, layout);
  const gpu::BlockKey key{tensors_.workspace, tile_flag(tile), slot};
  if (accumulate) {
    store.reads = {{key, bytes, 1, 0, 1}};
    store.bytes_in_flight = fixup_bytes_in_flight(false);
    store.read_latency_s = kernel_.fixup_load_latency_s;
    store.unit = gpu::ExecutionUnit::fp32;
    store.flops = bytes / kFp32Bytes;
  }
  store.write_bytes = bytes;
  store.write_key = key;
  store.wait = wait;
  store.wake_s = kernel_.fixup_handoff_latency_s;
  store.signal = tile_flag(tile);
  store.segment = segment;
  program.steps.push_back(std::move(store));
}

void GemmCtaProgramBuilder::add_partial_reduce(gpu::CtaProgram& program, std::uint16_t segment,
                                               TileCoord tile, std::optional<gpu::FlagWait> wait,
                                               int partials, PartialLayout layout) const {
  gpu::CtaStep reduce;
  const double bytes = partial_bytes(tile, layout);
  for (int slot = 0; slot < partials; ++slot) {
    reduce.reads.push_back(
        {{tensors_.workspace, tile_flag(tile), static_cast<std::uint32_t>(slot)}, bytes, 1, 0, 1});
  }
  reduce.bytes_in_flight = fixup_bytes_in_flight(true);
  reduce.read_latency_s = kernel_.fixup_load_latency_s;
  reduce.unit = gpu::ExecutionUnit::fp32;
  reduce.flops = partials * bytes / kFp32Bytes;
  reduce.wait = wait;
  reduce.wake_s = kernel_.fixup_handoff_latency_s;
  reduce.segment = segment;
  program.steps.push_back(std::move(reduce));
}

}  // namespace tilesim::workloads
