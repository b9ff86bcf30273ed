#pragma once
// The typed, validated, immutable description of one GPU. Built only by
// load_hardware_spec() (hardware_loader.hpp) from a YAML file; every field is in
// SI units (seconds, bytes, bytes/s, flop/s, Hz) so that the simulator never
// sees a unit string. Per-clock figures in the YAML ("4096 flop/clk") are
// converted with sm.clock_hz at load time.

#include <map>
#include <string>
#include <vector>

#include "hwmodels/attention_profile.hpp"
#include "hwmodels/data_type.hpp"
#include "hwmodels/framework_profile.hpp"
#include "hwmodels/mma_instruction.hpp"

namespace tilesim::hw {

// Dense tensor-core throughput of one SM, per input data type, in flop/s.
struct TensorCoreRates {
  double fp16_flops_per_s = 0;
  double bf16_flops_per_s = 0;
  double tf32_flops_per_s = 0;
  double fp8_flops_per_s = 0;
};

struct SharedMemorySpec {
  double capacity_bytes = 0;          // per SM, usable for CTAs
  double per_cta_max_bytes = 0;       // largest dynamic allocation one CTA may request
  double reserved_per_cta_bytes = 0;  // system reservation the hardware adds to every CTA
  double bandwidth_bytes_per_s = 0;   // per SM
};

struct SmSpec {
  int count = 0;
  double clock_hz = 0;  // maximum (boost) clock; per-clock rates are at it
  // Clock with every SM running tensor-core work at the board's power limit;
  // equal to clock_hz where power does not limit it. Used only by files
  // without a power law (HardwareSpec::power).
  double power_limited_clock_hz = 0;
  TensorCoreRates tensor;
  double fp32_flops_per_s = 0;  // per SM, CUDA cores (FMA counted as 2 flops)
  double sfu_ops_per_s = 0;     // per SM, special-function unit (exp2) results
  SharedMemorySpec shared_memory;
  int registers = 0;                 // 32-bit registers per SM
  int register_allocation_unit = 0;  // registers are granted per warp in multiples of this
  int max_registers_per_thread = 0;
  int max_threads = 0;  // resident threads per SM
  int max_ctas = 0;     // resident CTAs per SM
  int max_threads_per_cta = 0;
  double l2_port_bytes_per_s = 0;  // most one SM can pull from L2
};

struct L2Spec {
  double capacity_bytes = 0;
  double bandwidth_bytes_per_s = 0;  // aggregate, all SMs together
  double latency_s = 0;              // load-to-use latency of a hit
  // What the slices' data arrays move, hits and fills together (a miss is
  // written into its slice before it is read); 0: no limit beyond bandwidth.
  double slice_bandwidth_bytes_per_s = 0;
  // How far apart two CTAs that do the same work drift, one standard
  // deviation, as a share of their age: a CTA that reads what another read
  // hits only while their offset stays inside the L2's residency window
  // (l2_reuse_model.hpp). 0: CTAs stay in step.
  double reader_drift = 0;
  // Partitions that each cache what the SMs attached to them read, the other
  // partition's lines included: data the whole chip reuses is held once per
  // partition, so it fits in capacity / partitions.
  int partitions = 1;
  double reuse_capacity_bytes() const { return capacity_bytes / partitions; }
};

// The board's power law (power_law.hpp); none when limit_w is 0.
struct PowerSpec {
  double limit_w = 0;             // the board's power cap
  double static_w = 0;            // clocks up, no kernel running
  double sm_active_w = 0;         // per SM with resident CTAs, at sm.clock
  double tensor_pj_per_flop = 0;  // tensor-core work, at sm.clock
  double hbm_pj_per_byte = 0;     // DRAM reads and writes
  double voltage_exponent = 0;    // V^2 ~ (f / sm.clock)^voltage_exponent
};

struct HbmSpec {
  double capacity_bytes = 0;
  double bandwidth_bytes_per_s = 0;  // peak (datasheet)
  double efficiency = 0;             // sustained / peak, in (0, 1]
  double latency_s = 0;              // load-to-use latency of an L2 miss
  double sustained_bytes_per_s() const { return bandwidth_bytes_per_s * efficiency; }
};

struct LaunchSpec {
  double host_issue_s = 0;    // host time to issue one eager kernel launch
  double latency_s = 0;       // launch call to first CTA running
  double graph_node_s = 0;    // per-node cost of a CUDA graph launch
  double cta_dispatch_s = 0;  // block scheduler: CTA assigned to its first instruction
  // Host time a framework (PyTorch eager) spends on one op before its launch
  // call: Python, the dispatcher, allocation. Eager launches of framework ops only.
  double framework_dispatch_s = 0;
};

// In which order a Stream-K CTA works through its range of MAC iterations:
// tail_first from its first tile up (it meets that tile's tail first),
// head_first from its last tile down (every CTA starts at k = 0, so all walk
// k in step and share A and B in L2 like a data-parallel wave).
enum class StreamKOrder { tail_first, head_first };
// How a Stream-K kernel's CTAs take the data-parallel tiles after their
// Stream-K work: whichever CTA is free claims the next (a counter), or CTA b
// takes tiles b, b + grid, ... (a fixed list).
enum class StreamKDataParallelOrder { claimed, static_list };

// Who writes a finished tile to C: the CTA's threads from registers before
// they go on (registers), or the copy engine from shared memory while the
// CTA's next work unit runs (overlapped: a TMA-store epilogue).
enum class OutputStore { registers, overlapped };

struct ClusterShape {
  int m = 1;  // CTAs along M that share (multicast) the B tile
  int n = 1;  // CTAs along N that share (multicast) the A tile
  int size() const { return m * n; }
};

// A GEMM kernel implementation as it runs on this GPU: the tile it uses and how
// close its main loop gets to the tensor-core peak. Defined once per
// implementation in configs/kernels/<file>.yaml (kernel_profile_loader.hpp);
// a hardware file offers profiles under the names studies use (`library`, a
// vendor-class kernel; `tilesim_ref` and `tilesim_ref_wgmma`, the reference
// kernels in kernels/).
struct KernelProfile {
  std::string name;         // as studies name it (`kernel: library`)
  std::string source_path;  // the profile file it came from
  std::string description;
  std::vector<std::string> architectures;  // what it runs on, e.g. {"sm90"}
  MmaInstruction instruction = MmaInstruction::mma_sync;
  int tile_m = 0;
  int tile_n = 0;
  int tile_k = 0;
  int stages = 0;  // k-blocks in flight in the shared-memory pipeline
  int warps = 0;   // per CTA
  int registers_per_thread = 0;
  int swizzle = 1;  // tile-rows per rasterization band (1 = row-major)
  ClusterShape cluster;
  double tensor_efficiency = 0;   // main-loop fraction of tensor-core peak, in (0, 1]
  int fixup_loads_in_flight = 4;  // per thread, 16-byte loads of a workspace partial
  // The finisher's read of the partials (load and add into registers, no
  // stores between, so the compiler may keep more in flight than a peer's
  // load-add-store); 0 = fixup_loads_in_flight.
  double collect_loads_in_flight = 0;
  // Fixed time of each work unit (a tile's k-range) beyond its k-blocks' reads
  // and MMAs: main-loop prologue and epilogue; 0 = none.
  double work_unit_overhead_s = 0;
  // Fixed time a timed run pays once, however many units and kernels it runs:
  // what CUDA events around it see beyond its kernels (a workload of several
  // kernels pays the largest once); 0 = none.
  double kernel_overhead_s = 0;
  // Fixed time every launch of the kernel pays after its last CTA, back to
  // back in a stream or a CUDA graph too: the first wave's ramp and the last
  // wave's drain that the CTAs' own steps leave out; 0 = none.
  double ramp_and_drain_s = 0;
  // Latency of a load of a workspace partial another SM wrote (fixup and
  // split-K reduction); 0 = the L2 hit latency.
  double fixup_load_latency_s = 0;
  // What a fixup step that waits on a flag pays between the flag's raise and
  // its own loads (fence, release store, poll, barrier); a serial turnstile
  // pays it once per step; 0 = none.
  double fixup_handoff_latency_s = 0;
  StreamKOrder stream_k_order = StreamKOrder::tail_first;
  StreamKDataParallelOrder stream_k_data_parallel_order = StreamKDataParallelOrder::claimed;
  // The kernel's CTAs run at unequal paces on a GPU (SM position, memory
  // stalls) and drift apart: their tensor-core time spreads evenly over
  // (1 +- spread / 2) of the launch's. Fresh CTAs dispatched to the first free
  // SM even it out; a persistent CTA with a fixed list of work (a Stream-K
  // range, a static list of tiles) ends with its own pace. 0 = all in step.
  double cta_speed_spread = 0;
  // Operands whose rows are not 16-byte aligned (k or n not a multiple of 16 B
  // of elements): bytes each thread has in flight in the main loop that loads
  // them through registers, not overlapped with the MMAs (no cp.async or TMA
  // pipeline); 0 = the kernel's aligned main loop is used for them. This is
  // the data-parallel build's figure (one work unit per CTA).
  double unaligned_bytes_in_flight_per_thread = 0;
  // The widest load the unaligned main loop uses where the rows allow it
  // (rows 4- or 8-byte aligned): bytes in flight grow with the load, the
  // number of loads in flight staying; 0 = one element a load, always.
  double unaligned_widest_load_bytes = 0;
  // The same for the kernel's split-K build and its persistent build (the
  // Stream-K schedules and persistent data-parallel, whose CTAs loop over work
  // units): each is compiled apart, so its gather keeps its own number of
  // loads in flight; 0 = unaligned_bytes_in_flight_per_thread.
  double split_k_unaligned_bytes_in_flight_per_thread = 0;
  double persistent_unaligned_bytes_in_flight_per_thread = 0;
  // What each round of that gather's loads waits, L2 hit or not; 0 = the
  // memory latency of its reads (L2 hit or HBM miss).
  double unaligned_load_latency_s = 0;
  // The SM's rate for that gather at one element a load, bytes a clock shared
  // by the SM's CTAs (a load twice as wide moves twice the bytes): narrow
  // loads use a few bytes of each L1 sector they move, so the SM's load path,
  // not the memory, holds them. 0 = the L2 port's rate.
  double unaligned_gather_bytes_per_clock_per_sm = 0;
  // Whether the kernel that runs rows not 16-byte aligned has Stream-K
  // schedules (`auto` tries them): cuBLAS runs a CUTLASS 2.x class there, one
  // tile per CTA with split-K over the grid's z, and no Stream-K.
  bool unaligned_stream_k = true;
  // Operands whose rows are 16-byte but not 128-byte aligned: their 128-byte
  // row segments straddle two L2 lines; reads cost this multiple of their
  // bytes (1 = none).
  double misaligned_row_read_factor = 1;
  OutputStore output_store = OutputStore::registers;
  // Stream-K's tile_fit: the profile (of the same hardware) whose tiles run
  // the shapes they fit in one wave of its persistent grid; "" = none.
  std::string one_wave_kernel;
};

struct HardwareSpec {
  std::string name;
  std::string description;
  std::string architecture;  // e.g. "sm90": picks per-architecture profile values
  std::string source_path;   // the YAML file it came from
  SmSpec sm;
  L2Spec l2;
  HbmSpec hbm;
  LaunchSpec launch;
  PowerSpec power;
  std::map<std::string, KernelProfile> kernel_profiles;  // by name
  // Every attention profile in configs/attention that runs on this GPU, by
  // name; implementations pick theirs (workloads/attention).
  std::map<std::string, AttentionProfile> attention_profiles;
  // Every framework profile in configs/frameworks that runs on this GPU, by
  // name; a framework-granularity layer's kernels pay its families' costs.
  std::map<std::string, FrameworkProfile> framework_profiles;

  // Tensor-core rate of one SM for `type`; fp32 inputs run on CUDA cores.
  double sm_mma_flops_per_s(DataType type) const;
  // Without a power law (power.limit_w 0): the fraction of clock_hz the SMs
  // run tensor-core work at when `busy_sms` of them do: dynamic power grows as
  // f^3 (voltage follows frequency), so a power cap reached with every SM busy
  // at power_limited_clock_hz allows (count / busy_sms)^(1/3) times that clock
  // with fewer, up to clock_hz. With one, sim/gpu solves power_law.hpp per kernel.
  double tensor_clock_fraction(int busy_sms) const;
};

}  // namespace tilesim::hw
