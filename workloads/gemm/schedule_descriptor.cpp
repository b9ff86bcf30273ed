#include "workloads/gemm/schedule_descriptor.hpp"

#include <fmt/format.h>

#include "workloads/gemm/split_k_schedule.hpp"

namespace tilesim::workloads {
namespace {

const char* mode_name(StreamKMode mode) {
  switch (mode) {
    case StreamKMode::pure:
      return "pure";
    case StreamKMode::dp_one_tile:
      return "dp_one_tile";
    case StreamKMode::two_tile:
      return "two_tile";
    case StreamKMode::wave_fit:
      return "wave_fit";
    case StreamKMode::tile_fit:
      return "tile_fit";
  }
  return "two_tile";
}

}  // namespace

std::string describe_schedule(const GemmWorkload& workload, const hw::KernelProfile& kernel,
                              const hw::HardwareSpec& spec) {
  if (workload.schedule == "split_k") {
    return fmt::format("split_k:{}:splits={}",
                       workload.reduction == SplitKReduction::parallel ? "parallel" : "serial",
                       SplitKSchedule::splits_for(workload, kernel, spec));
  }
  if (workload.schedule == "stream_k") {
    return fmt::format("stream_k:{}:{}{}", mode_name(workload.stream_k_mode),
                       workload.fixup == FixupOrder::atomic ? "atomic" : "deterministic",
                       kernel.stream_k_order == hw::StreamKOrder::head_first ? ":head_first" : "");
  }
  if (workload.schedule == "data_parallel" && workload.persistent)
    return "data_parallel:persistent";
  return workload.schedule;
}

}  // namespace tilesim::workloads
