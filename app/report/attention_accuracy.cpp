#include "app/report/attention_accuracy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "workloads/attention/attention_implementations.hpp"
#include "workloads/attention/decode_packing.hpp"

namespace tilesim::report {
namespace {

using workloads::ComparedAttention;

AccuracyMetrics metrics_where(const std::vector<ComparedAttention>& rows, const auto& keep) {
  std::vector<double> measured;
  std::vector<double> predicted;
  for (const ComparedAttention& row : rows) {
    if (!keep(row)) continue;
    measured.push_back(row.measured.time_us);
    predicted.push_back(row.predicted_us);
  }
  return accuracy_metrics(measured, predicted);
}

std::vector<std::string> implementations_in_order(const std::vector<ComparedAttention>& rows) {
  std::vector<std::string> names;
  for (const ComparedAttention& row : rows) {
    const std::string& name = row.measured.implementation;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::vector<std::string> classes_in_order(const std::vector<ComparedAttention>& rows) {
  std::vector<std::string> names;
  for (const ComparedAttention& row : rows) {
    if (std::find(names.begin(), names.end(), row.kernel_class) == names.end()) {
      names.push_back(row.kernel_class);
    }
  }
  return names;
}

std::string family_of(const std::string& implementation) {
  const auto found = workloads::find_attention_implementation(implementation);
  return found ? found->family : implementation;
}

bool is_own(const std::string& implementation) {
  const auto found = workloads::find_attention_implementation(implementation);
  return found && found->own;
}

std::vector<FusedUnfusedRatio> fused_unfused_ratios(const std::vector<ComparedAttention>& rows) {
  std::vector<FusedUnfusedRatio> ratios;
  for (const ComparedAttention& fused : rows) {
    const workloads::AttentionWorkload& f = fused.measured.workload;
    if (f.variant != "flash" || is_decode(f.shape)) continue;
    const std::string shape = attention_shape_key(f.shape);
    for (const ComparedAttention& unfused : rows) {
      const workloads::AttentionWorkload& u = unfused.measured.workload;
      if (u.variant != "unfused" || attention_shape_key(u.shape) != shape ||
          family_of(unfused.measured.implementation) != family_of(fused.measured.implementation)) {
        continue;
      }
      ratios.push_back({shape, fused.measured.implementation, unfused.measured.implementation,
                        unfused.measured.time_us / fused.measured.time_us,
                        unfused.predicted_us / fused.predicted_us});
    }
  }
  return ratios;
}

ScheduleChoiceAccuracy decode_choice(const std::vector<ComparedAttention>& rows) {
  std::vector<ScheduleCase> cases;
  for (const ComparedAttention& row : rows) {
    const workloads::MeasuredAttention& m = row.measured;
    if (!is_own(m.implementation) || !is_decode(m.workload.shape)) continue;
    const double noise = m.time_us_p90 ? std::max(0.0, *m.time_us_p90 / m.time_us - 1) : 0.0;
    cases.push_back({fmt::format("{} {}", m.implementation, attention_shape_key(m.workload.shape)),
                     row.simulated, m.time_us, noise, row.predicted_us});
  }
  return schedule_choice_accuracy(cases);
}

}  // namespace

bool is_decode(const workloads::AttentionShape& shape) {
  return shape.q_len <= workloads::kMaxDecodeQueries;
}

std::string attention_shape_key(const workloads::AttentionShape& shape) {
  const bool uniform = std::all_of(shape.kv_lens.begin(), shape.kv_lens.end(),
                                   [&](std::int64_t len) { return len == shape.kv_lens.front(); });
  const std::string kv = uniform ? std::to_string(shape.kv_lens.front())
                                 : fmt::format("[{}]", fmt::join(shape.kv_lens, ";"));
  return fmt::format("{}x{}/{} {}x{} d{} {}{}", shape.batch, shape.heads, shape.kv_heads,
                     shape.q_len, kv, shape.head_dim, hw::to_string(shape.dtype),
                     shape.causal ? " causal" : "");
}

AttentionAccuracy summarize_attention(const std::vector<ComparedAttention>& rows) {
  AttentionAccuracy accuracy;
  accuracy.all = metrics_where(rows, [](const ComparedAttention&) { return true; });
  for (const std::string& name : implementations_in_order(rows)) {
    const auto of = [&](const ComparedAttention& row) {
      return row.measured.implementation == name;
    };
    accuracy.implementations.push_back({name, metrics_where(rows, of)});
    const AccuracyMetrics decode = metrics_where(rows, [&](const ComparedAttention& row) {
      return of(row) && is_decode(row.measured.workload.shape);
    });
    if (decode.cases == 0 || decode.cases == accuracy.implementations.back().metrics.cases)
      continue;
    accuracy.implementations.push_back(
        {name + " prefill", metrics_where(rows, [&](const ComparedAttention& row) {
           return of(row) && !is_decode(row.measured.workload.shape);
         })});
    accuracy.implementations.push_back({name + " decode", decode});
  }
  for (const std::string& kernel_class : classes_in_order(rows)) {
    accuracy.classes.push_back(
        {"class " + kernel_class, metrics_where(rows, [&](const ComparedAttention& row) {
           return row.kernel_class == kernel_class;
         })});
  }
  accuracy.fused_unfused = fused_unfused_ratios(rows);
  accuracy.decode_choice = decode_choice(rows);
  return accuracy;
}

}  // namespace tilesim::report
