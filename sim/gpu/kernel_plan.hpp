#pragma once
// What workloads lower to and the GPU model runs: kernel launches on streams,
// each a grid of CTAs with a resource footprint and a per-CTA program of steps.
// Schedules (data-parallel, Split-K, ...) differ only in the programs they emit.

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hwmodels/data_type.hpp"

namespace tilesim::gpu {

// A block of global memory that the L2 model tracks as one unit, e.g. the
// k-chunk `chunk` of row-panel `panel` of operand tensor `tensor`.
struct BlockKey {
  std::uint32_t tensor = 0;
  std::uint32_t panel = 0;
  std::uint32_t chunk = 0;
  bool operator==(const BlockKey&) const = default;
};

struct BlockRead {
  BlockKey key;
  double bytes = 0;
  // CTAs of a cluster that receive this block from one L2 read (TMA multicast).
  int multicast = 1;
  // The part of the block read, in any unit along it (GEMMs use k-blocks);
  // CTAs reading disjoint parts of one block do not share bytes.
  std::int64_t part_begin = 0;
  std::int64_t part_end = 1;
  bool operator==(const BlockRead&) const = default;
};

// A step reads a few blocks (a GEMM step: one of A, one of B); kept inline, a
// program of thousands of steps allocates once.
using BlockReads = boost::container::small_vector<BlockRead, 2>;

enum class ExecutionUnit : std::uint8_t { tensor, fp32, sfu };

// Wait until flag `flag` of this kernel has been raised `count` times.
struct FlagWait {
  std::uint32_t flag = 0;
  std::int64_t count = 0;
  bool operator==(const FlagWait&) const = default;
};

// One step of a CTA: reads streamed through the memory hierarchy while the
// execution unit works, overlapped (a software pipeline), so the step lasts as
// long as its slowest part. A step with only compute or only a store is the
// degenerate case.
struct CtaStep {
  BlockReads reads;
  double write_bytes = 0;             // stored through L2 and written back to HBM
  std::optional<BlockKey> write_key;  // written data stays in L2 under this key
  ExecutionUnit unit = ExecutionUnit::tensor;
  hw::DataType mma_type = hw::DataType::bf16;  // which tensor-core rate applies
  double flops = 0;                            // as issued (padded tiles count in full)
  // Little's law: reads go no faster than bytes_in_flight / memory latency.
  double bytes_in_flight = 0;
  // Memory latencies the step waits, one after another, before its reads
  // stream: 1 for a pipeline fill; more where each thread issues its loads in
  // sequence (a framework kernel whose loads wait on the previous store).
  std::uint8_t first_data_waits = 0;
  // When > 0, the latency of this step's reads instead of the L2/HBM blend
  // (loads of lines another SM just wrote).
  double read_latency_s = 0;
  // When > 0, the reads pass the SM's load path (L1 and its load/store
  // units) at this many bytes a clock, shared by the SM's CTAs, instead of at
  // the L2 port's rate: narrow loads of rows not 16-byte aligned use a few
  // bytes of each sector the path moves (sm_load_path.hpp).
  double load_path_bytes_per_clock = 0;
  // Fixed time before the step starts (a work unit's prologue).
  double setup_s = 0;
  // When > 0, the step's flow takes at least this long however few other CTAs
  // share its SM's units: the CTA's own chain of dependent work that only
  // another CTA's work hides (a flash CTA's softmax between its GEMMs).
  double min_duration_s = 0;
  // Fixup through flags in global memory: wait before the step (time on the
  // SM, shown in traces), raise a flag once the step is done.
  std::optional<FlagWait> wait;
  // When the wait blocked: time from the flag's raise until the step starts
  // (the raiser's fence reaching L2, the waiter's poll seeing it, its barrier).
  // A wait whose flag was already up pays nothing.
  double wake_s = 0;
  std::optional<std::uint32_t> signal;
  std::uint16_t segment = 0;  // which CtaProgram::segments entry this step works on
  bool operator==(const CtaStep&) const = default;
};

// What a CTA works on (one tile and k-range; a Stream-K CTA has several), for
// traces and reports.
struct CtaWorkLabel {
  std::int64_t tile_row = 0;
  std::int64_t tile_col = 0;
  std::int64_t k_begin = 0;
  std::int64_t k_end = 0;
  bool operator==(const CtaWorkLabel&) const = default;
};

struct CtaProgram {
  std::vector<CtaWorkLabel> segments;
  std::vector<CtaStep> steps;
  // This CTA's tensor-core rate relative to the launch's (CTAs of one launch
  // run at unequal paces on a GPU); 1 = the launch's.
  double tensor_speed = 1;
  // Whether the L2 model smears this CTA's sharing with other CTAs by the
  // hardware's reader drift (l2.reader_drift): not where the launch simulates
  // its CTAs' unequal paces itself (tensor_speed), which would count them twice.
  bool drifts = true;

  bool operator==(const CtaProgram&) const = default;
  // Empties the program but keeps its storage, for the next one built into it.
  void clear() {
    segments.clear();
    steps.clear();
    tensor_speed = 1;
    drifts = true;
  }
};

// Produces CTA programs on demand, so a grid of thousands of CTAs is never
// materialized at once.
class CtaProgramSource {
 public:
  virtual ~CtaProgramSource() = default;
  virtual CtaProgram program(std::int64_t cta_index) const = 0;
  // The same program, built into `program` (a finished CTA's, emptied or
  // not): sources that build step by step override it to reuse its storage,
  // so that a grid's programs allocate per running CTA, not per CTA.
  virtual void build(std::int64_t cta_index, CtaProgram& program) const {
    program = this->program(cta_index);
  }
};

struct CtaFootprint {
  int threads = 0;
  int registers_per_thread = 0;
  double shared_memory_bytes = 0;
  bool operator==(const CtaFootprint&) const = default;
};

struct KernelLaunch {
  std::string name;
  int stream = 0;
  std::int64_t cta_count = 0;
  int cluster_size = 1;  // CTAs dispatched together (consecutive indices)
  CtaFootprint footprint;
  double tensor_efficiency = 1.0;  // fraction of tensor-core peak the main loop reaches
  // Fraction of the issued tensor-core flops that draw energy (the power
  // law): MMAs over the zero-filled padding of edge tiles switch no multiplier
  // bits, so a decode GEMM's 256-row tiles of 8 real rows draw little.
  double tensor_energy_fraction = 1.0;
  // What the events around a plan see once: the plan's last kernel to end
  // pays the largest of its kernels' once, after its last CTA.
  double fixed_overhead_s = 0;
  // What this kernel pays after its last CTA at every launch, back to back or
  // not (its ramp and drain): its dependents start that much later.
  double ramp_and_drain_s = 0;
  std::shared_ptr<const CtaProgramSource> programs;
  // Earlier launches of the plan (indices) that must finish before this one
  // starts, beyond its stream predecessor: CUDA events between streams, or the
  // edges of a CUDA graph.
  std::vector<int> depends_on;
  // Host time before this launch call when launched eagerly: a framework's
  // per-op dispatch (0 for a kernel the same op launches after its first).
  double host_dispatch_s = 0;
};

enum class LaunchMode { eager, cuda_graph };

struct KernelPlan {
  LaunchMode mode = LaunchMode::eager;
  std::vector<KernelLaunch> kernels;  // in host issue order
};

}  // namespace tilesim::gpu
