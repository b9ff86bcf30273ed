// Attention cases with answers an inference engineer knows, on the shipped
// H100 config: unfused attention moves Theta(N^2) bytes and flash does not;
// split-KV and Stream-K decode pull HBM's bandwidth where a few CTAs cannot.

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/support/shipped_hardware.hpp"
#include "workloads/attention/attention_runner.hpp"
#include "workloads/attention/flash_cta_program.hpp"
#include "workloads/attention/paged_attention_v2.hpp"

namespace tilesim::workloads {
namespace {

hw::HardwareSpec h100() {
  return testing::shipped_hardware("h100_sxm");
}

AttentionWorkload attention(std::int64_t heads, std::int64_t kv_heads, std::int64_t q_len,
                            std::vector<std::int64_t> kv_lens, std::string variant) {
  AttentionWorkload workload;
  workload.name = "attention";
  workload.shape.batch = static_cast<std::int64_t>(kv_lens.size());
  workload.shape.heads = heads;
  workload.shape.kv_heads = kv_heads;
  workload.shape.q_len = q_len;
  workload.shape.kv_lens = std::move(kv_lens);
  workload.shape.head_dim = 128;
  workload.variant = std::move(variant);
  return workload;
}

AttentionWorkload prefill(std::int64_t heads, std::int64_t kv_heads, std::int64_t n,
                          std::string variant) {
  return attention(heads, kv_heads, n, {n}, std::move(variant));
}

AttentionWorkload decode(std::int64_t heads, std::int64_t kv_heads,
                         std::vector<std::int64_t> kv_lens, std::string variant) {
  return attention(heads, kv_heads, 1, std::move(kv_lens), std::move(variant));
}

WorkloadRun simulate(const AttentionWorkload& workload, const hw::HardwareSpec& spec) {
  config::Loaded<std::vector<WorkloadRun>> runs = run_attention_workload(workload, spec);
  EXPECT_TRUE(runs.ok()) << runs.diagnostics.format();
  EXPECT_EQ(runs.value->size(), 1u);
  return runs.value->front();
}

double hbm_bytes(const WorkloadRun& run) {
  return run.result.traffic().hbm_bytes();
}

TEST(AttentionPhysics, UnfusedMovesQuadraticHbmBytesAndFlashLinear) {
  const hw::HardwareSpec spec = h100();
  const std::int64_t heads = 4;
  std::vector<double> unfused;
  std::vector<double> flash;
  for (const std::int64_t n : {1024, 4096, 16384}) {
    unfused.push_back(hbm_bytes(simulate(prefill(heads, heads, n, "unfused"), spec)));
    flash.push_back(hbm_bytes(simulate(prefill(heads, heads, n, "flash"), spec)));
    // Scores written by Q K^T, read by the masked softmax, P written by it and
    // read by P V: four passes over h N^2 bf16 elements, three when S stays in
    // L2 from Q K^T to the softmax (4 MiB per head at N = 1k).
    const double score_bytes = (n > 1024 ? 4.0 : 3.0) * heads * double(n) * double(n) * 2;
    EXPECT_GE(unfused.back(), score_bytes) << "N = " << n;
    // Flash reads Q, K, V once from HBM and writes O once.
    const double qkvo_bytes = 4.0 * heads * double(n) * 128 * 2;
    EXPECT_LT(flash.back(), 1.1 * qkvo_bytes) << "N = " << n;
  }
  // N grows 4x and 16x: unfused bytes about 16x and 256x (a little less: the
  // 1k scores partly hit in L2), flash about 4x and 16x.
  EXPECT_GT(unfused[1] / unfused[0], 0.85 * 16);
  EXPECT_GT(unfused[2] / unfused[0], 0.85 * 256);
  EXPECT_LT(flash[1] / flash[0], 1.1 * 4);
  EXPECT_LT(flash[2] / flash[0], 1.1 * 16);
}

TEST(AttentionPhysics, FlashIsAtLeastThreeTimesFasterThanUnfusedAt4k) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload flash = prefill(32, 8, 4096, "flash");
  flash.shape.causal = true;
  AttentionWorkload unfused = flash;
  unfused.variant = "unfused";
  const double flash_us = simulate(flash, spec).result.time_us();
  const double unfused_us = simulate(unfused, spec).result.time_us();
  EXPECT_GE(unfused_us / flash_us, 3.0) << flash_us << " us vs " << unfused_us << " us";
}

TEST(AttentionPhysics, UnfusedKernelsEachMoveTheScoreMatrix) {
  const hw::HardwareSpec spec = h100();
  const WorkloadRun run = simulate(prefill(8, 8, 4096, "unfused"), spec);
  ASSERT_EQ(run.result.kernels.size(), 3u);  // Q K^T, masked softmax, P V
  const double scores_bytes = 8.0 * 4096 * 4096 * 2;
  const gpu::KernelRecord& qk = run.result.kernels[0];
  const gpu::KernelRecord& softmax = run.result.kernels[1];
  EXPECT_NEAR(qk.traffic.write_bytes, scores_bytes, 0.01 * scores_bytes);
  EXPECT_NEAR(softmax.traffic.hbm_read_bytes, scores_bytes, 0.01 * scores_bytes);
  EXPECT_NEAR(softmax.traffic.write_bytes, scores_bytes, 0.01 * scores_bytes);
}

TEST(AttentionPhysics, GqaHeadsShareKeysAndValuesInL2) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload gqa = prefill(32, 8, 4096, "flash");
  gqa.shape.causal = true;
  const double q_and_o_bytes = 2.0 * 32 * 4096 * 128 * 2;
  const double kv_bytes = gqa.shape.kv_cache_bytes();
  // Four query heads per KV head: K and V come from HBM about once, not four times.
  EXPECT_LT(hbm_bytes(simulate(gqa, spec)), q_and_o_bytes + 1.5 * kv_bytes);
}

TEST(AttentionPhysics, CausalMaskingSkipsBlocksAndLeavesCtasUnequal) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload full = prefill(16, 16, 8192, "flash");
  AttentionWorkload causal = full;
  causal.shape.causal = true;
  const WorkloadRun causal_run = simulate(causal, spec);
  EXPECT_LT(causal_run.result.time_us(), 0.65 * simulate(full, spec).result.time_us());
  double shortest = 1e30;
  double longest = 0;
  for (const gpu::CtaRecord& cta : causal_run.result.ctas) {
    const double us = (cta.finished - cta.dispatched).us();
    shortest = std::min(shortest, us);
    longest = std::max(longest, us);
  }
  // The first query block sees one K/V block, the last 128 of them.
  EXPECT_GT(longest / shortest, 10);
}

TEST(AttentionPhysics, SplitKvDecodeIsFasterBecauseFewCtasCannotPullHbm) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload no_split = decode(8, 8, {32768}, "flash_decoding");
  no_split.splits = 1;
  AttentionWorkload split = decode(8, 8, {32768}, "flash_decoding");
  const WorkloadRun one = simulate(no_split, spec);
  const WorkloadRun many = simulate(split, spec);
  EXPECT_EQ(one.result.kernels.front().cta_count, 8);  // one CTA per head
  EXPECT_GT(many.result.kernels.front().cta_count, 64);
  EXPECT_GE(one.result.time_us() / many.result.time_us(), 2.5)
      << one.result.time_us() << " us vs " << many.result.time_us() << " us";
}

// Issue 12's Stream-K target, on our kernels: one 128k sequence and 31 of
// 1k (32 query / 8 KV heads), measured 4.5x faster than split-KV with 2
// splits and faster than the best fixed split (bench/measurements/
// h100_sxm_2026-11-26_attention_validation_2_ref.csv, round-3 kernels). Since
// round 6 our split-KV merges its splits inside the split kernel (no combine
// launch), and the model puts 16 splits 2.4% ahead of Stream-K here; not
// re-measured with the round-6 kernels, so Stream-K is held within 5% of the
// best fixed split.
TEST(AttentionPhysics, StreamKDecodeBalancesAVariableLengthBatch) {
  const hw::HardwareSpec spec = h100();
  std::vector<std::int64_t> lens(32, 1024);
  lens.front() = 131072;
  const auto ours = [&](std::string variant, int splits) {
    AttentionWorkload workload = decode(32, 8, lens, std::move(variant));
    workload.kernel = "tilesim_ref";
    if (splits > 0) workload.splits = splits;
    return simulate(workload, spec).result.time_us();
  };
  const double stream_k_us = ours("stream_k_decode", 0);
  const double two_splits_us = ours("flash_decoding", 2);
  double best_split_us = two_splits_us;
  for (const int splits : {1, 4, 8, 16}) {
    best_split_us = std::min(best_split_us, ours("flash_decoding", splits));
  }
  EXPECT_GE(two_splits_us / stream_k_us, 1.5) << stream_k_us << " us vs " << two_splits_us;
  EXPECT_LE(stream_k_us, 1.05 * best_split_us) << stream_k_us << " us vs " << best_split_us;
}

// Decode of long contexts streams the KV cache at HBM's sustained bandwidth
// (beyond the launch's fixed cost, which the plan pays once). Not Stream-K on
// one sequence: each pair's owner merges its ~33 peers in turn (measured at
// 16k keys: 39.9 us against split-KV's 32.3, attention_calibration_2).
TEST(AttentionPhysics, LongContextDecodeTakesKvBytesOverHbmBandwidth) {
  const hw::HardwareSpec spec = h100();
  const std::vector<AttentionWorkload> cases = {
      decode(8, 8, {32768}, "flash_decoding"),
      decode(8, 8, {32768}, "paged_v2"),
      decode(32, 8, {16384, 16384, 16384, 16384}, "flash_decoding"),
      decode(32, 8, {16384, 16384, 16384, 16384}, "stream_k_decode"),
      decode(32, 8, {65536, 1024, 4096, 512}, "stream_k_decode"),
  };
  for (const AttentionWorkload& workload : cases) {
    const double floor_us =
        workload.shape.kv_cache_bytes() / spec.hbm.sustained_bytes_per_s() * 1e6;
    const auto run = simulate(workload, spec);
    sim::SimTime fixed;
    for (const gpu::KernelRecord& kernel : run.result.kernels) {
      fixed = std::max(fixed, kernel.fixed_overhead);
    }
    const double time_us = run.result.time_us() - fixed.seconds() * 1e6;
    EXPECT_GE(time_us, floor_us) << workload.variant;
    EXPECT_LE(time_us, 1.15 * floor_us)
        << workload.variant << " with " << workload.shape.kv_lens.size() << " sequences";
  }
}

// A warp loads one page at a time after its page number: small pages leave
// few bytes in flight, so a few CTAs stream the cache more slowly.
TEST(AttentionPhysics, SmallPagesSlowPagedDecodeOfFewCtas) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload small = decode(8, 8, {16384}, "paged_v1");
  small.shape.page_size = 8;
  AttentionWorkload large = small;
  large.shape.page_size = 32;
  EXPECT_GE(simulate(small, spec).result.time_us() / simulate(large, spec).result.time_us(), 1.5);
}

// Our paged v2 sizes its partitions so one wave shares the batch's keys; a
// rounding that leaves a second wave of a few CTAs takes larger partitions
// (12 x 9.5k, 32/4: 2 a pair, 96 CTAs, not 3 and 144 on 132 SMs), but a long
// sequence beside many short ones keeps its many partitions.
TEST(AttentionPhysics, PagedV2PartitionsFillOneWaveWithoutStarvingALongSequence) {
  const hw::HardwareSpec spec = h100();
  const AttentionWorkload even = decode(32, 4, std::vector<std::int64_t>(12, 9728), "paged_v2");
  EXPECT_EQ(PagedAttentionV2::own_partitions(even.shape, spec), 2);
  std::vector<std::int64_t> skewed(24, 2000);
  skewed.front() = 120000;
  EXPECT_GE(PagedAttentionV2::own_partitions(decode(32, 8, skewed, "paged_v2").shape, spec), 12);
}

// Our split-KV's default fills one wave over the pairs; when the pairs alone
// fill it but one long sequence holds most keys (120000 + 23 x 2000, 32/8),
// it takes the split count that ends the launch soonest (11 here; measured,
// round 8: 233 us at 11 splits against 1297 at one).
TEST(AttentionPhysics, OwnSplitKvDefaultSplitsALongSequenceOfASkewedBatch) {
  const hw::HardwareSpec spec = h100();
  std::vector<std::int64_t> skewed(24, 2000);
  skewed.front() = 120000;
  AttentionWorkload workload = decode(32, 8, skewed, "flash_decoding");
  workload.kernel = "tilesim_ref";
  const WorkloadRun by_default = simulate(workload, spec);
  EXPECT_EQ(by_default.schedule, "flash_decoding:splits=11");
  workload.splits = 1;
  EXPECT_GE(simulate(workload, spec).result.time_us() / by_default.result.time_us(), 4.0);
  AttentionWorkload even = decode(32, 8, {32768}, "flash_decoding");
  even.kernel = "tilesim_ref";
  EXPECT_EQ(simulate(even, spec).schedule, "flash_decoding:splits=16");
}

// The softmax kernel of our unfused path (one sequence, `heads` x `keys` rows).
gpu::KernelRecord unfused_softmax(const hw::HardwareSpec& spec, std::int64_t heads,
                                  std::int64_t keys) {
  AttentionWorkload workload = prefill(heads, heads, keys, "unfused");
  workload.kernel = "tilesim_ref";
  const WorkloadRun run = simulate(workload, spec);
  const auto found =
      std::find_if(run.result.kernels.begin(), run.result.kernels.end(),
                   [](const gpu::KernelRecord& k) { return k.name.ends_with(".softmax"); });
  EXPECT_NE(found, run.result.kernels.end());
  return *found;
}

double us_per_row(const gpu::KernelRecord& k, std::int64_t rows) {
  return (k.end - k.start).seconds() * 1e6 / static_cast<double>(rows);
}

// Our unfused softmax runs a 256-thread CTA per row, as masked_softmax.cu
// launches it (8 resident a SM: no block of rows spills a partial wave), and
// its rows share their SM's instruction issue: every warp's fixed work bounds
// short rows, so 128 and 384 keys (one and two 256-key steps a pass) cost a
// row about the same, while 1344 keys (six steps) cost a row clearly more.
TEST(AttentionPhysics, UnfusedSoftmaxRunsACtaPerRowAtItsSmsIssueRate) {
  const hw::HardwareSpec spec = h100();
  const gpu::KernelRecord short_rows = unfused_softmax(spec, 32, 128);
  EXPECT_EQ(short_rows.cta_count, 32 * 128);
  EXPECT_EQ(short_rows.ctas_per_sm, 8);
  const double mid_row_us = us_per_row(unfused_softmax(spec, 32, 384), 32 * 384);
  EXPECT_NEAR(mid_row_us / us_per_row(short_rows, 32 * 128), 1.0, 0.15);
  EXPECT_GE(us_per_row(unfused_softmax(spec, 32, 1344), 32 * 1344) / mid_row_us, 1.2);
}

// Past 16384 rows a launch the softmax's CTAs each run a few consecutive rows
// (the simulation's cost stays bounded), each row paying what its own CTA
// would: 4x the rows of a launch simulated exactly cost 4x the time, within
// the last wave's granularity, on 4x fewer CTAs a row.
TEST(AttentionPhysics, UnfusedSoftmaxPacksRowsAtTheirOwnCost) {
  const hw::HardwareSpec spec = h100();
  const gpu::KernelRecord exact = unfused_softmax(spec, 32, 512);
  const gpu::KernelRecord packed = unfused_softmax(spec, 128, 512);
  EXPECT_EQ(exact.cta_count, 32 * 512);
  EXPECT_EQ(packed.cta_count, 32 * 512);
  EXPECT_NEAR(us_per_row(packed, 128 * 512) / us_per_row(exact, 32 * 512), 1.0, 0.05);
}

// The SM's narrow-load gather rate is the plain GEMM path's: the unfused
// path's unaligned batched GEMMs (odd row lengths) keep the memory's rate.
TEST(AttentionPhysics, UnfusedBatchedGemmsKeepTheMemorysGatherRate) {
  const auto time_us = [](const char* rate) {
    const hw::HardwareSpec spec = testing::shipped_hardware(
        "h200_sxm", {{"kernels.library.unaligned_gather_bytes_per_clock_per_sm", rate}});
    return simulate(prefill(16, 16, 1213, "unfused"), spec).result.time_us();
  };
  EXPECT_EQ(time_us("1"), time_us("7.1"));
}

TEST(AttentionPhysics, CompareRunsEveryVariantThatApplies) {
  const hw::HardwareSpec spec = h100();
  config::Loaded<std::vector<WorkloadRun>> decode_runs =
      run_attention_workload(decode(8, 8, {4096}, "compare"), spec);
  ASSERT_TRUE(decode_runs.ok()) << decode_runs.diagnostics.format();
  EXPECT_EQ(decode_runs.value->size(), 6u);
  EXPECT_EQ(decode_runs.value->back().name, "attention/stream_k_decode");
  config::Loaded<std::vector<WorkloadRun>> prefill_runs =
      run_attention_workload(prefill(8, 8, 1024, "compare"), spec);
  ASSERT_TRUE(prefill_runs.ok()) << prefill_runs.diagnostics.format();
  ASSERT_EQ(prefill_runs.value->size(), 2u);  // decode kernels do not take 1024 queries
  EXPECT_EQ(prefill_runs.value->front().name, "attention/unfused");
}

TEST(AttentionPhysics, SameWorkloadSameResult) {
  const hw::HardwareSpec spec = h100();
  const AttentionWorkload workload = decode(32, 8, {65536, 1024, 4096, 512}, "stream_k_decode");
  EXPECT_EQ(simulate(workload, spec).result.end(), simulate(workload, spec).result.end());
}

// The eager math path (sdpa_math) makes more passes over S than our unfused
// path: the mask as an add of its own, the softmax, and the isneginf, all and
// where passes of _safe_softmax; with GQA it first copies K and V per head.
TEST(AttentionPhysics, EagerMathPassesOverTheScores) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload eager = prefill(32, 8, 4096, "unfused");
  eager.shape.causal = true;
  eager.kernel = "sdpa_math";
  AttentionWorkload ours = eager;
  ours.kernel = "tilesim_ref";
  const WorkloadRun eager_run = simulate(eager, spec);
  std::vector<std::string> names;
  for (const gpu::KernelRecord& kernel : eager_run.result.kernels) {
    names.push_back(kernel.name.substr(kernel.name.rfind('.') + 1));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"build_mask", "scale_q", "copy_k", "copy_v", "scale_k",
                                             "qk_gemm", "add_mask", "softmax", "isneginf",
                                             "all_masked", "where", "pv_gemm"}));
  EXPECT_GT(eager_run.result.time_us(), 2.5 * simulate(ours, spec).result.time_us());
}

// A library backend whose profile splits the KV cache at decode runs a decode
// step written as `flash` as split-KV; our kernels run the variant as written.
TEST(AttentionPhysics, LibraryDecodeRunsSplitKv) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload fa2 = decode(32, 8, {32768}, "flash");
  fa2.kernel = "sdpa_flash";
  EXPECT_EQ(simulate(fa2, spec).schedule.rfind("flash_decoding:splits=", 0), 0u);
  AttentionWorkload ours = fa2;
  ours.kernel = "tilesim_ref";
  EXPECT_EQ(simulate(ours, spec).schedule, "flash");
}

// FA2 (mma.sync, softmax between the GEMMs) is slower than the FA3/cuDNN
// class (wgmma, softmax under the GEMMs) on the same prefill.
TEST(AttentionPhysics, WgmmaClassIsFasterThanMmaSyncClass) {
  const hw::HardwareSpec spec = h100();
  AttentionWorkload fa2 = prefill(32, 8, 4096, "flash");
  fa2.kernel = "sdpa_flash";
  AttentionWorkload cudnn = fa2;
  cudnn.kernel = "sdpa_cudnn";
  EXPECT_GT(simulate(fa2, spec).result.time_us(), 1.5 * simulate(cudnn, spec).result.time_us());
}

// Our Hopper kernel's first K/V block: S alone, then its softmax with no GEMM
// of its warpgroup in flight (flash_forward_wgmma_kernel.cuh), so that block's
// exponentials are all paid; the blocks after it hide theirs under the GEMMs
// at d 128. Without the flag the first block hides them too.
TEST(AttentionPhysics, OwnWgmmaKernelPaysItsFirstBlocksSoftmax) {
  const hw::HardwareSpec spec = h100();
  hw::AttentionProfile profile = spec.attention_profiles.at("tilesim_ref_wgmma");
  ASSERT_TRUE(profile.first_block_softmax_exposed);
  profile.softmax_waits_for_scores = false;  // tested on its own below
  const FlashTile tile = flash_tile(profile, 128, hw::DataType::bf16);
  const FlashWorkItem item{0, 0, 0, tile.query_rows, 0, 4 * tile.key_rows, 4 * tile.key_rows};
  auto exponentials = [&](const hw::AttentionProfile& p) {
    const FlashCtaProgramBuilder builder(tile, 1, spec, p);
    gpu::CtaProgram program;
    builder.add_main_loop(program, builder.begin_segment(program, item), item, true);
    std::vector<double> per_block;
    for (const gpu::CtaStep& step : program.steps) {
      if (step.unit == gpu::ExecutionUnit::sfu) per_block.push_back(step.flops);
    }
    return per_block;
  };
  const std::vector<double> exposed = exponentials(profile);
  ASSERT_EQ(exposed.size(), 4u);
  const double block_exps = static_cast<double>(tile.query_rows) * (tile.key_rows + 1);
  EXPECT_DOUBLE_EQ(exposed[0], block_exps);
  EXPECT_DOUBLE_EQ(exposed[1], 0);
  profile.first_block_softmax_exposed = false;
  EXPECT_DOUBLE_EQ(exponentials(profile)[0], 0);
}

// Our Hopper kernel's consumer warpgroup waits for its own S before its
// softmax (wgmma_wait_group<1>) and issues the next S only after convert_p
// (flash_forward_wgmma_kernel.cuh), so a 128-key block costs at least its
// Q K^T plus its softmax: at d 64, whose GEMMs are half of d 128's and whose
// softmax is the same, that chain, not the tensor cores, sets the block. The
// H200 wgmma block ladder (bench/measurements/h200_sxm_2026-11-28_attention_
// wgmma_block_ladder_ref.csv: one query block per CTA, 132 CTAs on one K/V)
// took 1.17 us a block at d 64 (2048 -> 8192 keys); without the wait the
// model gives 0.92.
TEST(AttentionPhysics, OwnWgmmaSoftmaxWaitsForItsScores) {
  hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm");
  hw::AttentionProfile& profile = spec.attention_profiles.at("tilesim_ref_wgmma");
  ASSERT_TRUE(profile.softmax_waits_for_scores);
  auto us_per_block = [&] {
    auto time_us = [&](std::int64_t kv_len) {
      AttentionWorkload workload = attention(132, 1, 128, {kv_len}, "flash");
      workload.kernel = "tilesim_ref_wgmma";
      workload.shape.head_dim = 64;
      return simulate(workload, spec).result.time_us();
    };
    return (time_us(8192) - time_us(2048)) / 48;
  };
  EXPECT_NEAR(us_per_block(), 1.17, 0.1);
  profile.softmax_waits_for_scores = false;
  EXPECT_LT(us_per_block(), 1.0);
}

// FlashAttention-2 runs a causal CTA's last n_masking_steps key blocks through
// unrolled copies of its loop (flash_fwd_kernel.h): ceil(kBlockM / kBlockN),
// one more when a length is not a multiple of its tile. Their warps stall on
// instruction fetch (round 23's ncu), so on the H200 one query block against
// 136 keys at d 128 (3 blocks of 64 keys, all masking steps) costs 1.29x its
// non-causal twin (the FA2 turn ladder; the model without the cost: 1.0),
// while against 2048 keys (3 of 32 blocks) causal and not cost about the same.
TEST(AttentionPhysics, Fa2MaskingStepsCostMoreThanUnmaskedTurns) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm");
  auto time_us = [&](std::int64_t kv_len, bool causal) {
    AttentionWorkload workload =
        attention(16, 16, 128, std::vector<std::int64_t>(132, kv_len), "flash");
    workload.kernel = "sdpa_flash";
    workload.shape.causal = causal;
    return simulate(workload, spec).result.time_us();
  };
  EXPECT_GT(time_us(136, true), 1.1 * time_us(136, false));
  EXPECT_NEAR(time_us(2048, true) / time_us(2048, false), 1.0, 0.06);
}

// Our mma.sync flash kernel runs two CTAs per SM, and each warp runs Q K^T, its
// softmax, then P V, so the softmax hides under the other CTA's GEMMs only. A
// CTA alone on its SM runs the part its own P V cannot cover: on the H200 (the
// lone-CTA calibration, bench/measurements/h200_sxm_2026-11-29_attention_ref_
// lone_cta_calibration_ref.csv; ncu: 1 and 2 CTAs on every SM) one query block
// of 6 heads on one KV head against 4288 keys at d 64 took 70.7 us on 132 CTAs
// and 118.2 on 264: 0.60x for half the work. Without the chain the model gave
// the lone CTA the SM's whole tensor rate: 0.51x.
TEST(AttentionPhysics, OwnFlashCtaAloneRunsItsSoftmax) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm.measured");
  auto time_us = [&](std::int64_t batch) {
    AttentionWorkload workload =
        attention(6, 1, 128, std::vector<std::int64_t>(batch, 4288), "flash");
    workload.kernel = "tilesim_ref";
    workload.shape.head_dim = 64;
    return simulate(workload, spec).result.time_us();
  };
  EXPECT_NEAR(time_us(22) / time_us(44), 0.60, 0.03);
}

// A CTA of our mma.sync flash kernel has fixed work outside its K/V loop (Q
// load issue, pipeline start, epilogue): ncu counts 823 instructions a warp
// against 675 a turn (d 64), issued on the SM's sub-partitions beside the other
// resident CTA's turns. On the H200 (our turn ladder, bench/measurements/
// h200_sxm_2026-11-28_attention_ref_turn_ladder_ref.csv) one query block
// against 64 keys took 0.262x its time against 640 (the model with a 2.23 us
// wait that the other CTA covers instead: 0.293x), and the 336-key square
// causal row, whose CTAs run 2, 4 and 6 blocks, 0.84x its non-causal twin
// (that model: 0.74x).
TEST(AttentionPhysics, OwnFlashCtaFixedWorkTakesTheSmsTime) {
  const hw::HardwareSpec spec = testing::shipped_hardware("h200_sxm.measured");
  auto time_us = [&](std::int64_t batch, std::int64_t q_len, std::int64_t kv_len, bool causal) {
    AttentionWorkload workload =
        attention(16, 16, q_len, std::vector<std::int64_t>(batch, kv_len), "flash");
    workload.kernel = "tilesim_ref";
    workload.shape.head_dim = 64;
    workload.shape.causal = causal;
    return simulate(workload, spec).result.time_us();
  };
  EXPECT_NEAR(time_us(132, 128, 64, false) / time_us(132, 128, 640, false), 0.262, 0.012);
  EXPECT_GT(time_us(44, 336, 336, true) / time_us(44, 336, 336, false), 0.76);
}

}  // namespace
}  // namespace tilesim::workloads
