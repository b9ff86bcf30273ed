// Prefill cases of tilesim-attention-check: every shape runs on unfused,
// flash and flash_wgmma. Lengths are mostly multiples of no tile (flash: 128
// queries x 32 or 64 keys; flash_wgmma: 128 x 128), both types, both head sizes, MHA, GQA 4 and 8,
// MQA, causal with q_len < kv_len (bottom-right aligned), variable-length batches.

#include "tests/kernels/attention_check_cases.hpp"

namespace tilesim::kernels::attention_check {

AttentionProblem make_problem(ElementType dtype, int head_dim, int heads, int kv_heads, int q_len,
                              std::vector<int> kv_lens, bool causal) {
  AttentionProblem problem;
  problem.batch = static_cast<int>(kv_lens.size());
  problem.heads = heads;
  problem.kv_heads = kv_heads;
  problem.q_len = q_len;
  problem.kv_lens = std::move(kv_lens);
  problem.head_dim = head_dim;
  problem.causal = causal;
  problem.dtype = dtype;
  return problem;
}

std::vector<CheckCase> prefill_check_cases() {
  const auto bf16 = ElementType::bf16;
  const auto fp16 = ElementType::fp16;
  struct Shape {
    AttentionProblem problem;
    const char* why;
    bool small;
  };
  const std::vector<Shape> shapes = {
      {make_problem(bf16, 128, 2, 1, 70, {130}, true), "MQA, causal, q < kv, one partial block",
       true},
      {make_problem(fp16, 64, 2, 2, 129, {77}, false), "q > kv, non-causal, partial blocks", true},
      {make_problem(bf16, 64, 4, 2, 20, {33, 100}, true), "varlen batch of 2, causal", true},
      {make_problem(bf16, 128, 8, 8, 256, {256}, false), "tile multiples", false},
      {make_problem(bf16, 64, 4, 4, 200, {333}, false), "odd lengths, d 64", false},
      {make_problem(fp16, 128, 16, 4, 1000, {1000}, true), "GQA 4, causal, square, fp16", false},
      {make_problem(bf16, 128, 16, 2, 777, {1025}, true), "GQA 8, causal, q < kv", false},
      {make_problem(bf16, 64, 8, 1, 130, {4099}, true), "MQA, causal, q << kv, d 64", false},
      {make_problem(fp16, 64, 8, 2, 64, {3000}, false), "GQA 4, one query block, long kv, fp16",
       false},
      {make_problem(bf16, 128, 8, 2, 100, {100, 1031, 4096}, true),
       "varlen batch 100/1031/4096, causal", false},
      {make_problem(fp16, 64, 4, 4, 33, {1, 17, 500, 2049}, false),
       "varlen batch with a 1-key sequence, fp16", false},
      {make_problem(bf16, 128, 8, 8, 1, {1000, 3}, true), "one query per sequence (decode-like)",
       false},
      {make_problem(bf16, 128, 4, 4, 300, {100}, false), "q 300 > kv 100", false},
      {make_problem(fp16, 128, 4, 1, 2048, {4096}, true), "MQA, causal, 16 query blocks, fp16",
       false},
      {make_problem(bf16, 128, 4, 4, 4096, {4096}, true), "long causal square, 32 query blocks",
       false},
  };
  std::vector<CheckCase> cases;
  for (const AttentionVariant variant :
       {AttentionVariant::unfused, AttentionVariant::flash, AttentionVariant::flash_wgmma}) {
    for (const Shape& shape : shapes)
      cases.push_back({variant, shape.problem, shape.why, shape.small});
  }
  return cases;
}

}  // namespace tilesim::kernels::attention_check
