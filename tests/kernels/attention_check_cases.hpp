#pragma once
// The cases tilesim-attention-check runs: one list per family of variants, each
// in its own file, so prefill and decode kernels add cases without touching
// the program (attention_correctness_test.cpp).

#include <string>
#include <vector>

#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels::attention_check {

struct CheckCase {
  AttentionVariant variant = AttentionVariant::flash;
  AttentionProblem problem;
  std::string why;     // what the case exercises, printed beside the result
  bool small = false;  // also in --small (the compute-sanitizer runs)
};

// unfused and flash (attention_prefill_check_cases.cpp).
std::vector<CheckCase> prefill_check_cases();
// flash_decoding, paged_v1, paged_v2, stream_k_decode (attention_decode_check_cases.cpp).
std::vector<CheckCase> decode_check_cases();

// A problem with every sequence `kv_len` keys long unless `kv_lens` is given.
AttentionProblem make_problem(ElementType dtype, int head_dim, int heads, int kv_heads, int q_len,
                              std::vector<int> kv_lens, bool causal);

}  // namespace tilesim::kernels::attention_check
