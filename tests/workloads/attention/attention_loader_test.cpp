// Attention entries of a study: every field read, every mistake reported at
// its line and column with what is allowed, and variants that cannot run a
// shape refused with the reason.

#include <gtest/gtest.h>

#include "tests/hwmodels/config_test_support.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/attention/attention_lowering.hpp"
#include "workloads/study_loader.hpp"

namespace tilesim::workloads {
namespace {

using tilesim::testing::HasDiagnostic;
using tilesim::testing::replace_line;
using tilesim::testing::write_temp_file;

constexpr std::string_view kValid = R"(hardware: h100_sxm
workloads:
  - name: prefill
    attention: {batch: 2, heads: 32, kv_heads: 8, q_len: 4096, kv_len: 4096, head_dim: 128, causal: true, dtype: fp16}
    variant: unfused
  - name: varlen
    attention: {heads: 4, q_len: 1, kv_lens: [131072, 1024], head_dim: 64, page_size: 32}
    variant: flash_decoding
    splits: 4
    kernel: tilesim_ref
)";

config::Loaded<Study> load_text(std::string_view text) {
  return load_study(write_temp_file("attention_study.yaml", text), {"data_parallel"});
}

config::Diagnostics problems_with_line(int line, std::string_view replacement) {
  const auto loaded = load_text(replace_line(kValid, line, replacement));
  EXPECT_FALSE(loaded.ok());
  return loaded.diagnostics;
}

TEST(AttentionLoader, ReadsEveryField) {
  const auto loaded = load_text(kValid);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics.format();
  const auto& prefill = std::get<AttentionWorkload>(loaded.value->workloads.at(0));
  EXPECT_EQ(prefill.shape.batch, 2);
  EXPECT_EQ(prefill.shape.kv_heads, 8);
  EXPECT_EQ(prefill.shape.kv_lens, (std::vector<std::int64_t>{4096, 4096}));
  EXPECT_TRUE(prefill.shape.causal);
  EXPECT_EQ(prefill.shape.dtype, hw::DataType::fp16);
  EXPECT_EQ(prefill.variant, "unfused");
  EXPECT_EQ(prefill.kernel, "library");
  const auto& varlen = std::get<AttentionWorkload>(loaded.value->workloads.at(1));
  EXPECT_EQ(varlen.shape.batch, 2);     // from kv_lens
  EXPECT_EQ(varlen.shape.kv_heads, 4);  // defaults to heads
  EXPECT_EQ(varlen.shape.kv_lens, (std::vector<std::int64_t>{131072, 1024}));
  EXPECT_EQ(varlen.shape.page_size, 32);
  EXPECT_EQ(varlen.splits, 4);
  EXPECT_EQ(varlen.kernel, "tilesim_ref");
  EXPECT_EQ(varlen.variant_where.line, 8);
}

TEST(AttentionLoader, ReportsFieldProblemsWithWhatIsAllowed) {
  EXPECT_TRUE(HasDiagnostic(
      problems_with_line(4,
                         "    attention: {heads: 32, kv_heads: 12, q_len: 1, kv_len: 4096, "
                         "head_dim: 128}"),
      4, 38, "workloads[0].attention.kv_heads", "heads (32) must be a multiple of kv_heads (12)"));
  EXPECT_TRUE(HasDiagnostic(
      problems_with_line(4, "    attention: {heads: 32, q_len: 1, kv_len: 4096, head_dim: 100}"), 4,
      62, "workloads[0].attention.head_dim", "multiple of 8"));
  EXPECT_TRUE(
      HasDiagnostic(problems_with_line(7,
                                       "    attention: {heads: 4, q_len: 1, kv_lens: [131072, 0], "
                                       "head_dim: 64}"),
                    7, 55, "workloads[1].attention.kv_lens[1]", "1 to 2147483648"));
  EXPECT_TRUE(HasDiagnostic(
      problems_with_line(7,
                         "    attention: {batch: 3, heads: 4, q_len: 1, kv_lens: [8, 9], "
                         "head_dim: 64}"),
      7, 24, "workloads[1].attention.batch", "batch is 3 but kv_lens has 2 entries"));
  EXPECT_TRUE(
      HasDiagnostic(problems_with_line(4, "    attention: {heads: 32, q_len: 4096, head_dim: 128}"),
                    3, 5, "workloads[0].attention", "missing key `kv_len`"));
  EXPECT_TRUE(HasDiagnostic(
      problems_with_line(4,
                         "    attention: {heads: 32, q_len: 8, kv_len: 4, kv_lens: [4], "
                         "head_dim: 128}"),
      4, 58, "workloads[0].attention.kv_lens", "not both"));
  EXPECT_TRUE(HasDiagnostic(
      problems_with_line(4,
                         "    attention: {heads: 32, q_len: 8, kv_len: 4, head_dim: 128, "
                         "causal: true}"),
      4, 35, "workloads[0].attention.q_len", "q_len <= kv_len"));
}

TEST(AttentionLoader, ReportsVariantProblems) {
  EXPECT_TRUE(HasDiagnostic(problems_with_line(5, "    variant: flash_decode"), 5, 14,
                            "workloads[0].variant",
                            "unfused, flash, flash_decoding, paged_v1, paged_v2, "
                            "stream_k_decode, compare"));
  EXPECT_TRUE(HasDiagnostic(problems_with_line(8, "    variant: paged_v2"), 9, 13,
                            "workloads[1].splits", "applies to flash_decoding"));
}

AttentionWorkload decode_workload(std::string variant, std::int64_t q_len, std::int64_t kv_len) {
  AttentionWorkload workload;
  workload.name = "decode";
  workload.shape.heads = 32;
  workload.shape.kv_heads = 8;
  workload.shape.q_len = q_len;
  workload.shape.kv_lens = {kv_len};
  workload.variant = std::move(variant);
  return workload;
}

TEST(AttentionLowering, RefusesVariantsThatCannotRunTheShape) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h100_sxm");
  const auto long_context = lower_attention(decode_workload("paged_v1", 1, 131072), spec);
  ASSERT_FALSE(long_context.ok());
  EXPECT_NE(long_context.diagnostics.format().find(
                "keeps a sequence's logits in shared memory: 131072 keys need 512 KiB"),
            std::string::npos)
      << long_context.diagnostics.format();
  const auto many_queries = lower_attention(decode_workload("flash_decoding", 32, 4096), spec);
  ASSERT_FALSE(many_queries.ok());
  EXPECT_NE(many_queries.diagnostics.format().find("x q_len = 128 query rows into one 64-row"),
            std::string::npos)
      << many_queries.diagnostics.format();
  const auto fits = lower_attention(decode_workload("flash_decoding", 16, 4096), spec);
  ASSERT_TRUE(fits.ok()) << fits.diagnostics.format();
  EXPECT_EQ(fits.value->size(), 2u);  // split kernel and combine
}

}  // namespace
}  // namespace tilesim::workloads
