#include "workloads/model/layer_repetition.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace tilesim::workloads {
namespace {

bool in_layer(const gpu::KernelRecord& kernel, int layer) {
  return kernel.name.starts_with(layer_prefix(layer));
}

std::size_t first_kernel_of(const gpu::SimulationResult& result, int layer) {
  const auto found = std::find_if(result.kernels.begin(), result.kernels.end(),
                                  [&](const gpu::KernelRecord& k) { return in_layer(k, layer); });
  if (found == result.kernels.end()) {
    throw std::logic_error(fmt::format("no kernel of layer {} in the model's plan", layer));
  }
  return static_cast<std::size_t>(found - result.kernels.begin());
}

void shift(gpu::KernelRecord& kernel, sim::SimTime by) {
  for (sim::SimTime* time : {&kernel.host_issue_begin, &kernel.host_issue_end, &kernel.ready,
                             &kernel.start, &kernel.end}) {
    *time += by;
  }
}

}  // namespace

std::string layer_prefix(int layer) {
  return fmt::format("L{}.", layer);
}

gpu::SimulationResult repeat_last_layer(gpu::SimulationResult result, int simulated, int total,
                                        RepeatedLayers& repeated) {
  repeated = {simulated, total, {}};
  if (total <= simulated || simulated < 2) return result;
  const int last = simulated - 1;
  const std::size_t begin = first_kernel_of(result, last);
  std::size_t end = begin;
  while (end < result.kernels.size() && in_layer(result.kernels[end], last)) ++end;
  repeated.period =
      result.kernels[begin].start - result.kernels[first_kernel_of(result, last - 1)].start;
  const int copies = total - simulated;
  const std::size_t per_layer = end - begin;
  const auto kernel_index = [&](std::size_t old_index) {
    // The head's kernels move behind the copies.
    return old_index < end ? old_index : old_index + copies * per_layer;
  };

  std::vector<gpu::KernelRecord> kernels(result.kernels.begin(), result.kernels.begin() + end);
  std::vector<gpu::CtaRecord> ctas;
  for (const gpu::CtaRecord& cta : result.ctas) {
    if (static_cast<std::size_t>(cta.kernel) < end) ctas.push_back(cta);
  }
  for (int copy = 1; copy <= copies; ++copy) {
    const sim::SimTime by = repeated.period * copy;
    const std::string prefix = layer_prefix(last + copy);
    for (std::size_t i = begin; i < end; ++i) {
      gpu::KernelRecord kernel = result.kernels[i];
      kernel.name = prefix + kernel.name.substr(layer_prefix(last).size());
      shift(kernel, by);
      kernels.push_back(std::move(kernel));
    }
    for (const gpu::CtaRecord& cta : result.ctas) {
      const auto index = static_cast<std::size_t>(cta.kernel);
      if (index < begin || index >= end) continue;
      gpu::CtaRecord moved{cta.kernel,          cta.cta,           cta.sm, cta.slot,
                           cta.dispatched + by, cta.finished + by, {}};
      moved.kernel = static_cast<std::int32_t>(index + copy * per_layer);
      moved.outcome.traffic = cta.outcome.traffic;
      moved.outcome.flops = cta.outcome.flops;
      ctas.push_back(std::move(moved));
    }
  }
  const sim::SimTime tail_shift = repeated.period * copies;
  for (std::size_t i = end; i < result.kernels.size(); ++i) {
    gpu::KernelRecord kernel = result.kernels[i];
    shift(kernel, tail_shift);
    kernels.push_back(std::move(kernel));
  }
  for (const gpu::CtaRecord& cta : result.ctas) {
    const auto index = static_cast<std::size_t>(cta.kernel);
    if (index < end) continue;
    gpu::CtaRecord moved = cta;
    moved.kernel = static_cast<std::int32_t>(kernel_index(index));
    moved.dispatched += tail_shift;
    moved.finished += tail_shift;
    ctas.push_back(std::move(moved));
  }
  result.kernels = std::move(kernels);
  result.ctas = std::move(ctas);
  return result;
}

}  // namespace tilesim::workloads
