// Decode cases of tilesim-attention-check (kernels/attention/decode/): every
// shape runs on flash_decoding, paged_v1, paged_v2 and stream_k_decode. Key
// blocks are 64 keys, paged_v2 partitions 512: lengths 1, 63, 64, 65, odd and
// long ones sit on and beside those edges; GQA 1/4/8 and MQA, both types and
// head sizes, small causal q_len (packed rows up to 64), page sizes 16-128.
// Then what only one variant has: explicit split counts, and Stream-K grids
// where one pair spans every CTA, where CTAs outnumber blocks, and a skewed
// batch whose long sequence is shared by many CTAs.

#include "tests/kernels/attention_check_cases.hpp"

namespace tilesim::kernels::attention_check {
namespace {

AttentionProblem with(AttentionProblem problem, int page_size, int splits = 0) {
  problem.page_size = page_size;
  problem.splits = splits;
  return problem;
}

}  // namespace

std::vector<CheckCase> decode_check_cases() {
  const auto bf16 = ElementType::bf16;
  const auto fp16 = ElementType::fp16;
  struct Shape {
    AttentionProblem problem;
    const char* why;
    bool small;
  };
  const std::vector<Shape> shapes = {
      {with(make_problem(bf16, 128, 32, 8, 1, {1, 63, 65, 700}, false), 16),
       "GQA 4, lengths at block edges, page 16", true},
      {with(make_problem(fp16, 64, 16, 1, 2, {2, 64, 300}, true), 32),
       "MQA, causal q_len 2 (32 rows), d 64, fp16, page 32", true},
      {with(make_problem(bf16, 128, 32, 8, 1, {1, 63, 64, 65, 1000, 4097}, false), 64),
       "GQA 4, varlen around block and partition edges, page 64", true},
      {with(make_problem(fp16, 64, 8, 8, 1, {5, 700, 2049}, false), 128),
       "MHA (group 1), d 64, fp16, page 128", true},
      {with(make_problem(bf16, 64, 64, 8, 1, {3000, 129}, false), 16), "GQA 8, d 64, page 16",
       false},
      {with(make_problem(fp16, 128, 16, 1, 1, {20000, 31}, false), 32),
       "MQA 16 heads, 20k keys, fp16", false},
      {with(make_problem(bf16, 128, 32, 1, 1, {9000}, false), 64), "MQA 32 heads (two row tiles)",
       false},
      {with(make_problem(bf16, 128, 16, 1, 4, {4, 2000, 777}, true), 16),
       "MQA, causal q_len 4 (64 rows, four row tiles)", false},
      {with(make_problem(fp16, 64, 32, 8, 2, {2, 65, 700}, true), 128),
       "GQA 4, causal q_len 2, one 2-key sequence", false},
      {with(make_problem(bf16, 128, 8, 2, 3, {3, 100, 513}, false), 32),
       "GQA 4, non-causal q_len 3", false},
  };
  std::vector<CheckCase> cases;
  for (const AttentionVariant variant :
       {AttentionVariant::flash_decoding, AttentionVariant::paged_v1, AttentionVariant::paged_v2,
        AttentionVariant::stream_k_decode}) {
    for (const Shape& shape : shapes) {
      cases.push_back({variant, shape.problem, shape.why, shape.small});
    }
  }

  const AttentionProblem three = make_problem(bf16, 128, 32, 8, 1, {5000, 17, 900}, false);
  for (const int splits : {1, 3, 7, 1000}) {
    cases.push_back({AttentionVariant::flash_decoding, with(three, 16, splits),
                     splits == 1000 ? "more splits asked than blocks (clamped to one per block)"
                                    : "explicit split count",
                     false});
  }
  for (const int page_size : {16, 32, 64, 128}) {
    for (const AttentionVariant variant :
         {AttentionVariant::paged_v1, AttentionVariant::paged_v2}) {
      cases.push_back({variant,
                       with(make_problem(fp16, 128, 32, 8, 1, {1500, 1, 700}, false), page_size),
                       "page size sweep", false});
    }
  }
  cases.push_back({AttentionVariant::stream_k_decode,
                   make_problem(bf16, 128, 8, 8, 1, {10, 3}, false),
                   "fewer blocks than persistent CTAs", true});
  cases.push_back({AttentionVariant::stream_k_decode,
                   make_problem(bf16, 128, 16, 1, 1, {50000}, false),
                   "one pair shared by every CTA (one owner, all others peers)", false});
  cases.push_back({AttentionVariant::stream_k_decode,
                   make_problem(fp16, 64, 32, 8, 1,
                                {4311, 17,   2950, 64,   1,    3333, 129,  800,  4999, 65,   2048,
                                 1234, 777,  4096, 12,   3071, 511,  513,  2222, 90,   4444, 5,
                                 1900, 3500, 60,   4200, 333,  1025, 2600, 7,    1536, 4000},
                                false),
                   "32 varied lengths, pairs cut anywhere", false});
  std::vector<int> skewed(32, 1024);
  skewed[0] = 131072;
  for (const AttentionVariant variant :
       {AttentionVariant::stream_k_decode, AttentionVariant::flash_decoding}) {
    cases.push_back({variant, with(make_problem(bf16, 128, 32, 8, 1, skewed, false), 16, 2),
                     "skewed batch: one 128k sequence and 31 of 1k", false});
  }
  return cases;
}

}  // namespace tilesim::kernels::attention_check
