// Host-side generation of attention inputs (attention_inputs.hpp).

#include "kernels/attention/attention_inputs.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/common/cuda_check.hpp"

namespace tilesim::kernels {
namespace {

constexpr std::uint16_t kNanBits = 0xFFFF;  // NaN in bf16 and fp16
constexpr int kTailRows = 3;                // NaN K/V rows after the last sequence
constexpr int kOutputGuardRows = 2;         // poisoned rows after O, checked untouched

using Elements = std::vector<std::uint16_t>;

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer, as fill_random
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint16_t to_bits(float value, ElementType type) {
  std::uint16_t bits = 0;
  if (type == ElementType::bf16) {
    const __nv_bfloat16 converted = __float2bfloat16_rn(value);
    std::memcpy(&bits, &converted, sizeof(bits));
  } else {
    const __half converted = __float2half_rn(value);
    std::memcpy(&bits, &converted, sizeof(bits));
  }
  return bits;
}

// sign * scale * (1/16 + 15/16 u), u uniform in [0, 1), from (seed, index).
Elements random_elements(std::int64_t count, std::uint64_t seed, float scale, ElementType type) {
  Elements values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const std::uint64_t bits = mix(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i));
    const float unit = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
    const float magnitude = scale * (0.0625f + 0.9375f * unit);
    values[static_cast<std::size_t>(i)] = to_bits((bits & 1) ? -magnitude : magnitude, type);
  }
  return values;
}

template <typename T>
DeviceBuffer upload(const std::vector<T>& host) {
  DeviceBuffer buffer(host.size() * sizeof(T));
  if (!host.empty()) {
    TILESIM_CUDA_CHECK(
        cudaMemcpy(buffer.get(), host.data(), buffer.bytes(), cudaMemcpyHostToDevice));
  }
  return buffer;
}

// Rows of `row_elements` copied from `packed` (starts `from`) to `out` (starts `to`).
void copy_rows(const Elements& packed, std::int64_t from, Elements& out, std::int64_t to,
               std::int64_t rows, std::int64_t row_elements) {
  std::copy_n(packed.begin() + from * row_elements, rows * row_elements,
              out.begin() + to * row_elements);
}

}  // namespace

AttentionInputs::AttentionInputs(const AttentionProblem& problem,
                                 const AttentionInputOptions& options)
    : problem_(problem) {
  if (const auto error = attention_problem_error(problem)) {
    throw std::invalid_argument("attention inputs for " + to_string(problem) + ": " + *error);
  }
  const std::int64_t d = problem.head_dim;
  const std::int64_t kv_row = std::int64_t{problem.kv_heads} * d;  // elements per K/V row
  const std::int64_t q_elements = problem.total_q() * problem.heads * d;
  const std::int64_t kv_elements = problem.total_kv() * kv_row;
  const std::uint64_t seed = mix(options.seed);
  q_ = upload(random_elements(q_elements, seed + 1, options.q_scale, problem.dtype));
  const Elements k_packed = random_elements(kv_elements, seed + 2, 1.0f, problem.dtype);
  const Elements v_packed = random_elements(kv_elements, seed + 3, 1.0f, problem.dtype);
  const std::vector<std::int64_t> packed_starts = problem.kv_starts();
  std::vector<std::int32_t> lens(problem.kv_lens.begin(), problem.kv_lens.end());
  kv_lens_ = upload(lens);
  o_ = DeviceBuffer(
      static_cast<std::size_t>((q_elements + kOutputGuardRows * problem.heads * d) * 2));

  if (options.paged) {
    // Pages of every sequence, plus spares that stay NaN, in shuffled order.
    const int page_size = problem.page_size;
    const int max_pages = problem.max_pages_per_sequence();
    int used_pages = 0;
    for (const int kv_len : problem.kv_lens) used_pages += (kv_len + page_size - 1) / page_size;
    const int pages = used_pages + std::max(2, used_pages / 8);
    std::vector<std::int32_t> order(static_cast<std::size_t>(pages));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 shuffle(seed + 4);
    std::shuffle(order.begin(), order.end(), shuffle);
    const std::int32_t nan_page = order.back();  // never used: unused entries point here
    const std::int64_t page_elements = std::int64_t{page_size} * kv_row;
    Elements k_pages(static_cast<std::size_t>(pages * page_elements), kNanBits);
    Elements v_pages(k_pages.size(), kNanBits);
    std::vector<std::int32_t> table(static_cast<std::size_t>(problem.batch) * max_pages, nan_page);
    int next = 0;
    for (int b = 0; b < problem.batch; ++b) {
      const int kv_len = problem.kv_lens[static_cast<std::size_t>(b)];
      for (int p = 0; p * page_size < kv_len; ++p) {
        const std::int32_t page = order[static_cast<std::size_t>(next++)];
        table[static_cast<std::size_t>(b) * max_pages + p] = page;
        const std::int64_t rows = std::min(page_size, kv_len - p * page_size);
        const std::int64_t from = packed_starts[static_cast<std::size_t>(b)] + p * page_size;
        copy_rows(k_packed, from, k_pages, std::int64_t{page} * page_size, rows, kv_row);
        copy_rows(v_packed, from, v_pages, std::int64_t{page} * page_size, rows, kv_row);
      }
    }
    k_ = upload(k_pages);
    v_ = upload(v_pages);
    block_table_ = upload(table);
  } else {
    // Packed, then kTailRows NaN rows: a read past the last key shows.
    Elements k_rows = k_packed;
    Elements v_rows = v_packed;
    k_rows.resize(k_rows.size() + kTailRows * kv_row, kNanBits);
    v_rows.resize(v_rows.size() + kTailRows * kv_row, kNanBits);
    k_ = upload(k_rows);
    v_ = upload(v_rows);
  }
  kv_starts_ = upload(packed_starts);
  if (options.paged && options.reference_copy) {
    k_packed_ = upload(k_packed);
    v_packed_ = upload(v_packed);
  }
}

AttentionTensors AttentionInputs::tensors() const {
  AttentionTensors tensors;
  tensors.q = q_.get();
  tensors.k = k_.get();
  tensors.v = v_.get();
  tensors.o = o_.get();
  tensors.kv_starts = kv_starts_.as<std::int64_t>();
  tensors.kv_lens = kv_lens_.as<std::int32_t>();
  tensors.block_table = block_table_.as<std::int32_t>();
  return tensors;
}

AttentionTensors AttentionInputs::reference_tensors() const {
  if (block_table_.get() != nullptr && k_packed_.get() == nullptr) {
    throw std::logic_error("AttentionInputs: paged inputs built without reference_copy");
  }
  AttentionTensors tensors;
  tensors.q = q_.get();
  tensors.k = block_table_.get() != nullptr ? k_packed_.get() : k_.get();
  tensors.v = block_table_.get() != nullptr ? v_packed_.get() : v_.get();
  tensors.kv_starts = kv_starts_.as<std::int64_t>();
  tensors.kv_lens = kv_lens_.as<std::int32_t>();
  return tensors;
}

std::int64_t AttentionInputs::output_elements() const {
  return problem_.total_q() * problem_.heads * problem_.head_dim;
}

void AttentionInputs::poison_output(cudaStream_t stream) const {
  TILESIM_CUDA_CHECK(cudaMemsetAsync(o_.get(), 0xFF, o_.bytes(), stream));
}

bool AttentionInputs::output_guard_intact() const {
  const std::size_t output_bytes = static_cast<std::size_t>(output_elements()) * 2;
  std::vector<unsigned char> guard(o_.bytes() - output_bytes);
  TILESIM_CUDA_CHECK(cudaMemcpy(guard.data(), o_.as<unsigned char>() + output_bytes, guard.size(),
                                cudaMemcpyDeviceToHost));
  return std::all_of(guard.begin(), guard.end(), [](unsigned char byte) { return byte == 0xFF; });
}

std::size_t AttentionInputs::device_bytes() const {
  return q_.bytes() + k_.bytes() + v_.bytes() + o_.bytes() + kv_starts_.bytes() + kv_lens_.bytes() +
         block_table_.bytes() + k_packed_.bytes() + v_packed_.bytes();
}

}  // namespace tilesim::kernels
