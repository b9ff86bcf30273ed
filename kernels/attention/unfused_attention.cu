// The unfused attention variant, as a framework's math path runs it: per
// sequence, S = scale * Q K^T (cuBLAS strided-batched GEMM on tensor cores,
// fp32 accumulate, S stored in the input type), P = softmax(S) with the causal
// mask (masked_softmax.cu, P stored in the input type), O = P V (cuBLAS).
// HBM traffic beyond flash's: S written once and read twice (the softmax's
// second pass mostly from L2), P written once and read by the second GEMM,
// each heads * q_len * kv_len elements per sequence. GQA: one GEMM per query
// head of a group, batched over the KV heads (cuBLAS strides cannot express
// head / group); the causal mask costs no FLOPs saved, as in a math path.

#include <cublas_v2.h>

#include <stdexcept>

#include "kernels/attention/attention_variants.hpp"
#include "kernels/attention/masked_softmax.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/gemm/reference_check.hpp"  // CublasHandle

namespace tilesim::kernels {
namespace {

constexpr std::int64_t kAlignElements = 8;  // each sequence's S starts 16-byte aligned

std::int64_t align_up(std::int64_t value) {
  return (value + kAlignElements - 1) / kAlignElements * kAlignElements;
}

// S (then P) offsets per sequence, in elements, and their total.
struct ScoreLayout {
  std::vector<std::int64_t> offsets;
  std::int64_t elements = 0;
};

ScoreLayout score_layout(const AttentionProblem& problem) {
  ScoreLayout layout;
  for (const int kv_len : problem.kv_lens) {
    layout.offsets.push_back(layout.elements);
    layout.elements += align_up(std::int64_t{problem.heads} * problem.q_len * kv_len);
  }
  return layout;
}

// The calling thread's cuBLAS handle, created on first use: the launcher API
// takes only a stream, and cublasCreate (milliseconds, allocations) must stay
// out of timed runs. One per thread, as PyTorch keeps them.
cublasHandle_t thread_cublas_handle() {
  thread_local const CublasHandle handle(nullptr);
  return handle.get();
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaError(std::string("unfused attention: ") + what + ": cuBLAS status " +
                    std::to_string(static_cast<int>(status)));
  }
}

}  // namespace

std::optional<std::string> unfused_problem_error(const AttentionProblem& problem) {
  (void)problem;
  return std::nullopt;
}

AttentionWorkspaceSize unfused_workspace_size(const AttentionProblem& problem) {
  return {static_cast<std::size_t>(2 * score_layout(problem).elements * 2), 0};
}

int launch_unfused(const AttentionProblem& problem, const AttentionTensors& tensors,
                   void* workspace, cudaStream_t stream) {
  if (const auto error = unfused_problem_error(problem)) throw std::invalid_argument(*error);
  const cublasHandle_t cublas = thread_cublas_handle();
  check_cublas(cublasSetStream(cublas, stream), "cublasSetStream");
  const cudaDataType_t type = problem.dtype == ElementType::bf16 ? CUDA_R_16BF : CUDA_R_16F;
  const ScoreLayout layout = score_layout(problem);
  auto* scores = static_cast<unsigned char*>(workspace);
  unsigned char* probabilities = scores + layout.elements * 2;
  const std::vector<std::int64_t> kv_starts = problem.kv_starts();
  const std::int64_t d = problem.head_dim;
  const int group = problem.group_size();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const float one = 1.0f;
  const float zero = 0.0f;
  int kernels = 0;
  for (int b = 0; b < problem.batch; ++b) {
    const std::int64_t q_len = problem.q_len;
    const std::int64_t kv_len = problem.kv_lens[static_cast<std::size_t>(b)];
    const std::int64_t score_block = q_len * kv_len;  // one head's S
    const auto* q =
        static_cast<const unsigned char*>(tensors.q) + b * q_len * problem.heads * d * 2;
    const auto* k = static_cast<const unsigned char*>(tensors.k) +
                    kv_starts[static_cast<std::size_t>(b)] * problem.kv_heads * d * 2;
    const auto* v = static_cast<const unsigned char*>(tensors.v) +
                    kv_starts[static_cast<std::size_t>(b)] * problem.kv_heads * d * 2;
    auto* o = static_cast<unsigned char*>(tensors.o) + b * q_len * problem.heads * d * 2;
    unsigned char* s = scores + layout.offsets[static_cast<std::size_t>(b)] * 2;
    unsigned char* p = probabilities + layout.offsets[static_cast<std::size_t>(b)] * 2;
    // Row-major X[r x c] is column-major X^T, so S^T (kv x q) = K (kv x d) Q^T.
    // Query head h = kv_head * group + j; batch index = kv_head.
    for (int j = 0; j < group; ++j) {
      check_cublas(
          cublasGemmStridedBatchedEx(
              cublas, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(kv_len), static_cast<int>(q_len),
              static_cast<int>(d), &scale, k, type, static_cast<int>(problem.kv_heads * d), d,
              q + j * d * 2, type, static_cast<int>(problem.heads * d), group * d, &zero,
              s + j * score_block * 2, type, static_cast<int>(kv_len), group * score_block,
              problem.kv_heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "S = Q K^T");
      ++kernels;
    }
    launch_masked_softmax({s, p, problem.heads * q_len, problem.q_len, problem.kv_lens[b],
                           problem.causal, problem.dtype},
                          stream);
    ++kernels;
    // O^T (d x q) = V^T (d x kv) P^T (kv x q), written into O's [q, heads, d] rows.
    for (int j = 0; j < group; ++j) {
      check_cublas(
          cublasGemmStridedBatchedEx(
              cublas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(d), static_cast<int>(q_len),
              static_cast<int>(kv_len), &one, v, type, static_cast<int>(problem.kv_heads * d), d,
              p + j * score_block * 2, type, static_cast<int>(kv_len), group * score_block, &zero,
              o + j * d * 2, type, static_cast<int>(problem.heads * d), group * d, problem.kv_heads,
              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "O = P V");
      ++kernels;
    }
  }
  return kernels;
}

}  // namespace tilesim::kernels
