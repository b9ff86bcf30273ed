// AttentionProblem's arithmetic, its domain and the variant names
// (attention_problem.hpp).

#include "kernels/attention/attention_problem.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <sstream>

namespace tilesim::kernels {
namespace {

struct VariantName {
  AttentionVariant variant;
  std::string_view name;
};
constexpr std::array<VariantName, 7> kVariantNames = {{
    {AttentionVariant::unfused, "unfused"},
    {AttentionVariant::flash, "flash"},
    {AttentionVariant::flash_wgmma, "flash_wgmma"},
    {AttentionVariant::flash_decoding, "flash_decoding"},
    {AttentionVariant::paged_v1, "paged_v1"},
    {AttentionVariant::paged_v2, "paged_v2"},
    {AttentionVariant::stream_k_decode, "stream_k_decode"},
}};

// Keys query `query` of a sequence sees (bottom-right aligned causal mask).
std::int64_t visible_keys(const AttentionProblem& problem, std::int64_t kv_len,
                          std::int64_t query) {
  if (!problem.causal) return kv_len;
  return std::clamp<std::int64_t>(kv_len - problem.q_len + query + 1, 0, kv_len);
}

// The element type's name, here rather than gemm_launch's to_string: that one
// would link every GEMM kernel into programs that only run attention.
std::string_view dtype_name(ElementType type) {
  switch (type) {
    case ElementType::bf16:
      return "bf16";
    case ElementType::fp16:
      return "fp16";
    case ElementType::fp32:
      return "fp32";
  }
  return "unknown";
}

}  // namespace

std::optional<AttentionVariant> parse_attention_variant(std::string_view name) {
  for (const auto& entry : kVariantNames) {
    if (entry.name == name) return entry.variant;
  }
  return std::nullopt;
}

std::string_view to_string(AttentionVariant variant) {
  for (const auto& entry : kVariantNames) {
    if (entry.variant == variant) return entry.name;
  }
  return "unknown";
}

std::string_view study_variant(AttentionVariant variant) {
  return variant == AttentionVariant::flash_wgmma ? "flash" : to_string(variant);
}

std::string_view kernel_profile(AttentionVariant variant) {
  return variant == AttentionVariant::flash_wgmma ? "tilesim_ref_wgmma" : "tilesim_ref";
}

std::int64_t AttentionProblem::total_kv() const {
  return std::accumulate(kv_lens.begin(), kv_lens.end(), std::int64_t{0});
}

std::vector<std::int64_t> AttentionProblem::kv_starts() const {
  std::vector<std::int64_t> starts(kv_lens.size());
  std::int64_t row = 0;
  for (std::size_t b = 0; b < kv_lens.size(); ++b) {
    starts[b] = row;
    row += kv_lens[b];
  }
  return starts;
}

int AttentionProblem::max_kv_len() const {
  return kv_lens.empty() ? 0 : *std::max_element(kv_lens.begin(), kv_lens.end());
}

int AttentionProblem::max_pages_per_sequence() const {
  const int pages = (max_kv_len() + page_size - 1) / page_size;
  return (pages + kBlockTableAlign - 1) / kBlockTableAlign * kBlockTableAlign;
}

// Per sequence: every pair when not causal; else q_len rows of a staircase that
// starts at kv_len - q_len + 1 keys (the same sum as workloads' AttentionShape).
double AttentionProblem::useful_flops() const {
  double pairs = 0;
  for (const int kv_len : kv_lens) {
    if (!causal) {
      pairs += double(q_len) * double(kv_len);
      continue;
    }
    for (std::int64_t query = 0; query < q_len; ++query) {
      pairs += double(visible_keys(*this, kv_len, query));
    }
  }
  return 4.0 * pairs * double(heads) * double(head_dim);
}

double AttentionProblem::min_bytes() const {
  const double element = dtype == ElementType::fp32 ? 4.0 : 2.0;
  const double q_and_o = 2.0 * double(total_q()) * double(heads) * double(head_dim);
  const double k_and_v = 2.0 * double(total_kv()) * double(kv_heads) * double(head_dim);
  return element * (q_and_o + k_and_v);
}

std::optional<std::string> attention_problem_error(const AttentionProblem& problem) {
  std::ostringstream why;
  if (problem.dtype != ElementType::bf16 && problem.dtype != ElementType::fp16) {
    why << "dtype " << dtype_name(problem.dtype) << ": the kernels take bf16 or fp16";
  } else if (problem.head_dim != 64 && problem.head_dim != 128) {
    why << "head_dim " << problem.head_dim << ": the kernels are compiled for 64 and 128";
  } else if (problem.batch < 1 || problem.heads < 1 || problem.kv_heads < 1 || problem.q_len < 1) {
    why << "batch, heads, kv_heads and q_len must be at least 1";
  } else if (problem.heads % problem.kv_heads != 0) {
    why << "heads (" << problem.heads << ") must be a multiple of kv_heads (" << problem.kv_heads
        << ")";
  } else if (problem.kv_lens.size() != static_cast<std::size_t>(problem.batch)) {
    why << "kv_lens has " << problem.kv_lens.size() << " entries for batch " << problem.batch;
  } else if (std::any_of(problem.kv_lens.begin(), problem.kv_lens.end(),
                         [](int kv_len) { return kv_len < 1; })) {
    why << "every kv_len must be at least 1";
  } else if (problem.causal && std::any_of(problem.kv_lens.begin(), problem.kv_lens.end(),
                                           [&](int kv_len) { return kv_len < problem.q_len; })) {
    why << "causal needs q_len (" << problem.q_len << ") <= kv_len of every sequence";
  } else if (problem.page_size != 16 && problem.page_size != 32 && problem.page_size != 64 &&
             problem.page_size != 128) {
    why << "page_size " << problem.page_size << ": 16, 32, 64 or 128";
  } else if (problem.splits < 0) {
    why << "splits must be 0 (the kernel picks) or positive";
  } else {
    return std::nullopt;
  }
  return why.str();
}

std::string to_string(const AttentionProblem& problem) {
  std::ostringstream text;
  text << "b" << problem.batch << " h" << problem.heads << "/" << problem.kv_heads << " q"
       << problem.q_len << " kv";
  const bool uniform = std::all_of(problem.kv_lens.begin(), problem.kv_lens.end(),
                                   [&](int kv_len) { return kv_len == problem.kv_lens.front(); });
  if (uniform && !problem.kv_lens.empty()) {
    text << problem.kv_lens.front();
  } else {
    for (std::size_t b = 0; b < problem.kv_lens.size(); ++b) {
      text << (b == 0 ? "" : ";") << problem.kv_lens[b];
    }
  }
  text << " d" << problem.head_dim << (problem.causal ? " causal " : " ")
       << dtype_name(problem.dtype);
  return text.str();
}

}  // namespace tilesim::kernels
