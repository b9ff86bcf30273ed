#pragma once
// The DecodeParams of a problem and its tensors (host side, every decode launcher).

#include <cmath>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/decode/decode_params.cuh"

namespace tilesim::kernels::decode {

inline DecodeParams make_decode_params(const AttentionProblem& problem,
                                       const AttentionTensors& tensors, bool paged) {
  DecodeParams p;
  p.q = tensors.q;
  p.k = tensors.k;
  p.v = tensors.v;
  p.o = tensors.o;
  p.kv_starts = paged ? nullptr : reinterpret_cast<const long long*>(tensors.kv_starts);
  p.kv_lens = tensors.kv_lens;
  p.block_table = paged ? tensors.block_table : nullptr;
  p.batch = problem.batch;
  p.heads = problem.heads;
  p.kv_heads = problem.kv_heads;
  p.group_size = problem.group_size();
  p.q_len = problem.q_len;
  p.rows = p.group_size * problem.q_len;
  p.causal = problem.causal;
  p.scale_log2 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(problem.head_dim)) *
                                    1.4426950408889634);  // log2(e)
  if (paged) {
    while ((1 << p.page_size_log2) < problem.page_size) ++p.page_size_log2;
    p.max_pages = problem.max_pages_per_sequence();
  }
  return p;
}

}  // namespace tilesim::kernels::decode
