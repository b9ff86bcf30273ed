#include "hwmodels/hardware_schema.hpp"

namespace tilesim::hw {

using config::into;
using config::Param;
using config::QuantityKind;
using config::Value;

namespace {

// Plausible physical ranges: wide enough for any GPU of the last decade and the
// next, narrow enough to catch a wrong unit (MB for GB) or a slipped digit.
constexpr const char* kLatencyMin = "1 ns";
constexpr const char* kLatencyMax = "100 us";

MmaInstruction parse_instruction(const std::string& text) {
  if (text == "wgmma") {
    return MmaInstruction::wgmma;
  }
  return text == "simt" ? MmaInstruction::simt : MmaInstruction::mma_sync;
}

Param tensor_rate(const char* type) {
  return Param::quantity(std::string("sm.tensor.") + type, QuantityKind::compute_rate)
      .range("1 GFLOP/s", "200 TFLOP/s");
}

}  // namespace

std::string_view to_string(MmaInstruction instruction) {
  switch (instruction) {
    case MmaInstruction::mma_sync:
      return "mma_sync";
    case MmaInstruction::wgmma:
      return "wgmma";
    case MmaInstruction::simt:
      return "simt";
  }
  return "unknown";
}

TileParams tile_params() {
  return {
      .m = Param::integer("m").range(16, 512).multiple_of(16).describe("Tile rows (along M)."),
      .n = Param::integer("n").range(16, 512).multiple_of(16).describe("Tile columns (along N)."),
      .k = Param::integer("k").range(8, 512).multiple_of(8).describe(
          "Depth of one k-block (along K)."),
      .stages = Param::integer("stages").range(1, 16).describe(
          "k-blocks in flight in the shared-memory pipeline."),
      .warps = Param::integer("warps").range(1, 32).describe("Warps per CTA."),
      .registers_per_thread = Param::integer("registers_per_thread")
                                  .range(1, 1024)
                                  .describe("Registers each thread needs (limits occupancy)."),
      .swizzle = Param::integer("swizzle").range(1, 64).default_to("1").describe(
          "Tile rows per rasterization band (1 = row-major order)."),
      .cluster_m = Param::integer("cluster_m")
                       .range(1, 16)
                       .default_to("1")
                       .describe("CTAs of a cluster along M (they share the B tile by multicast)."),
      .cluster_n = Param::integer("cluster_n")
                       .range(1, 16)
                       .default_to("1")
                       .describe("CTAs of a cluster along N (they share the A tile by multicast)."),
  };
}

config::Schema<HardwareSpec> hardware_schema() {
  using H = HardwareSpec;
  using Sm = SmSpec;
  using Smem = SharedMemorySpec;
  config::Schema<HardwareSpec> s;
  s.add(Param::text("name").name_like().describe("Short name used by studies and reports."),
        into(&H::name));
  s.add(Param::text("description").optional().describe("Free text: product, memory size."),
        into(&H::description));
  s.add(Param::text("architecture")
            .name_like()
            .describe("GPU architecture, e.g. `sm90` (compute capability 9.0): which kernel "
                      "profiles can run here, and which of their per-GPU values apply."),
        into(&H::architecture));

  s.add(Param::integer("sm.count").range(1, 1024).describe("Streaming multiprocessors (SMs)."),
        into(&H::sm, &Sm::count));
  s.add(Param::quantity("sm.clock", QuantityKind::frequency)
            .range("100 MHz", "10 GHz")
            .clock()
            .describe("Maximum (boost) SM clock; per-clock values (flop/clk, B/clk, clk) use it."),
        into(&H::sm, &Sm::clock_hz));
  s.add(Param::quantity("sm.power_limited_clock", QuantityKind::frequency)
            .range("100 MHz", "10 GHz")
            .optional()
            .describe("SM clock with every SM running tensor-core work at the board's power "
                      "limit. With fewer SMs busy, tensor work runs at this clock x (SMs / busy "
                      "SMs)^(1/3), at most `sm.clock` (dynamic power ~ f^3). Default: "
                      "`sm.clock` (no power limit). Not used when the file has `power.limit_w`: "
                      "the power law replaces it."),
        into(&H::sm, &Sm::power_limited_clock_hz));
  s.add(tensor_rate("fp16").describe("Dense fp16 tensor-core rate of one SM."),
        into(&H::sm, &Sm::tensor, &TensorCoreRates::fp16_flops_per_s));
  s.add(tensor_rate("bf16").describe("Dense bf16 tensor-core rate of one SM."),
        into(&H::sm, &Sm::tensor, &TensorCoreRates::bf16_flops_per_s));
  s.add(tensor_rate("tf32").describe("Dense tf32 tensor-core rate of one SM."),
        into(&H::sm, &Sm::tensor, &TensorCoreRates::tf32_flops_per_s));
  s.add(tensor_rate("fp8").optional().describe(
            "Dense fp8 tensor-core rate of one SM; absent: no fp8 tensor cores (rate 0)."),
        into(&H::sm, &Sm::tensor, &TensorCoreRates::fp8_flops_per_s));
  s.add(Param::quantity("sm.fp32", QuantityKind::compute_rate)
            .range("1 GFLOP/s", "100 TFLOP/s")
            .describe("FP32 CUDA-core rate of one SM, an FMA counted as 2 flops."),
        into(&H::sm, &Sm::fp32_flops_per_s));
  s.add(Param::quantity("sm.sfu", QuantityKind::op_rate)
            .range("0.1 Gop/s", "10 Top/s")
            .describe("Special-function results (exp2, rcp) per second, one SM."),
        into(&H::sm, &Sm::sfu_ops_per_s));
  s.add(Param::quantity("sm.shared_memory.capacity", QuantityKind::size)
            .range("16 KiB", "4 MiB")
            .describe("Shared memory of one SM that CTAs can use."),
        into(&H::sm, &Sm::shared_memory, &Smem::capacity_bytes));
  s.add(Param::quantity("sm.shared_memory.per_cta_max", QuantityKind::size)
            .range("1 KiB", "4 MiB")
            .describe("Largest shared memory one CTA may request (opt-in maximum)."),
        into(&H::sm, &Sm::shared_memory, &Smem::per_cta_max_bytes));
  s.add(Param::quantity("sm.shared_memory.reserved_per_cta", QuantityKind::size)
            .range("0 B", "64 KiB")
            .describe("Shared memory the system reserves for every resident CTA."),
        into(&H::sm, &Sm::shared_memory, &Smem::reserved_per_cta_bytes));
  s.add(Param::quantity("sm.shared_memory.bandwidth", QuantityKind::bandwidth)
            .range("1 GB/s", "10 TB/s")
            .describe("Shared-memory bandwidth of one SM."),
        into(&H::sm, &Sm::shared_memory, &Smem::bandwidth_bytes_per_s));
  s.add(Param::integer("sm.registers").range(1024, 1048576).describe("32-bit registers per SM."),
        into(&H::sm, &Sm::registers));
  s.add(Param::integer("sm.register_allocation_unit")
            .range(1, 65536)
            .describe("Registers are granted per warp in multiples of this."),
        into(&H::sm, &Sm::register_allocation_unit));
  s.add(Param::integer("sm.max_registers_per_thread")
            .range(16, 1024)
            .describe("Most registers one thread may use."),
        into(&H::sm, &Sm::max_registers_per_thread));
  s.add(Param::integer("sm.max_threads").range(32, 65536).describe("Resident threads per SM."),
        into(&H::sm, &Sm::max_threads));
  s.add(Param::integer("sm.max_ctas").range(1, 1024).describe("Resident CTAs per SM."),
        into(&H::sm, &Sm::max_ctas));
  s.add(Param::integer("sm.max_threads_per_cta")
            .range(32, 65536)
            .describe("Most threads in one CTA."),
        into(&H::sm, &Sm::max_threads_per_cta));
  s.add(Param::quantity("sm.l2_port_bandwidth", QuantityKind::bandwidth)
            .range("1 GB/s", "10 TB/s")
            .describe("Most one SM can pull from L2."),
        into(&H::sm, &Sm::l2_port_bytes_per_s));

  s.add(Param::quantity("l2.capacity", QuantityKind::size)
            .range("64 KiB", "4 GiB")
            .describe("L2 cache size."),
        into(&H::l2, &L2Spec::capacity_bytes));
  s.add(Param::quantity("l2.bandwidth", QuantityKind::bandwidth)
            .range("10 GB/s", "500 TB/s")
            .describe("What the SMs read from L2 (hits and filled misses alike) and write to it, "
                      "all SMs together."),
        into(&H::l2, &L2Spec::bandwidth_bytes_per_s));
  s.add(Param::quantity("l2.latency", QuantityKind::time)
            .range(kLatencyMin, kLatencyMax)
            .describe("Load-to-use latency of an L2 hit."),
        into(&H::l2, &L2Spec::latency_s));
  s.add(Param::quantity("l2.slice_bandwidth", QuantityKind::bandwidth)
            .range("0 GB/s", "500 TB/s")
            .default_to("0 GB/s")
            .describe("What the L2 slices' data arrays move, hits and fills together: a miss is "
                      "written into its slice before the SM reads it (0: no limit beyond "
                      "l2.bandwidth)."),
        into(&H::l2, &L2Spec::slice_bandwidth_bytes_per_s));

  s.add(Param::number("l2.reader_drift")
            .range(0.0, 1.0)
            .default_to("0")
            .describe("How far apart two CTAs doing the same work drift (one standard deviation) "
                      "as a share of their age; a read of what another CTA read hits only while "
                      "their offset stays inside the L2's residency window (0: in step)."),
        into(&H::l2, &L2Spec::reader_drift));

  s.add(Param::integer("l2.partitions")
            .range(1, 8)
            .default_to("1")
            .describe("L2 partitions, each caching what its SMs read (the other partition's "
                      "lines too): data the whole chip reuses fits in capacity / partitions."),
        into(&H::l2, &L2Spec::partitions));

  s.add(Param::quantity("hbm.capacity", QuantityKind::size)
            .range("1 GB", "4 TB")
            .describe("Device memory size."),
        into(&H::hbm, &HbmSpec::capacity_bytes));
  s.add(Param::quantity("hbm.bandwidth", QuantityKind::bandwidth)
            .range("10 GB/s", "100 TB/s")
            .describe("Peak device-memory bandwidth (datasheet)."),
        into(&H::hbm, &HbmSpec::bandwidth_bytes_per_s));
  s.add(Param::number("hbm.efficiency")
            .greater_than(0)
            .at_most(1)
            .describe("Sustained / peak bandwidth; a fraction such as 3.09/3.35 is accepted."),
        into(&H::hbm, &HbmSpec::efficiency));
  s.add(Param::quantity("hbm.latency", QuantityKind::time)
            .range(kLatencyMin, kLatencyMax)
            .describe("Load-to-use latency of an L2 miss."),
        into(&H::hbm, &HbmSpec::latency_s));

  s.add(Param::quantity("launch.host_issue", QuantityKind::time)
            .range("1 ns", "1 ms")
            .describe("Host time to issue one eager kernel launch."),
        into(&H::launch, &LaunchSpec::host_issue_s));
  s.add(Param::quantity("launch.latency", QuantityKind::time)
            .range("1 ns", "1 ms")
            .describe("From the launch call to the first CTA running."),
        into(&H::launch, &LaunchSpec::latency_s));
  s.add(Param::quantity("launch.graph_node", QuantityKind::time)
            .range("1 ns", "1 ms")
            .describe("Per-kernel cost inside a CUDA graph launch."),
        into(&H::launch, &LaunchSpec::graph_node_s));
  s.add(Param::quantity("launch.cta_dispatch", QuantityKind::time)
            .range(kLatencyMin, kLatencyMax)
            .describe("Block scheduler: CTA assigned to its first instruction."),
        into(&H::launch, &LaunchSpec::cta_dispatch_s));
  s.add(Param::quantity("launch.framework_dispatch", QuantityKind::time)
            .range("0 s", "1 ms")
            .default_to("0 us")
            .describe("Host time a framework spends on one op before its launch call (PyTorch "
                      "eager: Python, dispatcher, allocator); paid by eager launches of "
                      "`fused: framework` layers and models, not by CUDA graphs."),
        into(&H::launch, &LaunchSpec::framework_dispatch_s));

  // The power law (power_law.hpp). Every key is optional; without power.limit_w
  // the file has none and sm.power_limited_clock applies.
  s.add(Param::number("power.limit_w")
            .range(0, 5000)
            .optional()
            .describe("Board power limit in W (the software cap the clock is held to). With "
                      "it, the clock of each kernel's tensor work is where its power fits "
                      "(docs/model.md) and `sm.power_limited_clock` is not used."),
        into(&H::power, &PowerSpec::limit_w));
  s.add(Param::number("power.static_w")
            .range(0, 5000)
            .optional()
            .describe("Board power in W with clocks up and no kernel running."),
        into(&H::power, &PowerSpec::static_w));
  s.add(Param::number("power.sm_active_w")
            .range(0, 100)
            .optional()
            .describe("Power in W of one SM with resident CTAs at `sm.clock`, beyond the "
                      "tensor cores' work; scales as f x V^2."),
        into(&H::power, &PowerSpec::sm_active_w));
  s.add(Param::number("power.tensor_pj_per_flop")
            .range(0, 100)
            .optional()
            .describe("Energy in pJ of one tensor-core flop at `sm.clock`; scales as V^2."),
        into(&H::power, &PowerSpec::tensor_pj_per_flop));
  s.add(Param::number("power.hbm_pj_per_byte")
            .range(0, 1000)
            .optional()
            .describe("Energy in pJ of one byte read from or written to DRAM."),
        into(&H::power, &PowerSpec::hbm_pj_per_byte));
  s.add(Param::number("power.voltage_exponent")
            .range(0, 4)
            .optional()
            .describe("How the squared core voltage follows the clock on the DVFS curve: "
                      "V^2 ~ (f / sm.clock)^voltage_exponent."),
        into(&H::power, &PowerSpec::voltage_exponent));

  s.add(Param::entries("kernels").not_empty().describe(
      "GEMM kernel profiles this GPU offers: the name studies use (`kernel: tilesim_ref`) -> "
      "a profile file in `configs/kernels/` (its name without `.yaml`); `library` is "
      "required."));
  return s;
}

config::Schema<KernelProfile> kernel_profile_schema() {
  using P = KernelProfile;
  const TileParams tile = tile_params();
  config::Schema<KernelProfile> s;
  s.add(Param::text("description")
            .describe("What kernel this is and where its code or its source is."),
        into(&P::description));
  s.add(Param::sequence("architectures")
            .not_empty()
            .describe("GPU architectures the kernel runs on, e.g. [sm80, sm90]; a hardware "
                      "file of another `architecture` cannot offer it."),
        [](P& profile, const Value& value) {
          profile.architectures.clear();
          for (const YAML::Node& item : value.node) {
            if (item.IsScalar()) profile.architectures.push_back(item.Scalar());
          }
        });
  s.add(
      Param::choice("instruction", {"mma_sync", "wgmma", "simt"})
          .describe("Main-loop instruction: mma.sync, Hopper wgmma, or CUDA cores."),
      [](P& profile, const Value& value) { profile.instruction = parse_instruction(value.text); });
  s.add(tile.m.keyed("tile.m"), into(&P::tile_m));
  s.add(tile.n.keyed("tile.n"), into(&P::tile_n));
  s.add(tile.k.keyed("tile.k"), into(&P::tile_k));
  s.add(tile.stages.keyed("tile.stages"), into(&P::stages));
  s.add(tile.warps.keyed("tile.warps"), into(&P::warps));
  s.add(tile.registers_per_thread.keyed("registers_per_thread"), into(&P::registers_per_thread));
  s.add(tile.swizzle.keyed("swizzle"), into(&P::swizzle));
  s.add(tile.cluster_m.keyed("cluster.m"), into(&P::cluster, &ClusterShape::m));
  s.add(tile.cluster_n.keyed("cluster.n"), into(&P::cluster, &ClusterShape::n));
  s.add(Param::number("tensor_efficiency")
            .greater_than(0)
            .at_most(1)
            .by_gpu()
            .describe("Main-loop fraction of the tensor-core peak this kernel reaches."),
        into(&P::tensor_efficiency));
  s.add(Param::integer("fixup_loads_in_flight")
            .range(1, 64)
            .default_to("4")
            .describe("16-byte loads each thread keeps in flight while it reads a partial tile "
                      "from the fp32 workspace (Split-K and Stream-K fixup): with the CTA's "
                      "threads and the memory latency, this caps one CTA's fixup bandwidth."),
        into(&P::fixup_loads_in_flight));
  s.add(Param::number("collect_loads_in_flight")
            .range(0, 64)
            .default_to("0")
            .by_gpu()
            .describe("16-byte loads each thread keeps in flight while the finisher of a "
                      "shared tile (serial split-K, Stream-K) adds its peers' partials into its "
                      "accumulators: loads and adds with no stores between, so the compiler may "
                      "keep more in flight than fixup_loads_in_flight. 0: fixup_loads_in_flight."),
        into(&P::collect_loads_in_flight));
  s.add(Param::number("unaligned_bytes_in_flight_per_thread")
            .range(0, 1024)
            .default_to("0")
            .by_gpu()
            .describe("Operands whose rows are not 16-byte aligned (k or n not a multiple of "
                      "16 bytes of elements): bytes each thread keeps in flight in the main "
                      "loop that gathers them through registers; its loads are not overlapped "
                      "with the MMAs (no cp.async or TMA pipeline), and with the CTA's threads "
                      "and the memory latency this sets the loads' rate. 0: the aligned main "
                      "loop is used for them."),
        into(&P::unaligned_bytes_in_flight_per_thread));
  s.add(Param::number("unaligned_widest_load_bytes")
            .range(0, 16)
            .default_to("0")
            .describe("The widest load the unaligned main loop uses where the rows allow it "
                      "(rows 4- or 8-byte aligned): its bytes in flight grow with the load, the "
                      "number of loads in flight staying. 0: one element a load, always."),
        into(&P::unaligned_widest_load_bytes));
  s.add(Param::number("split_k_unaligned_bytes_in_flight_per_thread")
            .range(0, 1024)
            .default_to("0")
            .by_gpu()
            .describe("unaligned_bytes_in_flight_per_thread for the kernel's split-K build (serial "
                      "and parallel reduction), compiled apart from the data-parallel one. 0: "
                      "unaligned_bytes_in_flight_per_thread."),
        into(&P::split_k_unaligned_bytes_in_flight_per_thread));
  s.add(Param::number("persistent_unaligned_bytes_in_flight_per_thread")
            .range(0, 1024)
            .default_to("0")
            .by_gpu()
            .describe("unaligned_bytes_in_flight_per_thread for the kernel's persistent build "
                      "(the Stream-K schedules and persistent data-parallel, whose CTAs loop "
                      "over work units). 0: unaligned_bytes_in_flight_per_thread."),
        into(&P::persistent_unaligned_bytes_in_flight_per_thread));
  s.add(Param::quantity("unaligned_load_latency", QuantityKind::time)
            .range("0 us", "10 us")
            .default_to("0 us")
            .by_gpu()
            .describe("What each round of the unaligned gather's loads waits, whether they hit "
                      "L2 or not (its scattered 2-byte loads queue in the SM's load path). 0: "
                      "the memory latency of its reads."),
        into(&P::unaligned_load_latency_s));
  s.add(Param::number("unaligned_gather_bytes_per_clock_per_sm")
            .range(0, 128)
            .default_to("0")
            .by_gpu()
            .describe("The SM's rate for the unaligned gather at one element a load, in bytes a "
                      "clock shared by the CTAs on the SM (a wider load, where the rows allow "
                      "it, moves proportionally more): its narrow loads use a few bytes of each "
                      "L1 sector they move, so the SM's load path holds them, not the memory "
                      "(plain GEMMs; the unfused attention path's batched GEMMs, held by their "
                      "narrow C store, keep the memory's rate). 0: the SM's L2 port rate."),
        into(&P::unaligned_gather_bytes_per_clock_per_sm));
  s.add(Param::choice("unaligned_schedules", {"all", "data_parallel_and_split_k"})
            .default_to("all")
            .describe("Which schedules the kernel that runs rows not 16-byte aligned has, "
                      "for `schedule: auto`: all, or data_parallel_and_split_k (a kernel class "
                      "with one tile per CTA and split-K over the grid, no Stream-K)."),
        [](P& profile, const Value& value) { profile.unaligned_stream_k = value.text == "all"; });
  s.add(Param::number("misaligned_row_read_factor")
            .range(1, 4)
            .default_to("1")
            .by_gpu()
            .describe("Operands whose rows are 16-byte but not 128-byte aligned (k or n not a "
                      "multiple of 128 bytes of elements): each 128-byte row segment a k-block "
                      "reads straddles two L2 lines, so the operand's reads cost this multiple "
                      "of its bytes through L2 and HBM. 1: no cost."),
        into(&P::misaligned_row_read_factor));
  s.add(Param::quantity("work_unit_overhead", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("Fixed time of each work unit (one tile's k-range: a data-parallel tile, a "
                      "split-K slice, a Stream-K segment) beyond its k-blocks' reads and MMAs: "
                      "the main loop's prologue (accumulators, addresses, pipeline fill) and the "
                      "epilogue's register-to-global stores. Paid before the unit's first step."),
        into(&P::work_unit_overhead_s));
  s.add(Param::quantity("kernel_overhead", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("Fixed time a timed run of this kernel pays once, whatever its number "
                      "of work units: what CUDA events around one call see beyond the kernel's "
                      "own ramp and drain (`ramp_and_drain`). Back-to-back kernels overlap it: "
                      "a workload pays it once, after its last kernel's last CTA (the largest "
                      "of its kernels')."),
        into(&P::kernel_overhead_s));
  s.add(Param::quantity("ramp_and_drain", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("Fixed time every launch of this kernel pays after its last CTA, also "
                      "back to back on a stream or inside a CUDA graph: the first wave's ramp "
                      "and the last wave's drain beyond what its CTAs' steps model. A chain of "
                      "N launches pays it N times, `kernel_overhead` once."),
        into(&P::ramp_and_drain_s));
  s.add(Param::quantity("fixup_load_latency", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("Latency of a load of an fp32 partial that another SM wrote (Split-K and "
                      "Stream-K fixup, the split-K reduction kernel); with the loads in flight "
                      "it caps the rate partials are read. 0: the L2 hit latency."),
        into(&P::fixup_load_latency_s));
  s.add(Param::quantity("fixup_handoff_latency", QuantityKind::time)
            .range("0 us", "100 us")
            .default_to("0 us")
            .by_gpu()
            .describe("Time a fixup step that waits on a flag (a serial split-K slice, a "
                      "Stream-K peer or finisher) pays after the flag is raised and before its "
                      "loads start: the raiser's fence and release store reaching L2, the "
                      "waiter's poll (sleep, acquire load) seeing it, its fence and the "
                      "barrier that releases the CTA. A turnstile of n slices pays it n - 1 "
                      "times in a row. 0: none."),
        into(&P::fixup_handoff_latency_s));
  s.add(Param::choice("stream_k_order", {"tail_first", "head_first"})
            .default_to("tail_first")
            .describe("Order in which a Stream-K CTA works through its iterations: tail_first "
                      "from its first tile up (the tile's owner, holding k-block 0, finishes "
                      "it; peers add from the last k-blocks down), head_first from its last "
                      "tile down (all CTAs start at k = 0 and walk k in step; the holder of "
                      "the last k-blocks finishes; peers add from k = 0 up)."),
        [](P& profile, const Value& value) {
          profile.stream_k_order =
              value.text == "head_first" ? StreamKOrder::head_first : StreamKOrder::tail_first;
        });
  s.add(Param::choice("stream_k_data_parallel_order", {"claimed", "static"})
            .default_to("claimed")
            .describe("How a Stream-K kernel's CTAs take the data-parallel tiles of the hybrid "
                      "modes after their Stream-K work: claimed, whichever CTA is free takes the "
                      "next tile in raster order (a counter; the simulator dispatches them as "
                      "CTAs to the first free SM); static, CTA b takes tiles b, b + grid, ... "
                      "whatever the other CTAs' progress."),
        [](P& profile, const Value& value) {
          profile.stream_k_data_parallel_order = value.text == "static"
                                                     ? StreamKDataParallelOrder::static_list
                                                     : StreamKDataParallelOrder::claimed;
        });
  s.add(Param::text("one_wave_kernel")
            .name_like()
            .optional()
            .describe("Stream-K's `tile_fit` mode: the kernel profile (one the hardware file "
                      "offers, with smaller tiles) that runs a shape whose tiles of it fit in "
                      "one wave of its persistent grid, whole and data-parallel; other shapes "
                      "run `wave_fit` on this profile. Unset: `tile_fit` is `wave_fit`."),
        into(&P::one_wave_kernel));
  s.add(Param::choice("output_store", {"registers", "overlapped"})
            .default_to("registers")
            .describe("How a finished tile reaches C: registers, the CTA's threads store it "
                      "before their next work unit (or exit); overlapped, they leave it in "
                      "shared memory and the copy engine stores it while the CTA's next work "
                      "unit runs (a TMA-store epilogue): its bytes flow with that unit's first "
                      "main-loop step, and only a CTA's last store ends it."),
        [](P& profile, const Value& value) {
          profile.output_store =
              value.text == "overlapped" ? OutputStore::overlapped : OutputStore::registers;
        });
  s.add(Param::number("cta_speed_spread")
            .range(0, 1)
            .default_to("0")
            .by_gpu()
            .describe("The kernel's CTAs run at unequal paces on a GPU (SM position against the "
                      "L2, memory stalls) and drift apart instead of walking k in step: each "
                      "CTA's tensor-core time is 1 + spread x (r - 1/2) of the launch's, r in "
                      "[0, 1) spread evenly over the launch's CTAs in an order unrelated to "
                      "their tiles. Fresh CTAs dispatched to the first free SM even it out; a "
                      "persistent CTA with a fixed list of work (a Stream-K range, a static "
                      "list of tiles) keeps its pace to the end, so such a launch ends with its "
                      "slowest CTA, and CTAs that would read a panel together meet less in L2. "
                      "0: all in step."),
        into(&P::cta_speed_spread));
  return s;
}

}  // namespace tilesim::hw
