#include "app/report/model_summary.hpp"

#include <fmt/format.h>

namespace tilesim::report {
namespace {

using workloads::WorkloadParameter;
using workloads::WorkloadRun;

double number(const std::vector<WorkloadParameter>& list, const std::string& key) {
  for (const WorkloadParameter& item : list) {
    if (item.key != key) continue;
    if (const auto* value = std::get_if<double>(&item.value)) return *value;
    if (const auto* value = std::get_if<std::int64_t>(&item.value)) return double(*value);
  }
  return 0;
}

double gb(double bytes) {
  return bytes / 1e9;
}

}  // namespace

std::string model_summary(const WorkloadRun& run) {
  const auto& p = run.parameters;
  const auto& f = run.figures;
  const bool prefill = run.schedule.starts_with("prefill");
  const auto layers = static_cast<int>(number(p, "layers"));
  const auto simulated = static_cast<int>(number(f, "layers_simulated"));
  std::string out =
      simulated < layers
          ? fmt::format("{}: {} layers: {} simulated, then one every {:.2f} us; {} kernels\n",
                        run.name, layers, simulated, number(f, "layer_period_us"),
                        run.result.kernels.size())
          : fmt::format("{}: {} layers, all simulated; {} kernels\n", run.name, layers,
                        run.result.kernels.size());
  if (prefill) {
    out += fmt::format("  TTFT {:.2f} ms for a prompt of {} tokens ({:.0f} tokens/s)\n",
                       number(f, "ttft_us") / 1e3, number(p, "tokens"),
                       number(f, "prefill_tokens_per_s"));
  } else {
    out += fmt::format("  TPOT {:.2f} ms at batch {}, context {}: {:.0f} tokens/s\n",
                       number(f, "tpot_us") / 1e3, number(p, "batch"), number(p, "context"),
                       number(f, "tokens_per_s"));
  }
  const double capacity = number(f, "hbm_capacity_bytes");
  const double memory = number(f, "memory_bytes");
  const std::string context = fmt::format("{}", number(p, prefill ? "tokens" : "context"));
  out += fmt::format(
      "  HBM: weights {:.2f} GB + KV cache {:.2f} GB = {:.2f} GB of {:.2f} GB{}; at most {} "
      "sequences of {} tokens fit\n",
      gb(number(f, "weight_bytes")), gb(number(f, "kv_cache_bytes")), gb(memory), gb(capacity),
      memory > capacity ? " (OUT OF MEMORY)" : "", number(f, "max_concurrency"), context);
  return out;
}

}  // namespace tilesim::report
