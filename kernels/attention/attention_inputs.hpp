#pragma once
// Fresh random attention inputs on the device for one problem, in the layout a
// variant reads (attention_problem.hpp), built on the host so the layout is
// plain to see: contiguous K/V, packed, with NaN rows after the last sequence, or
// paged K/V through a shuffled block table (pages not in order; unused slots,
// pages and block-table entries lead to NaN). Leaks of anything a kernel must
// not read show as NaN in its output. Also owns the output and an optional
// packed contiguous copy of K/V for the reference, independent of the layout.

#include <cstddef>
#include <cstdint>

#include "kernels/attention/attention_problem.hpp"
#include "kernels/common/device_buffer.hpp"

namespace tilesim::kernels {

struct AttentionInputOptions {
  bool paged = false;           // K/V as pages (paged variants), else contiguous
  bool reference_copy = false;  // paged: keep K/V packed contiguously for the reference
  std::uint64_t seed = 1;
  // Q's magnitudes are in [1/16, 1] times this, K's and V's in [1/16, 1], random
  // signs (never zero): with 4 the scaled scores spread over several units, so
  // the running max moves and the softmax is far from uniform.
  float q_scale = 4.0f;
};

class AttentionInputs {
 public:
  AttentionInputs(const AttentionProblem& problem, const AttentionInputOptions& options);

  const AttentionProblem& problem() const { return problem_; }
  // What the kernel under test reads and writes.
  AttentionTensors tensors() const;
  // The same Q, K and V, packed contiguously (paged inputs need reference_copy);
  // o is null: the reference writes its own fp32 output.
  AttentionTensors reference_tensors() const;

  // O and the guard rows after it filled with NaN bytes.
  void poison_output(cudaStream_t stream) const;
  // False when something wrote past O's last row (call after a synchronize).
  bool output_guard_intact() const;
  std::int64_t output_elements() const;  // total_q * heads * head_dim
  std::size_t device_bytes() const;      // every buffer held (for rotation sizing)

 private:
  AttentionProblem problem_;
  DeviceBuffer q_;
  DeviceBuffer k_;
  DeviceBuffer v_;
  DeviceBuffer o_;  // output, then kOutputGuardRows poisoned rows
  DeviceBuffer kv_starts_;
  DeviceBuffer kv_lens_;
  DeviceBuffer block_table_;
  DeviceBuffer k_packed_;  // paged: the reference's contiguous copy
  DeviceBuffer v_packed_;
};

}  // namespace tilesim::kernels
