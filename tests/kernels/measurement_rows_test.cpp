// tilesim-measure's rows without a GPU: how attention workloads become cases
// (or are refused, with where and why), the attention problem's arithmetic
// against the simulator's, and the measurement CSV's header rules.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "kernels/measure/attention_case.hpp"
#include "kernels/measure/gemm_case.hpp"
#include "kernels/measure/measurement_writer.hpp"
#include "tests/support/shipped_hardware.hpp"
#include "workloads/attention/attention_workload.hpp"

namespace tilesim::measure {
namespace {

const std::string kGemmHeader =
    "name,kernel,schedule,m,n,k,dtype,tile_m,tile_n,tile_k,splits,time_us,time_us_min,"
    "time_us_p90,tflops,runs,out_dtype,reduction,stream_k_mode,fixup,persistent,warps,stages,"
    "swizzle,ctas,sk_tiles,sk_ctas,input_sets,rel_error,profile,sm_clock_mhz,power_w";
const std::string kAttentionHeader =
    "name,kernel,variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,dtype,splits,"
    "page_size,time_us,time_us_min,time_us_p90,tflops,gbps,runs,input_sets,rel_error,sm_clock_mhz,"
    "power_w,host_enqueue_us";

workloads::AttentionWorkload prefill_workload() {
  workloads::AttentionWorkload workload;
  workload.name = "prefill";
  workload.kernel = "tilesim_ref";
  workload.variant = "flash";
  workload.shape.batch = 1;
  workload.shape.heads = 32;
  workload.shape.kv_heads = 8;
  workload.shape.q_len = 4096;
  workload.shape.kv_lens = {4096};
  workload.shape.head_dim = 128;
  workload.shape.causal = true;
  workload.where = {"study.yaml", 7, 5};
  workload.variant_where = {"study.yaml", 9, 14};
  return workload;
}

MeasuredAttentionRow attention_row(const workloads::AttentionWorkload& workload) {
  const auto item = make_attention_case(workload);
  EXPECT_TRUE(std::holds_alternative<AttentionCase>(item));
  MeasuredAttentionRow row{std::get<AttentionCase>(item), {}};
  row.measurement.timed = {812.5, 800.25, 830.0, 20, {}};
  row.measurement.tflops = 169.25;
  row.measurement.gbps = 61.5;
  row.measurement.input_sets = 1;
  row.measurement.relative_error = 2.25e-3;
  row.measurement.error_bound = 2e-2;
  row.measurement.check_passed = true;
  return row;
}

MeasuredRow gemm_row() {
  MeasuredRow row;
  row.gemm.name = "square";
  row.gemm.schedule = "data_parallel";
  row.gemm.config.m = row.gemm.config.n = row.gemm.config.k = 512;
  row.measurement.time_us = 10;
  row.measurement.runs = 20;
  row.measurement.relative_error = 1e-3;
  row.measurement.error_bound = 1e-2;
  row.measurement.check_passed = true;
  return row;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    result.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return result;
}

TEST(AttentionCase, CarriesTheShape) {
  const auto item = make_attention_case(prefill_workload());
  ASSERT_TRUE(std::holds_alternative<AttentionCase>(item));
  const AttentionCase& attention = std::get<AttentionCase>(item);
  EXPECT_EQ(attention.variant, kernels::AttentionVariant::flash);
  EXPECT_EQ(attention.problem.group_size(), 4);
  EXPECT_EQ(attention.problem.kv_lens, std::vector<int>{4096});
  EXPECT_TRUE(attention.problem.causal);
}

TEST(AttentionCase, RefusesCompareAtTheVariantAndLibraryAtTheWorkload) {
  workloads::AttentionWorkload compare = prefill_workload();
  compare.variant = "compare";
  const auto refused = make_attention_case(compare);
  ASSERT_TRUE(std::holds_alternative<AttentionCaseError>(refused));
  EXPECT_EQ(std::get<AttentionCaseError>(refused).where.line, 9);
  EXPECT_NE(std::get<AttentionCaseError>(refused).message.find("one workload per variant"),
            std::string::npos);

  workloads::AttentionWorkload library = prefill_workload();
  library.kernel = "library";
  const auto no_library = make_attention_case(library);
  ASSERT_TRUE(std::holds_alternative<AttentionCaseError>(no_library));
  EXPECT_EQ(std::get<AttentionCaseError>(no_library).where.line, 7);
  EXPECT_NE(std::get<AttentionCaseError>(no_library).message.find("tilesim_ref"),
            std::string::npos);
}

// `kernel: tilesim_ref_wgmma` picks the FA3-class kernel for variant flash only.
TEST(AttentionCase, WgmmaKernelRunsFlashOnly) {
  workloads::AttentionWorkload hopper = prefill_workload();
  hopper.kernel = "tilesim_ref_wgmma";
  const auto item = make_attention_case(hopper);
  ASSERT_TRUE(std::holds_alternative<AttentionCase>(item));
  EXPECT_EQ(std::get<AttentionCase>(item).variant, kernels::AttentionVariant::flash_wgmma);

  hopper.variant = "unfused";
  const auto refused = make_attention_case(hopper);
  ASSERT_TRUE(std::holds_alternative<AttentionCaseError>(refused));
  EXPECT_EQ(std::get<AttentionCaseError>(refused).where.line, 9);
  EXPECT_NE(std::get<AttentionCaseError>(refused).message.find("variant flash only"),
            std::string::npos);

  // The kernel's own name is no study variant.
  workloads::AttentionWorkload by_name = prefill_workload();
  by_name.variant = "flash_wgmma";
  EXPECT_TRUE(std::holds_alternative<AttentionCaseError>(make_attention_case(by_name)));
}

TEST(AttentionCase, RefusesShapesNoKernelTakes) {
  workloads::AttentionWorkload odd_head = prefill_workload();
  odd_head.shape.head_dim = 96;
  const auto refused = make_attention_case(odd_head);
  ASSERT_TRUE(std::holds_alternative<AttentionCaseError>(refused));
  EXPECT_NE(std::get<AttentionCaseError>(refused).message.find("head_dim 96"), std::string::npos);

  workloads::AttentionWorkload fp8 = prefill_workload();
  fp8.shape.dtype = hw::DataType::fp8;
  EXPECT_TRUE(std::holds_alternative<AttentionCaseError>(make_attention_case(fp8)));
}

// The CSV's tflops must count what the simulator counts.
TEST(AttentionProblem, UsefulFlopsMatchTheWorkloadsCount) {
  for (const bool causal : {false, true}) {
    for (const std::vector<std::int64_t>& kv_lens :
         {std::vector<std::int64_t>{4096}, std::vector<std::int64_t>{3001, 5000, 777}}) {
      workloads::AttentionWorkload workload = prefill_workload();
      workload.shape.q_len = 777;
      workload.shape.causal = causal;
      workload.shape.kv_lens = kv_lens;
      workload.shape.batch = static_cast<std::int64_t>(kv_lens.size());
      const auto item = make_attention_case(workload);
      ASSERT_TRUE(std::holds_alternative<AttentionCase>(item));
      EXPECT_DOUBLE_EQ(std::get<AttentionCase>(item).problem.useful_flops(),
                       workload.shape.useful_flops());
    }
  }
}

TEST(MeasurementCsv, GemmOnlyKeepsTheGemmHeaderAndRows) {
  const std::string csv = measurement_csv({gemm_row()});
  EXPECT_EQ(csv, kGemmHeader + "\n" + csv_row(gemm_row()) + "\n");
  EXPECT_EQ(csv_header(), kGemmHeader);
}

// The NVML means of the timed runs, when sampled, close the row.
TEST(MeasurementCsv, GemmRowsEndWithTheSampledClockAndPower) {
  MeasuredRow row = gemm_row();
  row.measurement.clock = {1512.4, 689.96, 40};
  const std::string text = csv_row(row);
  EXPECT_EQ(text.substr(text.size() - 11), ",1512,690.0") << text;
  EXPECT_EQ(row_json(row)["clock_during_timed_runs"]["samples"], 40);
}

// An H100 as query_gemm_device_limits() would describe it: one CTA per SM.
kernels::GemmDeviceLimits h100_limits() {
  kernels::GemmDeviceLimits limits;
  limits.sm_count = 132;
  limits.wgmma = true;
  limits.ctas_per_sm.fill(1);
  limits.resident_clusters.fill(66);
  return limits;
}

workloads::GemmWorkload persistent_gemm(std::string kernel) {
  workloads::GemmWorkload workload;
  workload.name = "square_4096_persistent";
  workload.problem = {4096, 4096, 4096};
  workload.kernel = std::move(kernel);
  workload.persistent = true;
  return workload;
}

// `persistent: true` runs our kernel on the resident CTAs (512 tiles of
// 128x256 on 132), needs no workspace, and says so in its CSV column; cuBLAS
// picks its own grid, so the study cannot ask it for one.
TEST(MeasurementCsv, PersistentDataParallelRunsOnTheResidentCtas) {
  const hw::HardwareSpec h100 = testing::shipped_hardware("h100_sxm");
  const auto ours = make_gemm_case(persistent_gemm("tilesim_ref_wgmma"), h100, h100_limits());
  ASSERT_TRUE(std::holds_alternative<GemmCase>(ours)) << std::get<CaseError>(ours).message;
  MeasuredRow row = gemm_row();
  row.gemm = std::get<GemmCase>(ours);
  EXPECT_TRUE(row.gemm.config.persistent);
  const kernels::GemmLaunchPlan plan = kernels::plan_gemm(row.gemm.config);
  EXPECT_EQ(plan.grid_ctas, 132);
  EXPECT_EQ(plan.dp_tiles, 512);
  EXPECT_EQ(plan.flag_bytes, 0u);
  row.measurement.plan = plan;
  const std::string text = csv_row(row);
  EXPECT_NE(text.find(",bf16,,,,true,12,4,8,132,"), std::string::npos) << text;
  EXPECT_EQ(row_json(row)["persistent"], true);

  const auto library = make_gemm_case(persistent_gemm("library"), h100, h100_limits());
  ASSERT_TRUE(std::holds_alternative<CaseError>(library));
  EXPECT_NE(std::get<CaseError>(library).message.find("cuBLAS picks its own grid"),
            std::string::npos);
}

// The 2-CTA cluster variant plans in cluster tiles (256x256: 16 x 16 at
// 4096^3) and clusters (66 resident), launches their CTAs (132), and gives
// each CTA of a shared tile its own workspace slot.
TEST(MeasurementCsv, ClusteredVariantPlansClusterTilesOnClusters) {
  const hw::HardwareSpec h100 = testing::shipped_hardware("h100_sxm");
  const auto persistent =
      make_gemm_case(persistent_gemm("tilesim_ref_wgmma_multicast"), h100, h100_limits());
  ASSERT_TRUE(std::holds_alternative<GemmCase>(persistent))
      << std::get<CaseError>(persistent).message;
  const kernels::GemmLaunchConfig& config = std::get<GemmCase>(persistent).config;
  EXPECT_EQ(config.tile, kernels::GemmTileVariant::m128n256k64_w12_s4_wgmma_tma_store_c2);
  const kernels::GemmLaunchPlan plan = kernels::plan_gemm(config);
  EXPECT_EQ(plan.tiles, 256);
  EXPECT_EQ(plan.grid_ctas, 132);

  kernels::GemmLaunchConfig stream_k = config;
  stream_k.persistent = false;
  stream_k.schedule = kernels::GemmSchedule::stream_k;
  stream_k.stream_k_mode = kernels::StreamKMode::two_tile;
  const kernels::GemmLaunchPlan sk = kernels::plan_gemm(stream_k);
  EXPECT_EQ(sk.sk_tiles, 256 % 66 + 66);  // the partial wave and one full wave of clusters
  EXPECT_EQ(sk.sk_ctas, 66);
  EXPECT_EQ(sk.grid_ctas, 132);
  EXPECT_EQ(sk.partial_bytes, sizeof(float) * 128 * 256 * 2 * sk.sk_tiles);
}

TEST(MeasurementCsv, AttentionOnlyWritesTheContractColumns) {
  const auto text = lines(measurement_csv({attention_row(prefill_workload())}));
  ASSERT_EQ(text.size(), 2u);
  EXPECT_EQ(text[0], kAttentionHeader);
  EXPECT_EQ(text[1],
            "prefill,tilesim_ref,flash,1,32,8,4096,4096,,128,true,bf16,,,812.500,800.250,830.000,"
            "169.25,61.50,20,1,2.250e-03,,,");
}

// An unfused row closes with the host's time to enqueue one of its runs, where
// the host never waited on the GPU; the sidecar keeps both times either way.
TEST(MeasurementCsv, UnfusedRowsCarryTheHostEnqueue) {
  workloads::AttentionWorkload unfused = prefill_workload();
  unfused.variant = "unfused";
  MeasuredAttentionRow row = attention_row(unfused);
  row.measurement.host_enqueue = HostEnqueue{2912.126, 1200.5, 9, true};
  auto text = lines(measurement_csv({row}));
  ASSERT_EQ(text.size(), 2u);
  EXPECT_EQ(text[1].substr(text[1].size() - 9), ",,2912.13") << text[1];
  EXPECT_DOUBLE_EQ(row_json(row)["host_enqueue"]["host_us"].get<double>(), 2912.126);
  EXPECT_DOUBLE_EQ(row_json(row)["host_enqueue"]["gpu_us"].get<double>(), 1200.5);
  EXPECT_TRUE(row_json(attention_row(prefill_workload()))["host_enqueue"].is_null());
  row.measurement.host_enqueue->host_ahead = false;
  text = lines(measurement_csv({row}));
  EXPECT_EQ(text[1].back(), ',') << text[1];
  EXPECT_FALSE(row_json(row)["host_enqueue"]["host_ahead"].get<bool>());
}

// The row names the kernel class in `kernel` and keeps the study's variant.
TEST(MeasurementCsv, WgmmaRowsSayTheKernelAndTheStudyVariant) {
  workloads::AttentionWorkload hopper = prefill_workload();
  hopper.kernel = "tilesim_ref_wgmma";
  const auto text = lines(measurement_csv({attention_row(hopper)}));
  ASSERT_EQ(text.size(), 2u);
  EXPECT_EQ(text[1],
            "prefill,tilesim_ref_wgmma,flash,1,32,8,4096,4096,,128,true,bf16,,,812.500,800.250,"
            "830.000,169.25,61.50,20,1,2.250e-03,,,");
}

TEST(MeasurementCsv, MixedStudiesWriteTheUnionGemmColumnsFirst) {
  workloads::AttentionWorkload varlen = prefill_workload();
  varlen.shape.causal = false;
  varlen.shape.kv_lens = {131072, 1024, 1024};
  varlen.shape.batch = 3;
  const auto text = lines(measurement_csv({gemm_row(), attention_row(varlen)}));
  ASSERT_EQ(text.size(), 3u);
  EXPECT_EQ(text[0], kGemmHeader +
                         ",variant,batch,heads,kv_heads,q_len,kv_len,kv_lens,head_dim,causal,"
                         "page_size,gbps,host_enqueue_us");
  // The GEMM row leaves the attention columns empty (its variant cell too).
  EXPECT_EQ(text[1], csv_row(gemm_row()) + ",,,,,,,,,,,,");
  // The attention row: GEMM-only columns empty, varlen lengths in kv_lens.
  EXPECT_EQ(text[2],
            "prefill,tilesim_ref,,,,,bf16,,,,,812.500,800.250,830.000,169.25,20,,,,,,,,,,,,1,"
            "2.250e-03,,,,flash,3,32,8,4096,,131072;1024;1024,128,false,,61.50,");
}

// A case whose result check failed has no timing to give: no CSV row, and the
// reason for the sidecar and the terminal.
TEST(MeasurementCsv, LeavesOutRowsThatFailedTheirCheckAndSaysWhy) {
  MeasuredRow wrong = gemm_row();
  wrong.gemm.name = "wrong";
  wrong.measurement.check_passed = false;
  wrong.measurement.relative_error = 0.31;
  EXPECT_EQ(check_failure(wrong),
            "rel_error 3.10e-01 above its bound 1.00e-02 (cuBLAS fp32 reference)");
  wrong.measurement.non_finite = 12;
  EXPECT_EQ(check_failure(wrong), "12 non-finite outputs (NaN or Inf)");
  EXPECT_EQ(check_failure(gemm_row()), std::nullopt);

  MeasuredAttentionRow overrun = attention_row(prefill_workload());
  overrun.measurement.check_passed = false;
  overrun.measurement.guard_intact = false;
  EXPECT_EQ(check_failure(overrun), "wrote past the end of its output");
  overrun.measurement.guard_intact = true;
  overrun.measurement.relative_error = 0.5;
  EXPECT_EQ(check_failure(overrun),
            "rel_error 5.00e-01 above its bound 2.00e-02 (float64 reference)");

  EXPECT_EQ(measurement_csv({gemm_row(), wrong}), measurement_csv({gemm_row()}));
  const auto text = lines(measurement_csv({overrun, gemm_row()}));
  ASSERT_EQ(text.size(), 2u);
  EXPECT_EQ(text[1], csv_row(gemm_row()));

  const nlohmann::json failed = failed_check_json(wrong);
  EXPECT_EQ(failed["name"], "wrong");
  EXPECT_EQ(failed["why"], "12 non-finite outputs (NaN or Inf)");
  EXPECT_EQ(failed["rel_error_bound"], 1e-2);
  EXPECT_FALSE(failed.contains("time_us"));
  EXPECT_FALSE(failed.contains("runs"));
}

}  // namespace
}  // namespace tilesim::measure
