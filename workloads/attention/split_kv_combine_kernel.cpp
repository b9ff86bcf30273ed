#include "workloads/attention/split_kv_combine_kernel.hpp"

#include <algorithm>
#include <memory>

#include "workloads/attention/attention_tensors.hpp"

namespace tilesim::workloads {
namespace {

// A small elementwise-class kernel: 128 threads, each with four 16-byte loads
// in flight.
constexpr int kThreads = 128;
constexpr int kRegistersPerThread = 64;
constexpr double kBytesInFlight = kThreads * 4 * 16.0;
constexpr double kFlopsPerInstruction = 2;

class CombinePrograms final : public gpu::CtaProgramSource {
 public:
  explicit CombinePrograms(SplitKvCombine combine) : combine_(std::move(combine)) {}

  gpu::CtaProgram program(std::int64_t matrix) const override {
    const std::int64_t sequence = matrix / combine_.matrices_per_sequence;
    const std::int64_t slots = combine_.partials[static_cast<std::size_t>(sequence)];
    const auto rows = static_cast<double>(combine_.rows);
    gpu::CtaProgram program;
    program.segments.push_back({matrix, 0, 0, slots});
    gpu::CtaStep merge;
    for (std::int64_t slot = 0; slot < slots; ++slot) {
      merge.reads.push_back({{attention_tensor_id(AttentionArray::partial, matrix), 0,
                              static_cast<std::uint32_t>(slot)},
                             rows * combine_.partial_bytes_per_row,
                             1,
                             0,
                             1});
    }
    merge.bytes_in_flight = kBytesInFlight;
    merge.first_data_waits = 1;
    // Rescale-and-add per partial element; the exps of the statistics are few.
    merge.unit = gpu::ExecutionUnit::fp32;
    merge.flops = kFlopsPerInstruction * static_cast<double>(slots) * rows *
                  static_cast<double>(combine_.head_dim);
    program.steps.push_back(std::move(merge));
    gpu::CtaStep store;
    store.write_bytes =
        rows * static_cast<double>(combine_.head_dim) * hw::bytes_per_element(combine_.dtype);
    program.steps.push_back(store);
    return program;
  }

 private:
  SplitKvCombine combine_;
};

}  // namespace

gpu::KernelLaunch split_kv_combine_kernel(const SplitKvCombine& combine) {
  gpu::KernelLaunch launch;
  launch.name = combine.name;
  auto programs = std::make_shared<CombinePrograms>(combine);
  launch.cta_count =
      combine.matrices_per_sequence * static_cast<std::int64_t>(combine.partials.size());
  launch.footprint = {kThreads, kRegistersPerThread, 0};
  launch.ramp_and_drain_s = combine.ramp_and_drain_s;
  launch.programs = std::move(programs);
  return launch;
}

}  // namespace tilesim::workloads
