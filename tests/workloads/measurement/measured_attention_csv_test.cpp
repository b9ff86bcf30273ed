// Attention rows of the measurement CSV (kernels/README.md, "The attention
// measurement CSV"): attention-only and mixed files, and one clear problem per
// bad cell, at its line and column.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "workloads/attention/attention_implementations.hpp"
#include "workloads/measurement/measured_csv.hpp"

namespace tilesim::workloads {
namespace {

const std::vector<std::string> kSchedules = {"data_parallel", "split_k", "stream_k"};

const std::string kHeader =
    "name,kernel,variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,dtype,splits,"
    "page_size,time_us,time_us_min,time_us_p90,tflops,gbps,runs,input_sets,rel_error\n";
// The GEMM columns first, then the attention-only ones.
const std::string kMixedHeader =
    "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,time_us_min,"
    "time_us_p90,tflops,runs,variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,"
    "page_size,gbps\n";

config::Loaded<MeasuredRows> read(const std::string& text) {
  return read_measured_csv_text(text, "a.csv", kSchedules);
}

std::string problems_of(const config::Loaded<MeasuredRows>& loaded) {
  return loaded.diagnostics.format();
}

// Expects `problem` among the reported lines.
void expect_problem(const config::Loaded<MeasuredRows>& loaded, const std::string& problem) {
  EXPECT_FALSE(loaded.ok());
  EXPECT_NE(problems_of(loaded).find(problem), std::string::npos) << problems_of(loaded);
}

TEST(MeasuredAttentionCsv, ReadsEveryFieldOfEachVariant) {
  const auto loaded = read(
      kHeader +
      "p.sdpa_flash,sdpa_flash,flash,2,32,8,1024,4096,,128,true,bf16,,,100.5,99,104,300,10,20,1,"
      "1e-3\n"
      "p.sdpa_math,sdpa_math,unfused,2,32,8,1024,4096,,128,true,fp16,,,900,890,910,30,1,20,1,"
      "1e-3\n"
      "d.fd,tilesim_ref,flash_decoding,3,32,8,1,,131072;1024;512,64,false,bf16,7,,55,54,56,1,1,"
      "20,1,1e-3\n"
      "d.pv2,tilesim_ref,paged_v2,1,32,32,1,32768,,128,false,bf16,64,32,70,69,72,1,1,20,1,1e-3\n"
      "d.pv1,tilesim_ref,paged_v1,1,32,1,1,1024,,128,false,bf16,,128,9,8,10,1,1,20,1,1e-3\n");
  ASSERT_TRUE(loaded.ok()) << problems_of(loaded);
  EXPECT_TRUE(loaded.value->gemms.empty());
  const std::vector<MeasuredAttention>& rows = loaded.value->attention;
  ASSERT_EQ(rows.size(), 5u);
  const MeasuredAttention& flash = rows[0];
  EXPECT_EQ(flash.implementation, "sdpa_flash");
  EXPECT_EQ(flash.workload.kernel, "sdpa_flash");  // the implementation picks its profile
  EXPECT_EQ(flash.workload.variant, "flash");
  EXPECT_EQ(flash.workload.shape.batch, 2);
  EXPECT_EQ(flash.workload.shape.heads, 32);
  EXPECT_EQ(flash.workload.shape.kv_heads, 8);
  EXPECT_EQ(flash.workload.shape.q_len, 1024);
  EXPECT_EQ(flash.workload.shape.kv_lens, (std::vector<std::int64_t>{4096, 4096}));
  EXPECT_TRUE(flash.workload.shape.causal);
  EXPECT_DOUBLE_EQ(flash.time_us, 100.5);
  EXPECT_DOUBLE_EQ(*flash.time_us_p90, 104);
  EXPECT_EQ(flash.line, 2);
  EXPECT_EQ(rows[1].workload.variant, "unfused");
  EXPECT_EQ(rows[1].workload.shape.dtype, hw::DataType::fp16);
  const MeasuredAttention& varlen = rows[2];
  EXPECT_EQ(varlen.workload.kernel, "tilesim_ref");
  EXPECT_EQ(varlen.workload.shape.kv_lens, (std::vector<std::int64_t>{131072, 1024, 512}));
  EXPECT_EQ(varlen.workload.shape.head_dim, 64);
  EXPECT_EQ(varlen.workload.splits, 7);  // flash_decoding: simulated with the measured splits
  EXPECT_FALSE(varlen.measured_splits.has_value());
  const MeasuredAttention& paged = rows[3];
  EXPECT_EQ(paged.workload.shape.page_size, 32);
  EXPECT_FALSE(paged.workload.splits.has_value());  // the model cuts its own partitions
  EXPECT_EQ(paged.measured_splits, 64);
  EXPECT_EQ(rows[4].workload.shape.page_size, 128);
}

TEST(MeasuredAttentionCsv, MixedFileKeepsGemmAndAttentionRowsApart) {
  const auto loaded = read(kMixedHeader +
                           "g,library,data_parallel,64,64,64,bf16,,,,,10,9,11,1,20,,,,,,,,,,,\n"
                           "a.sdpa_cudnn,sdpa_cudnn,,,,,bf16,,,,,20,19,21,1,20,flash,1,8,8,512,"
                           "512,,64,false,,5\n");
  ASSERT_TRUE(loaded.ok()) << problems_of(loaded);
  ASSERT_EQ(loaded.value->gemms.size(), 1u);
  ASSERT_EQ(loaded.value->attention.size(), 1u);
  EXPECT_EQ(loaded.value->gemms[0].line, 2);
  EXPECT_EQ(loaded.value->attention[0].line, 3);
  EXPECT_EQ(loaded.value->attention[0].implementation, "sdpa_cudnn");
}

TEST(MeasuredAttentionCsv, CellsOfTheOtherKindAreRefused) {
  const auto loaded = read(kMixedHeader +
                           "g,library,data_parallel,64,64,64,bf16,,,,,10,9,11,1,20,,1,,,,,,,,,\n"
                           "a,sdpa_flash,,64,,,bf16,,,,,20,19,21,1,20,flash,1,8,8,512,512,,64,"
                           "false,,5\n");
  expect_problem(loaded, "a.csv:2:18: error: batch: \"1\": this column belongs to attention rows");
  expect_problem(loaded, "a.csv:3:4: error: m: \"64\": this column belongs to GEMM rows");
}

TEST(MeasuredAttentionCsv, UnknownImplementationListsTheTable) {
  const auto loaded =
      read(kHeader + "a,sdpa_flsh,flash,1,8,8,512,512,,64,false,bf16,,,20,,,,,,,\n");
  expect_problem(loaded,
                 "a.csv:2:2: error: kernel: unknown attention implementation `sdpa_flsh`; "
                 "allowed: library, tilesim_ref, tilesim_ref_wgmma, sdpa_flash, sdpa_cudnn, "
                 "sdpa_efficient, sdpa_math");
}

TEST(MeasuredAttentionCsv, VariantMustBeOneTheImplementationRuns) {
  const auto loaded = read(kHeader +
                           "a,sdpa_math,flash,1,8,8,512,512,,64,false,bf16,,,20,,,,,,,\n"
                           "b,tilesim_ref,compare,1,8,8,512,512,,64,false,bf16,,,20,,,,,,,\n");
  expect_problem(loaded,
                 "a.csv:2:3: error: variant: `flash` is not a variant sdpa_math runs; allowed: "
                 "unfused");
  expect_problem(loaded, "a.csv:3:3: error: variant: `compare` is not a variant tilesim_ref runs");
}

TEST(MeasuredAttentionCsv, KvLenOrKvLensExactlyOnce) {
  const auto loaded = read(kHeader +
                           "a,tilesim_ref,flash,1,8,8,1,,,64,false,bf16,,,20,,,,,,,\n"
                           "b,tilesim_ref,flash,2,8,8,1,512,512;512,64,false,bf16,,,20,,,,,,,\n"
                           "c,tilesim_ref,flash,3,8,8,1,,512;x;1,64,false,bf16,,,20,,,,,,,\n");
  expect_problem(loaded, "a.csv:2:8: error: kv_len: empty, and so is kv_lens");
  expect_problem(loaded, "a.csv:3:8: error: kv_len: give kv_len or kv_lens, not both");
  expect_problem(loaded, "a.csv:4:9: error: kv_lens: expected an integer, got \"x\"");
  // One problem per bad cell: the study reader's own kv_len rule is not repeated,
  // nor does the bad length make the batch look wrong.
  EXPECT_EQ(loaded.diagnostics.size(), 3u) << problems_of(loaded);
}

TEST(MeasuredAttentionCsv, BatchOfAVariableLengthRowIsItsLengthCount) {
  const auto loaded =
      read(kHeader + "a,tilesim_ref,flash,2,8,8,1,,512;256;128,64,false,bf16,,,20,,,,,,,\n");
  expect_problem(loaded, "a.csv:2:4: error: batch: \"2\", but kv_lens gives 3 lengths");
  EXPECT_EQ(loaded.diagnostics.size(), 1u) << problems_of(loaded);
}

TEST(MeasuredAttentionCsv, SplitsAndPageSizeOnlyWhereTheyApply) {
  const auto loaded =
      read(kHeader +
           "a,tilesim_ref,flash,1,8,8,1,512,,64,false,bf16,4,16,20,,,,,,,\n"
           "b,tilesim_ref,paged_v2,1,8,8,1,512,,64,false,bf16,x,,20,,,,,,,\n"
           "c,tilesim_ref,flash_decoding,1,8,8,1,512,,64,false,bf16,0,,20,,,,,,,\n");
  expect_problem(loaded, "a.csv:2:13: error: splits: applies to flash_decoding and paged_v2 rows");
  expect_problem(loaded, "a.csv:2:14: error: page_size: applies to paged_v1 and paged_v2 rows");
  expect_problem(loaded, "a.csv:3:13: error: splits: expected a positive number of partitions");
  expect_problem(loaded, "a.csv:3:14: error: page_size: empty; a paged row gives its tokens");
  expect_problem(loaded, "a.csv:4:13: error: splits: must be > 0, got \"0\"");
}

// The host's enqueue time belongs to unfused rows: read there, refused on a
// fused row, and a positive number of microseconds.
TEST(MeasuredAttentionCsv, HostEnqueueOnUnfusedRowsOnly) {
  const std::string header = kHeader.substr(0, kHeader.size() - 1) + ",host_enqueue_us\n";
  const auto good = read(header +
                         "u,tilesim_ref,unfused,4,8,8,128,128,,64,false,bf16,,,20,,,,,,,,9.5\n"
                         "f,tilesim_ref,flash,4,8,8,128,128,,64,false,bf16,,,20,,,,,,,,\n");
  ASSERT_TRUE(good.ok()) << problems_of(good);
  ASSERT_EQ(good.value->attention.size(), 2u);
  EXPECT_EQ(good.value->attention[0].host_enqueue_us, 9.5);
  EXPECT_FALSE(good.value->attention[1].host_enqueue_us.has_value());
  const auto bad = read(header +
                        "f,tilesim_ref,flash,4,8,8,128,128,,64,false,bf16,,,20,,,,,,,,9.5\n"
                        "u,tilesim_ref,unfused,4,8,8,128,128,,64,false,bf16,,,20,,,,,,,,-1\n");
  expect_problem(bad, "a.csv:2:23: error: host_enqueue_us: the host's time to enqueue");
  expect_problem(bad, "a.csv:3:23: error: host_enqueue_us: expected a positive number");
}

TEST(MeasuredAttentionCsv, BadShapeValuesAreReportedAtTheirCells) {
  const auto loaded = read(kHeader +
                           "a,tilesim_ref,flash,1,32,7,16,512,,100,maybe,bf8,,,-3,,,,,,,\n"
                           "b,tilesim_ref,flash,1,,8,16,512,,64,true,bf16,,,20,,,,,,,\n");
  expect_problem(loaded, "a.csv:2:6: error: kv_heads: heads (32) must be a multiple of kv_heads");
  expect_problem(loaded, "a.csv:2:10: error: head_dim: ");
  expect_problem(loaded, "a.csv:2:11: error: causal: unknown value `maybe`; allowed: false, true");
  expect_problem(loaded, "a.csv:2:12: error: dtype: unknown value `bf8`");
  expect_problem(loaded, "a.csv:2:15: error: time_us: expected a positive number");
  expect_problem(loaded, "a.csv:3:5: error: heads: empty; every attention row gives its value");
}

TEST(MeasuredAttentionCsv, RowWithoutVariantInAnAttentionOnlyFile) {
  const auto loaded = read(kHeader + "a,tilesim_ref,,1,8,8,1,512,,64,false,bf16,,,20,,,,,,,\n");
  expect_problem(loaded, "a.csv:2:3: error: variant: empty; this file has no GEMM columns");
  EXPECT_EQ(loaded.diagnostics.size(), 1u) << problems_of(loaded);
}

TEST(MeasuredAttentionCsv, HeaderMissingAnAttentionColumn) {
  const auto loaded = read("name,kernel,variant,batch,heads,q_len,kv_len,head_dim,time_us\n");
  expect_problem(loaded,
                 "a.csv:1:1: error: header: missing column `kv_heads`; required columns of "
                 "attention rows: ");
}

TEST(MeasuredAttentionCsv, HeaderWithNeitherKind) {
  const auto loaded = read("name,kernel,time_us\na,b,1\n");
  expect_problem(loaded,
                 "a.csv:1:1: error: header: missing column `schedule` (GEMM rows) or `variant` "
                 "(attention rows)");
}

// Every implementation maps to attention profiles that exist, and every
// profile in configs/attention/ is some implementation's (none is a stray copy).
TEST(AttentionImplementations, EveryImplementationMapsToAShippedProfile) {
  const std::filesystem::path dir = std::filesystem::path(TILESIM_CONFIG_DIR) / "attention";
  std::set<std::string> used;
  for (const AttentionImplementation& i : attention_implementations()) {
    std::vector<std::string> profiles = i.fused_profiles;
    if (!i.unfused_profile.empty()) profiles.push_back(i.unfused_profile);
    EXPECT_FALSE(profiles.empty()) << i.name;
    for (const std::string& profile : profiles) {
      EXPECT_TRUE(std::filesystem::is_regular_file(dir / (profile + ".yaml")))
          << i.name << " -> " << profile;
      used.insert(profile);
    }
    EXPECT_FALSE(i.variants.empty()) << i.name;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_TRUE(used.contains(entry.path().stem().string())) << entry.path() << " is unused";
  }
  EXPECT_TRUE(find_attention_implementation("tilesim_ref")->own);
  EXPECT_FALSE(find_attention_implementation("sdpa_flash")->own);
  EXPECT_FALSE(find_attention_implementation("cutlass").has_value());
}

// The classes the issue names: library backends map to their class's profile;
// our Hopper kernel has its own profile of the wgmma class (its per-CTA cost
// differs from cuDNN's, configs/attention/tilesim_ref_wgmma.yaml).
TEST(AttentionImplementations, LibraryBackendsMapToTheirClass) {
  EXPECT_EQ(find_attention_implementation("sdpa_cudnn")->fused_profiles.front(), "fa3_wgmma");
  EXPECT_EQ(find_attention_implementation("tilesim_ref_wgmma")->fused_profiles.front(),
            "tilesim_ref_wgmma");
  EXPECT_EQ(find_attention_implementation("sdpa_flash")->fused_profiles.front(), "fa2_mma_sync");
  EXPECT_EQ(find_attention_implementation("sdpa_math")->unfused_profile, "eager_math");
  EXPECT_NE(find_attention_implementation("sdpa_math")->unfused_profile,
            find_attention_implementation("tilesim_ref")->unfused_profile);
}

}  // namespace
}  // namespace tilesim::workloads
