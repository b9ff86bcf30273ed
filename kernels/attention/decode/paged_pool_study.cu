// tilesim-paged-pool-study: paged v2 on the same problem with the page pool laid
// out and allocated in different ways, beside contiguous split-KV on the same
// cut (issue 12, round 8: paged v2 on a few long sequences ran 1.5-3.4x its
// contiguous twin and 2x run to run; this separates the kernel from where its
// pages lie). Timing only: K and V are random values everywhere (no NaN pages),
// the kernels' results are checked by tilesim-attention-check.
//
// Pool layouts (which pool page holds the i-th page the batch uses, sequence
// by sequence):
//   shuffled    the measurement harness (attention_inputs.cpp): a random
//               permutation of a pool of used + max(2, used / 8) pages;
//   sequential  page i in pool page i: the contiguous cache, read through the
//               block table;
//   chunked     pages shuffled inside 2 MiB chunks, the chunks in random order:
//               as random as `shuffled` below 2 MiB, one translation page at a
//               time above it;
//   sparse      shuffled over a pool 8x the used pages;
//   vmm         shuffled, the pool mapped with cuMemCreate at the driver's
//               recommended granularity (2 MiB pages for certain).
// Each (row, layout) is allocated afresh `--allocations` times (new physical
// pages each time) and timed `--runs` launches after a warm-up, one event pair
// a launch. --ncu: two launches a configuration and no warm-up, for
// `ncu -k regex:decode_split`.
//
// Output: one CSV line a (row, layout, allocation): median, min, p90 us.

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/common/event_pair.hpp"

namespace {

using tilesim::kernels::AttentionProblem;
using tilesim::kernels::AttentionTensors;
using tilesim::kernels::AttentionVariant;
using tilesim::kernels::DeviceBuffer;

constexpr std::size_t kChunkBytes = std::size_t{2} << 20;

#define STUDY_CU_CHECK(call)                                                    \
  do {                                                                          \
    if (const CUresult status = (call); status != CUDA_SUCCESS) {               \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(status)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

struct StudyRow {
  const char* name;
  AttentionProblem problem;
};

AttentionProblem decode_problem(int heads, int kv_heads, std::vector<int> kv_lens, int head_dim,
                                int page_size) {
  AttentionProblem problem;
  problem.batch = static_cast<int>(kv_lens.size());
  problem.heads = heads;
  problem.kv_heads = kv_heads;
  problem.kv_lens = std::move(kv_lens);
  problem.head_dim = head_dim;
  problem.page_size = page_size;
  return problem;
}

std::vector<StudyRow> study_rows() {
  std::vector<int> skewed(16, 3100);
  skewed[0] = 90000;
  return {
      {"1x65536_h32kv4_d128_p16", decode_problem(32, 4, {65536}, 128, 16)},
      {"1x106496_h32kv4_d128_p32", decode_problem(32, 4, {106496}, 128, 32)},
      {"4x24576_h32kv4_d64_p16", decode_problem(32, 4, std::vector<int>(4, 24576), 64, 16)},
      {"90000+15x3100_h32kv8_d128_p32", decode_problem(32, 8, skewed, 128, 32)},
      {"2x29696_h32kv8_d128_p16", decode_problem(32, 8, std::vector<int>(2, 29696), 128, 16)},
  };
}

// Random bf16 values in [-1, 1) (finite, never denormal-heavy), from the index.
__global__ void fill_random_bf16(std::uint16_t* out, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x >> 12;
    // Sign, exponent 126 or 125 (0.25..1), 7 random mantissa bits.
    out[i] = static_cast<std::uint16_t>((x & 0x8000u) | ((125u + (x >> 20 & 1u)) << 7) |
                                        (x >> 8 & 0x7fu));
  }
}

void fill(void* pointer, std::size_t bytes, std::uint32_t seed) {
  fill_random_bf16<<<1056, 256>>>(static_cast<std::uint16_t*>(pointer), bytes / 2, seed);
  TILESIM_CUDA_CHECK(cudaGetLastError());
}

// One pool's memory: cudaMalloc, or cuMemCreate + map at the recommended granularity.
class PoolMemory {
 public:
  PoolMemory(std::size_t bytes, bool vmm) : vmm_(vmm) {
    if (!vmm) {
      plain_ = DeviceBuffer(bytes);
      return;
    }
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    std::size_t granularity = 0;
    STUDY_CU_CHECK(
        cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    granularity_bytes_ = granularity;
    bytes_ = (bytes + granularity - 1) / granularity * granularity;
    STUDY_CU_CHECK(cuMemAddressReserve(&address_, bytes_, kChunkBytes, 0, 0));
    STUDY_CU_CHECK(cuMemCreate(&handle_, bytes_, &prop, 0));
    STUDY_CU_CHECK(cuMemMap(address_, bytes_, 0, handle_, 0));
    CUmemAccessDesc access = {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    STUDY_CU_CHECK(cuMemSetAccess(address_, bytes_, &access, 1));
  }
  ~PoolMemory() {
    if (!vmm_) return;
    cuMemUnmap(address_, bytes_);
    cuMemRelease(handle_);
    cuMemAddressFree(address_, bytes_);
  }
  PoolMemory(const PoolMemory&) = delete;
  PoolMemory& operator=(const PoolMemory&) = delete;

  void* get() const {
    return vmm_ ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(address_)) : plain_.get();
  }
  std::size_t granularity_bytes() const { return granularity_bytes_; }

 private:
  bool vmm_;
  DeviceBuffer plain_;
  CUdeviceptr address_ = 0;
  CUmemGenericAllocationHandle handle_ = 0;
  std::size_t bytes_ = 0;
  std::size_t granularity_bytes_ = 0;
};

struct PoolLayout {
  int pool_pages = 0;
  std::vector<std::int32_t> slot;  // pool page of the i-th used page
};

PoolLayout pool_layout(const std::string& layout, int used, int pages_per_chunk,
                       std::mt19937_64& random) {
  PoolLayout result;
  result.pool_pages = layout == "sparse" ? 8 * used : used + std::max(2, used / 8);
  std::vector<std::int32_t> order(static_cast<std::size_t>(result.pool_pages));
  std::iota(order.begin(), order.end(), 0);
  if (layout == "chunked") {
    const int chunks = (result.pool_pages + pages_per_chunk - 1) / pages_per_chunk;
    result.pool_pages = chunks * pages_per_chunk;
    std::vector<std::int32_t> chunk_order(static_cast<std::size_t>(chunks));
    std::iota(chunk_order.begin(), chunk_order.end(), 0);
    std::shuffle(chunk_order.begin(), chunk_order.end(), random);
    order.clear();
    for (const std::int32_t chunk : chunk_order) {
      std::vector<std::int32_t> inside(static_cast<std::size_t>(pages_per_chunk));
      std::iota(inside.begin(), inside.end(), chunk * pages_per_chunk);
      std::shuffle(inside.begin(), inside.end(), random);
      order.insert(order.end(), inside.begin(), inside.end());
    }
  } else if (layout != "sequential") {
    std::shuffle(order.begin(), order.end(), random);
  }
  order.resize(static_cast<std::size_t>(used));
  result.slot = std::move(order);
  return result;
}

struct Timing {
  double median_us = 0, min_us = 0, p90_us = 0;
};

Timing time_launches(const std::function<void()>& launch, int warmup, int runs) {
  for (int i = 0; i < warmup; ++i) launch();
  std::vector<std::unique_ptr<tilesim::kernels::EventPair>> events;
  for (int i = 0; i < runs; ++i) events.push_back(std::make_unique<tilesim::kernels::EventPair>());
  for (const auto& pair : events) {
    TILESIM_CUDA_CHECK(cudaEventRecord(pair->start()));
    launch();
    TILESIM_CUDA_CHECK(cudaEventRecord(pair->stop()));
  }
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<double> times;
  for (const auto& pair : events) times.push_back(pair->elapsed_us());
  std::sort(times.begin(), times.end());
  const auto at = [&](double fraction) {
    return times[static_cast<std::size_t>(fraction * static_cast<double>(times.size() - 1))];
  };
  return {at(0.5), times.front(), at(0.9)};
}

struct StudyOptions {
  int allocations = 3;
  int warmup = 20;
  int runs = 200;
  std::vector<std::string> layouts = {"contiguous", "shuffled", "sequential",
                                      "chunked",    "sparse",   "vmm"};
};

// One (row, layout, allocation): fresh Q, K, V, block table and workspace.
void run_case(const StudyRow& row, const std::string& layout, int allocation,
              const StudyOptions& options) {
  AttentionProblem problem = row.problem;
  const bool paged = layout != "contiguous";
  const AttentionVariant variant =
      paged ? AttentionVariant::paged_v2 : AttentionVariant::flash_decoding;
  // The contiguous twin runs on paged v2's cut.
  problem.splits =
      tilesim::kernels::attention_workspace_size(AttentionVariant::paged_v2, row.problem).splits;
  const std::int64_t row_bytes = std::int64_t{problem.kv_heads} * problem.head_dim * 2;
  const std::int64_t page_bytes = row_bytes * problem.page_size;
  int used = 0;
  for (const int kv_len : problem.kv_lens)
    used += (kv_len + problem.page_size - 1) / problem.page_size;
  std::mt19937_64 random(1000 + allocation);
  const PoolLayout pool = pool_layout(paged ? layout : "sequential", used,
                                      static_cast<int>(kChunkBytes / page_bytes), random);
  const std::size_t pool_bytes = static_cast<std::size_t>(
      paged ? pool.pool_pages * page_bytes : problem.total_kv() * row_bytes + 4 * row_bytes);
  const PoolMemory k(pool_bytes, layout == "vmm");
  const PoolMemory v(pool_bytes, layout == "vmm");
  fill(k.get(), pool_bytes, 7u + allocation);
  fill(v.get(), pool_bytes, 11u + allocation);
  const std::size_t q_bytes =
      static_cast<std::size_t>(problem.batch) * problem.heads * problem.head_dim * 2;
  const DeviceBuffer q(q_bytes);
  const DeviceBuffer o(q_bytes);
  fill(q.get(), q_bytes, 3u);

  const int max_pages = problem.max_pages_per_sequence();
  std::vector<std::int32_t> table(static_cast<std::size_t>(problem.batch) * max_pages, 0);
  int next = 0;
  for (int b = 0; b < problem.batch; ++b) {
    for (int p = 0; p * problem.page_size < problem.kv_lens[static_cast<std::size_t>(b)]; ++p) {
      table[static_cast<std::size_t>(b) * max_pages + p] =
          pool.slot[static_cast<std::size_t>(next++)];
    }
  }
  const std::vector<std::int64_t> starts = problem.kv_starts();
  const std::vector<std::int32_t> lens(problem.kv_lens.begin(), problem.kv_lens.end());
  const DeviceBuffer table_device(table.size() * 4);
  const DeviceBuffer starts_device(starts.size() * 8);
  const DeviceBuffer lens_device(lens.size() * 4);
  TILESIM_CUDA_CHECK(
      cudaMemcpy(table_device.get(), table.data(), table.size() * 4, cudaMemcpyHostToDevice));
  TILESIM_CUDA_CHECK(
      cudaMemcpy(starts_device.get(), starts.data(), starts.size() * 8, cudaMemcpyHostToDevice));
  TILESIM_CUDA_CHECK(
      cudaMemcpy(lens_device.get(), lens.data(), lens.size() * 4, cudaMemcpyHostToDevice));

  const tilesim::kernels::AttentionWorkspaceSize size =
      tilesim::kernels::attention_workspace_size(variant, problem);
  const DeviceBuffer workspace(size.bytes);
  TILESIM_CUDA_CHECK(cudaMemset(workspace.get(), 0, size.zeroed_bytes));
  AttentionTensors tensors;
  tensors.q = q.get();
  tensors.k = k.get();
  tensors.v = v.get();
  tensors.o = o.get();
  tensors.kv_starts = starts_device.as<std::int64_t>();
  tensors.kv_lens = lens_device.as<std::int32_t>();
  tensors.block_table = table_device.as<std::int32_t>();
  const auto launch = [&] {
    tilesim::kernels::launch_attention(variant, problem, tensors, workspace.get(), nullptr);
  };
  const Timing timing = time_launches(launch, options.warmup, options.runs);
  std::printf("%s,%s,%d,%d,%d,%d,%zu,%.2f,%.2f,%.2f,%d\n", row.name, layout.c_str(), allocation,
              size.splits, used, paged ? pool.pool_pages : 0,
              layout == "vmm" ? k.granularity_bytes() : 0, timing.median_us, timing.min_us,
              timing.p90_us, options.runs);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  StudyOptions options;
  std::vector<StudyRow> rows = study_rows();
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--ncu") {
      // Two launches a configuration on the two named rows, no warm-up (ncu replays each).
      options = {2, 0, 2, {"contiguous", "shuffled", "sequential", "chunked"}};
      rows.resize(2);
    }
  }
  STUDY_CU_CHECK(cuInit(0));
  TILESIM_CUDA_CHECK(cudaFree(nullptr));
  std::printf(
      "row,layout,allocation,splits,used_pages,pool_pages,vmm_granularity_bytes,"
      "median_us,min_us,p90_us,runs\n");
  // Clocks up before the first timed row (the harness sustains 300-400 ms too).
  if (options.warmup > 0) {
    StudyOptions warm = options;
    warm.runs = 2000;
    run_case(rows[1], "shuffled", 99, warm);
  }
  for (int allocation = 0; allocation < options.allocations; ++allocation) {
    for (const StudyRow& row : rows) {
      for (const std::string& layout : options.layouts) run_case(row, layout, allocation, options);
    }
  }
  return 0;
}
