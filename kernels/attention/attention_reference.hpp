#pragma once
// The reference every attention kernel is checked against: a plain float64
// GPU kernel (one CTA per query row and head, keys in chunks, exact softmax
// rescaled per chunk) over the packed contiguous copy of the inputs, so it
// shares no indexing with the layout under test; and the checked run:
// output poisoned, variant launched, relative Frobenius error against the
// reference, no unwritten (NaN) element, nothing written past the output.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/attention/attention_inputs.hpp"
#include "kernels/attention/attention_problem.hpp"

namespace tilesim::kernels {

// out[total_q, heads, head_dim] (fp32) = softmax(Q K^T / sqrt(d), masked) V, in
// float64, from `packed` (AttentionInputs::reference_tensors()).
void reference_attention(const AttentionProblem& problem, const AttentionTensors& packed,
                         float* out, cudaStream_t stream);

// The relative Frobenius error a correct kernel stays within: bf16 1e-2, fp16
// 2e-3 (expected ~2.5e-3 and ~3e-4: P and O are rounded to the input type);
// unfused 2e-2 and 4e-3, since it stores the scores S in the input type too,
// whose rounding error grows with |s| (expected ~8e-3 and ~9e-4 with the
// default q_scale; a float emulation of both paths is in NOTES.md).
double attention_error_bound(AttentionVariant variant, ElementType dtype);

struct AttentionCheck {
  double relative_error = 0;    // ||O - R|| / ||R|| over the finite elements
  std::int64_t non_finite = 0;  // NaN/Inf outputs: unwritten, or a leak of a NaN input
  bool guard_intact = true;     // nothing written past O's last row
  double bound = 0;
  int kernels = 0;  // launches of the variant
  bool passed() const { return non_finite == 0 && guard_intact && relative_error <= bound; }
};

// Poisons O, runs the variant once on `inputs` (built with reference_copy),
// computes the reference and compares. `workspace` holds at least
// attention_workspace_size(variant, problem).bytes, its zeroed part zero.
AttentionCheck check_attention(AttentionVariant variant, const AttentionInputs& inputs,
                               void* workspace, cudaStream_t stream);

}  // namespace tilesim::kernels
