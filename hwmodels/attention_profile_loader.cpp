#include "hwmodels/attention_profile_loader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "hwmodels/guarded_read.hpp"
#include "hwmodels/profile_folder.hpp"
#include "hwmodels/yaml_file.hpp"

namespace tilesim::hw {

using config::Diagnostics;
using config::into;
using config::Param;
using config::QuantityKind;
using config::Value;

namespace {

Param flag(std::string key) {
  return Param::choice(std::move(key), {"true", "false"});
}

Param instructions_per_score(std::string key) {
  return Param::number(std::move(key)).range(0, 10000);
}

}  // namespace

config::Schema<AttentionProfile> attention_profile_schema() {
  using P = AttentionProfile;
  config::Schema<AttentionProfile> s;
  s.add(Param::text("description").describe("What implementation this is and where its code is."),
        into(&P::description));
  s.add(Param::text("class").name_like().describe(
            "Implementation class reports group rows by, e.g. flash_mma_sync, flash_wgmma, "
            "unfused_eager."),
        into(&P::kernel_class));
  s.add(Param::sequence("architectures")
            .not_empty()
            .describe("GPU architectures the implementation runs on, e.g. [sm80, sm90]."),
        [](P& profile, const Value& value) {
          profile.architectures.clear();
          for (const YAML::Node& item : value.node) {
            if (item.IsScalar()) profile.architectures.push_back(item.Scalar());
          }
        });
  s.add(Param::choice("kind", {"fused", "unfused"})
            .describe("fused: one flash-class kernel; unfused: GEMM, passes over S, GEMM."),
        [](P& profile, const Value& value) { profile.fused = value.text == "fused"; });
  s.add(Param::choice("instruction", {"mma_sync", "wgmma"})
            .default_to("mma_sync")
            .describe("fused: the GEMMs' tensor-core instruction."),
        [](P& profile, const Value& value) {
          profile.instruction =
              value.text == "wgmma" ? MmaInstruction::wgmma : MmaInstruction::mma_sync;
        });
  s.add(Param::number("tensor_efficiency")
            .greater_than(0)
            .at_most(1)
            .default_to("1")
            .by_gpu()
            .describe("fused: fraction of the SM's tensor-core peak (sm.tensor) the Q K^T and P V "
                      "MMAs reach; mma.sync kernels stay below the mma.sync ceiling."),
        into(&P::tensor_efficiency));
  s.add(Param::integer("tile.query_rows")
            .range(16, 256)
            .multiple_of(16)
            .default_to("128")
            .describe("fused: query rows per CTA."),
        into(&P::query_rows));
  s.add(Param::integer("tile.key_rows_d64")
            .range(16, 512)
            .multiple_of(16)
            .default_to("128")
            .describe("fused: keys per K/V block at head_dim <= 64."),
        into(&P::key_rows_d64));
  s.add(Param::integer("tile.key_rows_d128")
            .range(16, 512)
            .multiple_of(16)
            .default_to("64")
            .describe("fused: keys per K/V block at head_dim > 64."),
        into(&P::key_rows_d128));
  s.add(Param::integer("tile.warps").range(1, 32).default_to("4").describe("fused: warps per CTA."),
        into(&P::warps));
  s.add(Param::integer("tile.stages")
            .range(1, 8)
            .default_to("1")
            .describe("fused: K/V blocks held in shared memory (the load pipeline's depth)."),
        into(&P::stages));
  s.add(Param::integer("registers_per_thread")
            .range(1, 255)
            .default_to("255")
            .describe("fused: registers per thread (with the tile, the CTAs per SM)."),
        into(&P::registers_per_thread));
  s.add(flag("softmax_overlap")
            .default_to("false")
            .describe("fused: true when the softmax of one block runs under the GEMMs of "
                      "another (FA3's warpgroup ping-pong); false: the CTA serializes them "
                      "(FA2)."),
        [](P& profile, const Value& value) { profile.softmax_overlap = value.text == "true"; });
  s.add(flag("first_block_softmax_exposed")
            .default_to("false")
            .describe("fused, with softmax_overlap: true when a CTA's first K/V block runs its "
                      "softmax with no GEMM of its own in flight (S alone, then the softmax), so "
                      "that block's softmax is not hidden."),
        [](P& profile, const Value& value) {
          profile.first_block_softmax_exposed = value.text == "true";
        });
  s.add(flag("softmax_waits_for_scores")
            .default_to("false")
            .describe("fused, with softmax_overlap: true when a warpgroup's softmax waits for "
                      "its own Q K^T and its next Q K^T for that softmax, the warpgroups in "
                      "turn, so that a block costs at least its Q K^T GEMMs plus its softmax "
                      "and only P V hides the softmax."),
        [](P& profile, const Value& value) {
          profile.softmax_waits_for_scores = value.text == "true";
        });
  s.add(Param::quantity("cta_overhead", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused: fixed time of each CTA beyond its blocks: prologue, pipeline "
                      "start, epilogue."),
        into(&P::cta_overhead_s));
  s.add(Param::number("cta_fixed_turns")
            .range(0, 100)
            .default_to("0")
            .describe("fused: each CTA's work outside its K/V loop (Q load issue, pipeline "
                      "start, epilogue), in turns of the loop (an unmasked block's GEMMs): "
                      "its warps issue it on the SM's sub-partitions beside the other resident "
                      "CTA's turns, so it takes the SM's time as a block does (cta_overhead is "
                      "instead a wait that the other CTA's work covers)."),
        into(&P::cta_fixed_turns));
  s.add(Param::number("masking_step_cost")
            .range(1, 10)
            .default_to("1")
            .describe("fused, causal: what each of a CTA's masking steps costs, in units of an "
                      "unmasked turn's GEMM time. Above 1, a CTA's masked turns are "
                      "FlashAttention-2's n_masking_steps (its last ceil(query_rows / key_rows) "
                      "key blocks, one more when q_len is not a multiple of query_rows or kv_len "
                      "of key_rows), each an unrolled copy of the loop that its warps run from "
                      "a cold instruction cache; 1: the blocks the diagonal crosses, which cost "
                      "only the mask's instructions."),
        into(&P::masking_step_cost));
  s.add(Param::quantity("kernel_overhead", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused: what a launch pays once beyond its CTAs, as the events around it "
                      "see: the launch's ramp-up and drain (a GEMM profile's kernel_overhead)."),
        into(&P::kernel_overhead_s));
  s.add(Param::quantity("ramp_and_drain", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused: fixed time every launch of its kernels (the split-KV combine "
                      "too) pays after its last CTA, also back to back inside a CUDA graph "
                      "(a GEMM profile's ramp_and_drain); `kernel_overhead` is paid once."),
        into(&P::ramp_and_drain_s));
  s.add(Param::choice("causal_order", {"ascending", "heaviest_first"})
            .default_to("ascending")
            .describe("fused: the order in which a causal kernel's CTAs take their query "
                      "blocks: ascending within each head (the lightest first, FlashAttention-2's "
                      "grid), or per group of 8 heads every head's last block first, then the "
                      "second-to-last, ... (longest first; our kernels' flash_block_order.cuh)."),
        [](P& profile, const Value& value) {
          profile.causal_order = value.text == "heaviest_first" ? CausalBlockOrder::heaviest_first
                                                                : CausalBlockOrder::ascending;
        });
  s.add(Param::choice("decode", {"as_written", "split_kv"})
            .default_to("as_written")
            .describe("fused: what runs for a decode step (q_len <= 16) written as `flash`: the "
                      "variant as written, or split-KV with the GQA group packed into one tile "
                      "(FlashAttention-2's num_splits_heuristic) and a combine kernel."),
        [](P& profile, const Value& value) {
          profile.decode =
              value.text == "split_kv" ? AttentionDecode::split_kv : AttentionDecode::as_written;
        });
  s.add(Param::quantity("decode_turn.fixed", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused, decode as_written: a decode CTA alone on its SM, per K/V block: "
                      "the loop turn's fixed part (barrier, pipeline wait, softmax steps)."),
        into(&P::decode_turn, &DecodeTurn::fixed_s));
  s.add(Param::quantity("decode_turn.load_issue", QuantityKind::bandwidth)
            .range("0 GB/s", "100 TB/s")
            .default_to("0 GB/s")
            .by_gpu()
            .describe("fused, decode as_written: the rate its block's loads are issued at "
                      "alone on its SM; 0: no per-turn limit."),
        into(&P::decode_turn, &DecodeTurn::load_issue_bytes_per_s));
  s.add(Param::quantity("decode_turn.per_hmma", QuantityKind::time)
            .range("0 us", "1 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused, decode as_written: time per tensor-core instruction of one warp "
                      "in a turn."),
        into(&P::decode_turn, &DecodeTurn::per_hmma_s));
  s.add(Param::quantity("decode_turn.per_paged_block", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused, decode as_written: a paged block's own part of the turn (its "
                      "page numbers and the copies' address selects), whatever the page size."),
        into(&P::decode_turn, &DecodeTurn::per_paged_block_s));
  s.add(Param::quantity("decode_turn.per_page", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("fused, decode as_written: the wait of a paged block for each page it "
                      "starts."),
        into(&P::decode_turn, &DecodeTurn::per_page_s));
  s.add(Param::quantity("decode_turn.page_hbm", QuantityKind::size)
            .range("0 B", "1 MiB")
            .default_to("0 B")
            .by_gpu()
            .describe("fused, decode as_written, paged: the HBM time each page run (a KV "
                      "head's rows of one page) costs beyond its bytes, as bytes of transfer "
                      "at the sustained rate."),
        into(&P::decode_turn, &DecodeTurn::page_hbm_bytes));
  s.add(Param::text("gemm_kernel")
            .name_like()
            .default_to("library")
            .describe("unfused: the hardware's GEMM kernel profile the two GEMMs run with."),
        into(&P::gemm_kernel));
  s.add(Param::choice("launches", {"batched", "per_sequence"})
            .default_to("batched")
            .describe("unfused: one batched GEMM and one softmax kernel over every sequence and "
                      "head, or per sequence a strided-batched GEMM per query head of a GQA "
                      "group (over the KV heads) for Q K^T and for P V around one softmax kernel "
                      "(our kernels/attention/unfused_attention.cu)."),
        [](P& profile, const Value& value) {
          profile.launches = value.text == "per_sequence" ? UnfusedLaunches::per_sequence
                                                          : UnfusedLaunches::batched;
        });
  s.add(Param::quantity("gemm_call_host", QuantityKind::time)
            .range("0 us", "1000 us")
            .default_to("0 us")
            .describe("unfused, per_sequence: what each cuBLAS call costs the host before its "
                      "launch (argument checks, the heuristic's kernel choice)."),
        into(&P::gemm_call_host_s));
  s.add(Param::choice("mask", {"in_softmax", "additive_pass"})
            .default_to("in_softmax")
            .describe("unfused: the causal mask selected inside the softmax kernel, or added "
                      "as a -inf bias in a pass of its own."),
        [](P& profile, const Value& value) {
          profile.mask =
              value.text == "additive_pass" ? UnfusedMask::additive_pass : UnfusedMask::in_softmax;
        });
  s.add(flag("safe_softmax_passes")
            .default_to("false")
            .describe("unfused: after the softmax, an isneginf pass (1-byte output), an "
                      "all-reduce of it per row and a where pass over P (PyTorch's "
                      "_safe_softmax)."),
        [](P& profile, const Value& value) { profile.safe_softmax_passes = value.text == "true"; });
  s.add(flag("gqa_kv_copy")
            .default_to("false")
            .describe("unfused: K and V copied to every query head of a GQA group before the "
                      "GEMMs (repeat_interleave)."),
        [](P& profile, const Value& value) { profile.gqa_kv_copy = value.text == "true"; });
  s.add(Param::number("softmax_exps_per_score")
            .range(0, 8)
            .default_to("1")
            .describe("unfused: exponentials per score of the softmax kernel (2 when it "
                      "computes the row sum and P in separate passes)."),
        into(&P::softmax_exps_per_score));
  s.add(instructions_per_score("softmax_instructions_per_score")
            .default_to("4")
            .by_gpu()
            .describe("unfused: CUDA-core instructions per score of the softmax kernel."),
        into(&P::softmax_instructions_per_score));
  s.add(Param::number("softmax_row_reduction_cycles")
            .range(0, 1e6)
            .default_to("0")
            .describe("unfused: when > 0, the softmax runs a CTA per row of S, and each row "
                      "waits for its first read, this many SM clock cycles of cross-thread "
                      "reduction (max and sum) and its second read, in turn; 0: CTAs of row "
                      "blocks whose loads overlap."),
        into(&P::softmax_row_reduction_cycles));
  s.add(instructions_per_score("softmax_warp_instructions")
            .default_to("0")
            .by_gpu()
            .describe("unfused, with softmax_row_reduction_cycles: CUDA-core instructions every "
                      "warp of a softmax row's CTA issues whatever the row's length (index "
                      "arithmetic, the cross-thread reduction and merges)."),
        into(&P::softmax_warp_instructions));
  s.add(instructions_per_score("softmax_lane_instructions_per_key")
            .default_to("0")
            .by_gpu()
            .describe("unfused, with softmax_row_reduction_cycles: CUDA-core instructions per "
                      "key a lane handles, per pass of the softmax row, issued for whole warps "
                      "(a loop step the row ends inside costs as a full one); when > 0, "
                      "replaces softmax_instructions_per_score for that kernel."),
        into(&P::softmax_lane_instructions_per_key));
  s.add(Param::integer("warp_softmax_max_keys")
            .range(0, 1 << 20)
            .default_to("0")
            .describe("unfused: rows of at most this many keys run a warp-per-row softmax "
                      "kernel at warp_softmax_instructions_per_score; 0: one softmax kernel."),
        into(&P::warp_softmax_max_keys));
  s.add(instructions_per_score("warp_softmax_instructions_per_score")
            .default_to("4")
            .by_gpu()
            .describe("unfused: CUDA-core instructions per score of the warp-per-row softmax."),
        into(&P::warp_softmax_instructions_per_score));
  s.add(instructions_per_score("copy_instructions_per_element")
            .default_to("2")
            .by_gpu()
            .describe("unfused: CUDA-core instructions per element written by the GQA copies of "
                      "K and V."),
        into(&P::copy_instructions_per_element));
  s.add(instructions_per_score("elementwise_instructions_per_score")
            .default_to("2")
            .by_gpu()
            .describe("unfused: CUDA-core instructions per score of the broadcast mask add and "
                      "the where pass (index arithmetic of a non-vectorized elementwise kernel)."),
        into(&P::elementwise_instructions_per_score));
  return s;
}

namespace {

AttentionProfile profile_from(const std::filesystem::path& file, const YAML::Node& root,
                              const ProfileTarget& target, Diagnostics& diagnostics) {
  const std::string path = file.string();
  const config::ReadContext context = profile_read_context(path, target);
  AttentionProfile profile;
  profile.name = file.stem().string();
  profile.source_path = path;
  attention_profile_schema().read(root, context, profile, diagnostics);
  return profile;
}

}  // namespace

config::Loaded<AttentionProfile> load_attention_profile(const std::filesystem::path& file,
                                                        const ProfileTarget& target) {
  return config::guarded_read<AttentionProfile>(
      file.string(), Diagnostics{},
      [&](Diagnostics& diagnostics) -> std::optional<AttentionProfile> {
        std::optional<YAML::Node> root = config::load_yaml_file(file, diagnostics);
        if (!root) return std::nullopt;
        return profile_from(file, *root, target, diagnostics);
      });
}

config::Loaded<AttentionProfile> read_attention_profile(const std::filesystem::path& file,
                                                        const YAML::Node& root,
                                                        const ProfileTarget& target) {
  return config::guarded_read<AttentionProfile>(
      file.string(), Diagnostics{},
      [&](Diagnostics& diagnostics) -> std::optional<AttentionProfile> {
        return profile_from(file, root, target, diagnostics);
      });
}

void read_attention_profiles(const std::filesystem::path& kernel_dir, const ProfileTarget& target,
                             std::map<std::string, AttentionProfile>& profiles,
                             config::Diagnostics& diagnostics) {
  read_profile_folder(kernel_dir.parent_path() / "attention", target, load_attention_profile,
                      read_attention_profile, profiles, diagnostics);
}

}  // namespace tilesim::hw
