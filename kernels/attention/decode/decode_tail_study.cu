// tilesim-decode-tail-study: what the 1 x 32k split-KV decode launch (32/8
// heads, d 128, bf16; 16 splits: 128 CTAs of 32 blocks on 132 SMs) spends past
// its mean CTA (issue 12, round 12: ncu put 44.9 of 52.3 us in the mean CTA,
// 3.2 in the tail to the slowest SM, 3.6 with no CTA resident).
//
// Kernels, one launch each, timed by events (median of --runs after a warm-up,
// two input sets rotated: 134 MB of K/V each, past the 50 MB L2):
//   production  flash_decoding's launcher, unchanged;
//   traced      the same CTA code (DecodeCta::run, SplitEpilogue) with
//               %globaltimer read by thread 0 at entry, when the main loop
//               ends (the epilogue's start), when its partial is stored, when
//               its arrival returned and at exit, and the CTA's %smid;
//   release     traced with round 13's candidate arrival (ReleaseArrival:
//               fence.acq_rel and a relaxed atomic, the acquire fence only
//               in the merging CTA);
//   merge16     traced, the merging CTA loading all 16 partials at once
//               (production: 8, then 8);
//   announce    the pair's arrival counted as each CTA's last block begins
//               (the atomic's round trip under that block's compute); not
//               last: partial and a ready flag; last: awaits the flags, merges
//               with its own partial from shared memory, 16 at once;
//   tickets     a per-block dynamic handout: each pair's blocks drawn one at
//               a time from an atomic counter. Not deterministic (a CTA's
//               partial depends on the blocks it drew): it bounds what evening
//               the tail could give;
//   tail1/2     deterministic balancing: each CTA's split less 1 (2) chunks
//               of 2 blocks, the pair's 16 (32) chunks drawn by the CTAs whose
//               split is issued; every chunk its own partial (TailCta);
//   empty       a kernel of the same grid, block and shared memory that does
//               nothing: the launch's floor under these events.
// Before timing, each computing kernel runs twice on one input set: its O
// against production's and whether the two runs agree bit for bit.
// The stamped launches write one CSV line per CTA (kernel, launch, split,
// head, smid, blocks, start, first block landed (tickets, tail), loop end,
// partial stored and arrival returned (split epilogues), exit in ns from the
// launch's first CTA start) to --trace FILE.
// --only A,B: check and time only the named kernels (production always checked).
// --small: 1 x 8192 keys, the checks only (for compute-sanitizer).
// --ncu: two launches of the production kernel only, no warm-up.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kernels/attention/attention_inputs.hpp"
#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/decode/decode_launch_params.cuh"
#include "kernels/attention/decode/decode_plan.hpp"
#include "kernels/attention/decode/decode_split_epilogue.cuh"
#include "kernels/attention/decode/decode_tail_handouts.cuh"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/event_pair.hpp"

namespace tilesim::kernels::decode::study {
namespace {

// decode_split_kernel's body (contiguous cache) with the stamps; kUnroll
// partials loaded at once by the merge (production: kCombineUnroll), the
// pair's count kept by Arrival (production: SeqCstArrival).
template <int kUnroll, class Arrival = SeqCstArrival>
__global__ void __launch_bounds__(Cfg::kThreads)
    traced_split_kernel(const DecodeParams p, CtaTrace* traces) {
  extern __shared__ __align__(128) unsigned char smem[];
  CtaTrace* trace = cta_trace(traces);
  stamp_start(trace);
  DecodeCta<Cfg, 0>::Cursor at;
  at.enter_sequence(p, static_cast<int>(blockIdx.z));
  at.head = static_cast<int>(blockIdx.y);
  const int split = static_cast<int>(blockIdx.x);
  const long long first = static_cast<long long>(split) * p.blocks_per_split;
  at.block = static_cast<int>(first);
  const long long blocks =
      min(static_cast<long long>(at.pair_blocks), first + p.blocks_per_split) - first;
  if (threadIdx.x == 0) trace->blocks = static_cast<int>(blocks);
  TracedEpilogue<SplitEpilogue<Cfg, kUnroll, StampedArrival<Arrival>>> epilogue{
      {split, {{}, trace}}, trace};
  DecodeCta<Cfg, 0> cta(smem);
  cta.run(p, at, blocks, epilogue);
}

__global__ void __launch_bounds__(Cfg::kThreads)
    announce_split_kernel(const DecodeParams p, int* ready, CtaTrace* traces) {
  extern __shared__ __align__(128) unsigned char smem[];
  CtaTrace* trace = cta_trace(traces);
  stamp_start(trace);
  AnnounceCta::Cursor at;
  at.enter_sequence(p, static_cast<int>(blockIdx.z));
  at.head = static_cast<int>(blockIdx.y);
  const int split = static_cast<int>(blockIdx.x);
  at.block = split * p.blocks_per_split;
  if (threadIdx.x == 0) trace->blocks = p.blocks_per_split;
  TracedEpilogue<AnnounceEpilogue> epilogue{{split, ready}, trace};
  AnnounceCta cta(smem);
  cta.run_announce(p, at, p.blocks_per_split, epilogue);
}

__global__ void __launch_bounds__(Cfg::kThreads)
    ticket_split_kernel(const DecodeParams p, int* tickets, CtaTrace* traces) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ int ring[kTicketRing];
  CtaTrace* trace = cta_trace(traces);
  stamp_start(trace);
  TicketCta::Cursor at;
  at.enter_sequence(p, static_cast<int>(blockIdx.z));
  at.head = static_cast<int>(blockIdx.y);
  const int pair = at.pair_index(p);
  TracedEpilogue<TicketEpilogue> epilogue{{static_cast<int>(blockIdx.x), tickets}, trace};
  TicketCta cta(smem);
  cta.run_tickets(p, at, tickets + pair, ring, trace, epilogue);
}

__global__ void __launch_bounds__(Cfg::kThreads)
    tail_split_kernel(const DecodeParams p, const TailCut cut, CtaTrace* traces) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ int draws[4];
  CtaTrace* trace = cta_trace(traces);
  stamp_start(trace);
  if (threadIdx.x == 0) trace->end_ns = 0;
  TailCta::Cursor at;
  at.enter_sequence(p, static_cast<int>(blockIdx.z));
  at.head = static_cast<int>(blockIdx.y);
  TailCta cta(smem);
  cta.run_tail(p, at, cut, static_cast<int>(blockIdx.x), draws, trace);
}

__global__ void __launch_bounds__(Cfg::kThreads) empty_kernel(int* sink) {
  if (sink != nullptr && threadIdx.x == 1000) *sink = 0;
}

struct Timing {
  double median_us = 0, min_us = 0, p90_us = 0;
};

Timing time_launches(const std::function<void(int)>& launch, int warmup, int runs) {
  for (int i = 0; i < warmup; ++i) launch(i);
  std::vector<EventPair> events(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)].start()));
    launch(i);
    TILESIM_CUDA_CHECK(cudaEventRecord(events[static_cast<std::size_t>(i)].stop()));
  }
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> times;
  for (const EventPair& pair : events) times.push_back(pair.elapsed_us());
  std::sort(times.begin(), times.end());
  const auto at = [&](double fraction) {
    return times[static_cast<std::size_t>(fraction * static_cast<double>(times.size() - 1))];
  };
  return {at(0.5), times.front(), at(0.9)};
}

struct Study {
  AttentionProblem problem;
  DecodeSplitPlan plan;
  std::vector<AttentionInputs> inputs;
  DeviceBuffer workspace;
  DeviceBuffer tickets;
  DeviceBuffer ready;
  DeviceBuffer traces;
  int ctas = 0;
  int shared_bytes = static_cast<int>(Cfg::kSharedBytes);

  // The tail cut's own workspace: arrival counts, draw counters, ready flags
  // (zeroed), then the partials of every slot.
  DeviceBuffer tail_workspace;

  void make_tail_workspace(int max_slots) {
    const std::size_t pairs = static_cast<std::size_t>(decode_pairs(problem));
    const std::size_t flags = pairs * (2 + static_cast<std::size_t>(max_slots)) * 4;
    const std::size_t partial_floats = pairs * static_cast<std::size_t>(max_slots) *
                                       static_cast<std::size_t>(problem.group_size()) *
                                       static_cast<std::size_t>(problem.head_dim + 1);
    tail_workspace = DeviceBuffer(flags + partial_floats * 4);
    TILESIM_CUDA_CHECK(cudaMemset(tail_workspace.get(), 0, flags));
  }

  // The tail cut's parameters and cut for `main_blocks` + chunks of `chunk_blocks`.
  std::pair<DecodeParams, TailCut> tail_params(int set, int main_blocks, int chunk_blocks) const {
    const long long pairs = decode_pairs(problem);
    const int pair_blocks = problem.kv_lens[0] / kDecodeBlockKeys;
    TailCut cut{main_blocks, chunk_blocks,
                (pair_blocks - kMainSplitsStudy * main_blocks) / chunk_blocks, nullptr, nullptr};
    const int slots = kMainSplitsStudy + cut.tail_chunks;
    DecodeParams p = params(set);
    p.splits = slots;
    p.blocks_per_split = main_blocks;
    p.split_arrivals = tail_workspace.as<int>();
    cut.counter = p.split_arrivals + pairs;
    cut.ready = cut.counter + pairs;
    p.partial_o = reinterpret_cast<float*>(cut.ready + pairs * slots);
    p.partial_lse = p.partial_o + pairs * slots * p.rows * problem.head_dim;
    return {p, cut};
  }

  DecodeParams params(int set) const {
    const AttentionTensors tensors = inputs[static_cast<std::size_t>(set)].tensors();
    DecodeParams p = make_decode_params(problem, tensors, false);
    p.blocks_per_split = plan.blocks_per_split;
    p.splits = plan.splits;
    p.write_partials = true;
    const long long pairs = decode_pairs(problem);
    p.split_arrivals = workspace.as<int>();
    p.partial_o = reinterpret_cast<float*>(workspace.as<char>() + decode_flag_bytes(pairs));
    p.partial_lse = p.partial_o + pairs * plan.splits * p.rows * problem.head_dim;
    return p;
  }
  dim3 grid() const {
    return dim3(static_cast<unsigned>(plan.splits), static_cast<unsigned>(problem.kv_heads),
                static_cast<unsigned>(problem.batch));
  }
};

void write_traces(const Study& study, const char* kernel, int launch, std::FILE* out) {
  std::vector<CtaTrace> host(static_cast<std::size_t>(study.ctas));
  TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), study.traces.get(), host.size() * sizeof(CtaTrace),
                                cudaMemcpyDeviceToHost));
  unsigned long long origin = host.front().start_ns;
  for (const CtaTrace& t : host) origin = std::min(origin, t.start_ns);
  const auto rel = [&](unsigned long long ns) {
    return ns == 0 ? -1.0 : static_cast<double>(ns - origin);
  };
  for (int c = 0; c < study.ctas; ++c) {
    const CtaTrace& t = host[static_cast<std::size_t>(c)];
    std::fprintf(out, "%s,%d,%d,%d,%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", kernel, launch,
                 c % study.plan.splits, c / study.plan.splits, t.smid, t.blocks, rel(t.start_ns),
                 rel(t.first_ns), rel(t.loop_end_ns), rel(t.partial_ns), rel(t.arrived_ns),
                 rel(t.end_ns));
  }
}

double relative_difference(const Study& study, const DeviceBuffer& a, const DeviceBuffer& b) {
  const std::size_t count = static_cast<std::size_t>(study.inputs[0].output_elements());
  std::vector<std::uint16_t> x(count), y(count);
  TILESIM_CUDA_CHECK(cudaMemcpy(x.data(), a.get(), count * 2, cudaMemcpyDeviceToHost));
  TILESIM_CUDA_CHECK(cudaMemcpy(y.data(), b.get(), count * 2, cudaMemcpyDeviceToHost));
  const auto value = [](std::uint16_t bits) {
    const std::uint32_t word = std::uint32_t{bits} << 16;
    float f;
    std::memcpy(&f, &word, 4);
    return static_cast<double>(f);
  };
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < count; ++i) {
    diff += (value(x[i]) - value(y[i])) * (value(x[i]) - value(y[i]));
    norm += value(y[i]) * value(y[i]);
  }
  return norm > 0 ? std::sqrt(diff / norm) : 1.0;
}

using Launch = std::function<void(int)>;
using NamedLaunch = std::pair<const char*, Launch>;

// Each variant twice on input set 0: its O against production's, and whether
// the two runs agree bit for bit.
void check_variants(const Study& study, const std::vector<NamedLaunch>& variants) {
  const std::size_t o_bytes = static_cast<std::size_t>(study.inputs[0].output_elements()) * 2;
  const void* o = study.inputs[0].tensors().o;
  DeviceBuffer reference(o_bytes);
  for (const auto& [name, launch] : variants) {
    DeviceBuffer runs[2] = {DeviceBuffer(o_bytes), DeviceBuffer(o_bytes)};
    for (DeviceBuffer& out : runs) {
      study.inputs[0].poison_output(nullptr);
      launch(0);
      TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
      TILESIM_CUDA_CHECK(cudaMemcpy(out.get(), o, o_bytes, cudaMemcpyDeviceToDevice));
    }
    if (std::strcmp(name, "production") == 0) {
      TILESIM_CUDA_CHECK(
          cudaMemcpy(reference.get(), runs[0].get(), o_bytes, cudaMemcpyDeviceToDevice));
    }
    std::vector<char> a(o_bytes), b(o_bytes);
    TILESIM_CUDA_CHECK(cudaMemcpy(a.data(), runs[0].get(), o_bytes, cudaMemcpyDeviceToHost));
    TILESIM_CUDA_CHECK(cudaMemcpy(b.data(), runs[1].get(), o_bytes, cudaMemcpyDeviceToHost));
    std::printf("%s: |O - production| / |production| = %.3g, second run bitwise %s\n", name,
                relative_difference(study, runs[0], reference),
                std::memcmp(a.data(), b.data(), o_bytes) == 0 ? "equal" : "DIFFERENT");
  }
}

int run(int argc, char** argv) {
  int warmup = 300, runs = 400, traced_launches = 20, kv_len = 32768;
  bool ncu = false, check_only = false;
  const char* trace_path = nullptr;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--ncu") ncu = true;
    if (arg == "--small") {
      check_only = true;
      kv_len = 8192;
    }
    if (arg == "--trace" && i + 1 < argc) trace_path = argv[++i];
    if (arg == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    if (arg == "--only" && i + 1 < argc) only = "," + std::string(argv[++i]) + ",";
  }
  Study study;
  study.problem.batch = 1;
  study.problem.heads = 32;
  study.problem.kv_heads = 8;
  study.problem.kv_lens = {kv_len};
  study.problem.head_dim = 128;
  study.plan = flash_decoding_split_plan(study.problem);
  if (study.plan.splits * study.plan.blocks_per_split * kDecodeBlockKeys != kv_len) {
    std::fprintf(stderr, "the early-arrival kernel needs equal, full splits\n");
    return 1;
  }
  for (int set = 0; set < 2; ++set) {
    AttentionInputOptions options;
    options.seed = 11 + static_cast<std::uint64_t>(set);
    study.inputs.emplace_back(study.problem, options);
  }
  const AttentionWorkspaceSize size =
      attention_workspace_size(AttentionVariant::flash_decoding, study.problem);
  study.workspace = DeviceBuffer(size.bytes);
  TILESIM_CUDA_CHECK(cudaMemset(study.workspace.get(), 0, size.bytes));
  const std::size_t pairs = static_cast<std::size_t>(decode_pairs(study.problem));
  study.tickets = DeviceBuffer(pairs * 4);
  TILESIM_CUDA_CHECK(cudaMemset(study.tickets.get(), 0, study.tickets.bytes()));
  study.ready = DeviceBuffer(pairs * static_cast<std::size_t>(study.plan.splits) * 4);
  TILESIM_CUDA_CHECK(cudaMemset(study.ready.get(), 0, study.ready.bytes()));
  study.make_tail_workspace(kMainSplitsStudy + 2 * kMainSplitsStudy);
  study.ctas = study.plan.splits * study.problem.kv_heads * study.problem.batch;
  study.traces = DeviceBuffer(static_cast<std::size_t>(study.ctas) * sizeof(CtaTrace));
  for (const void* kernel :
       {reinterpret_cast<const void*>(traced_split_kernel<kCombineUnroll>),
        reinterpret_cast<const void*>(traced_split_kernel<kMergeUnroll>),
        reinterpret_cast<const void*>(traced_split_kernel<kCombineUnroll, ReleaseArrival>),
        reinterpret_cast<const void*>(announce_split_kernel),
        reinterpret_cast<const void*>(ticket_split_kernel),
        reinterpret_cast<const void*>(tail_split_kernel),
        reinterpret_cast<const void*>(empty_kernel)}) {
    TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            study.shared_bytes));
  }
  std::printf("1 x %d, 32/8, d 128, bf16: %d splits of %d blocks, %d CTAs\n", kv_len,
              study.plan.splits, study.plan.blocks_per_split, study.ctas);

  const Launch production = [&](int i) {
    launch_attention(AttentionVariant::flash_decoding, study.problem,
                     study.inputs[static_cast<std::size_t>(i % 2)].tensors(), study.workspace.get(),
                     nullptr);
  };
  if (ncu) {
    production(0);
    production(1);
    TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
  }
  const Launch traced = [&](int i) {
    traced_split_kernel<kCombineUnroll><<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(
        study.params(i % 2), study.traces.as<CtaTrace>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  const Launch release = [&](int i) {
    traced_split_kernel<kCombineUnroll, ReleaseArrival>
        <<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(study.params(i % 2),
                                                              study.traces.as<CtaTrace>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  const Launch merge16 = [&](int i) {
    traced_split_kernel<kMergeUnroll><<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(
        study.params(i % 2), study.traces.as<CtaTrace>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  const Launch announce = [&](int i) {
    announce_split_kernel<<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(
        study.params(i % 2), study.ready.as<int>(), study.traces.as<CtaTrace>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  const Launch tickets = [&](int i) {
    ticket_split_kernel<<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(
        study.params(i % 2), study.tickets.as<int>(), study.traces.as<CtaTrace>());
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  // Main segments of all but 2 (4) chunks' blocks of 2 a CTA: 16 (32) chunks a pair.
  const int main_blocks = study.plan.blocks_per_split;
  const auto tail_launch = [&](int chunks_per_cta) {
    return [&study, main_blocks, chunks_per_cta](int i) {
      const auto [p, cut] = study.tail_params(i % 2, main_blocks - 2 * chunks_per_cta, 2);
      tail_split_kernel<<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(
          p, cut, study.traces.as<CtaTrace>());
      TILESIM_CUDA_CHECK(cudaGetLastError());
    };
  };
  const Launch tail1 = tail_launch(1);
  const Launch tail2 = tail_launch(2);
  const Launch empty = [&](int) {
    empty_kernel<<<study.grid(), Cfg::kThreads, study.shared_bytes>>>(nullptr);
    TILESIM_CUDA_CHECK(cudaGetLastError());
  };
  std::vector<NamedLaunch> computing;
  for (const NamedLaunch& kernel : std::vector<NamedLaunch>{{"production", production},
                                                            {"traced", traced},
                                                            {"release", release},
                                                            {"merge16", merge16},
                                                            {"announce", announce},
                                                            {"tickets", tickets},
                                                            {"tail1", tail1},
                                                            {"tail2", tail2}}) {
    const bool named = only.find("," + std::string(kernel.first) + ",") != std::string::npos;
    if (only.empty() || named || std::strcmp(kernel.first, "production") == 0) {
      computing.push_back(kernel);
    }
  }
  check_variants(study, computing);
  if (check_only) return 0;

  std::FILE* trace_out = trace_path != nullptr ? std::fopen(trace_path, "w") : nullptr;
  if (trace_out != nullptr) {
    std::fprintf(trace_out,
                 "kernel,launch,split,head,smid,blocks,start_ns,first_ns,loop_end_ns,partial_ns,"
                 "arrived_ns,end_ns\n");
  }
  std::vector<NamedLaunch> timed = computing;
  timed.emplace_back("empty", empty);
  std::printf("kernel,median_us,min_us,p90_us,runs\n");
  for (int round = 0; round < 2; ++round) {
    for (const auto& [name, launch] : timed) {
      const Timing t = time_launches(launch, warmup, runs);
      std::printf("%s,%.2f,%.2f,%.2f,%d\n", name, t.median_us, t.min_us, t.p90_us, runs);
      std::fflush(stdout);
      const bool stamped = std::strcmp(name, "production") != 0 && std::strcmp(name, "empty") != 0;
      if (round == 0 && stamped && trace_out != nullptr) {
        for (int l = 0; l < traced_launches; ++l) {
          launch(l);
          TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
          write_traces(study, name, l, trace_out);
        }
      }
    }
  }
  if (trace_out != nullptr) std::fclose(trace_out);
  return 0;
}

}  // namespace
}  // namespace tilesim::kernels::decode::study

int main(int argc, char** argv) {
  return tilesim::kernels::decode::study::run(argc, argv);
}
