#pragma once
// How close attention predictions are to measurements: the accuracy metrics
// per implementation (and per phase, prefill or decode, where it has both)
// and per implementation class (the class of the attention profile a row ran with),
// the fused/unfused ratio per prefill shape measured both ways by one
// implementation family, and whether the model picks the fastest of our own
// decode variants (docs/validation.md, "Attention").

#include <string>
#include <vector>

#include "app/report/accuracy_metrics.hpp"
#include "app/report/schedule_choice_accuracy.hpp"
#include "workloads/measurement/measurement_comparison.hpp"

namespace tilesim::report {

struct LabeledMetrics {
  std::string label;  // "sdpa_flash", or "sdpa_flash decode"
  AccuracyMetrics metrics;
};

// Unfused time over flash time, measured and predicted, for one shape.
struct FusedUnfusedRatio {
  std::string shape;
  std::string fused;    // implementation of the flash row
  std::string unfused;  // implementation of the unfused row
  double measured = 0;
  double predicted = 0;
};

struct AttentionAccuracy {
  AccuracyMetrics all;
  std::vector<LabeledMetrics> implementations;  // in first-seen order
  // Per class of attention profile ("class flash_mma_sync"), in first-seen order.
  std::vector<LabeledMetrics> classes;
  std::vector<FusedUnfusedRatio> fused_unfused;
  ScheduleChoiceAccuracy decode_choice;  // our kernels' decode variants per problem
};

AttentionAccuracy summarize_attention(const std::vector<workloads::ComparedAttention>& rows);

// "16x32/8 1x4096 d128 bf16" (+ " causal"): batch x heads/kv_heads, q_len x
// kv_len (or "var"), head dim, type; the page size is not part of it.
std::string attention_shape_key(const workloads::AttentionShape& shape);
bool is_decode(const workloads::AttentionShape& shape);

}  // namespace tilesim::report
