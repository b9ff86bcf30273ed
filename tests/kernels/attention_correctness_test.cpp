// Checks the reference attention kernels (kernels/attention) against a float64
// reference on fresh random inputs: output poisoned (NaN) first; relative
// Frobenius error within the variant's bound (attention_error_bound); no
// unwritten or NaN-leaking element (paged K/V through a shuffled block table,
// NaN in unused slots and pages, NaN rows after contiguous K/V); nothing
// written past O; a second run bitwise identical; the workspace's zeroed part
// zero again after the runs. One line per case.
//
// Usage: tilesim-attention-check [--small] [--variant NAME]
//   --small          small cases only (for compute-sanitizer)
//   --variant NAME   only that variant's cases
// Exit status: 0 all passed, 1 a check failed, 2 usage, 77 no CUDA device (ctest: skipped).

#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "kernels/attention/attention_inputs.hpp"
#include "kernels/attention/attention_problem.hpp"
#include "kernels/attention/attention_reference.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "tests/kernels/attention_check_cases.hpp"

namespace tk = tilesim::kernels;
namespace check = tilesim::kernels::attention_check;

namespace {

constexpr int kExitNoDevice = 77;

std::vector<unsigned char> output_bytes(const tk::AttentionInputs& inputs) {
  std::vector<unsigned char> host(static_cast<std::size_t>(inputs.output_elements()) * 2);
  TILESIM_CUDA_CHECK(
      cudaMemcpy(host.data(), inputs.tensors().o, host.size(), cudaMemcpyDeviceToHost));
  return host;
}

// Runs one case; returns whether it passed and prints its line.
bool run_case(const check::CheckCase& item, std::uint64_t seed, cudaStream_t stream) {
  const std::string name(tk::to_string(item.variant));
  const std::string shape = tk::to_string(item.problem);
  if (const auto error = tk::attention_launch_error(item.variant, item.problem)) {
    std::printf("FAIL %-16s %-44s cannot run: %s\n", name.c_str(), shape.c_str(), error->c_str());
    return false;
  }
  tk::AttentionInputOptions options;
  options.paged = tk::attention_variant_is_paged(item.variant);
  options.reference_copy = true;
  options.seed = seed;
  const tk::AttentionInputs inputs(item.problem, options);
  const tk::AttentionWorkspaceSize size = tk::attention_workspace_size(item.variant, item.problem);
  tk::DeviceBuffer workspace(size.bytes);
  if (size.zeroed_bytes > 0) {
    TILESIM_CUDA_CHECK(cudaMemsetAsync(workspace.get(), 0, size.zeroed_bytes, stream));
  }
  const tk::AttentionCheck result =
      tk::check_attention(item.variant, inputs, workspace.get(), stream);
  bool passed = result.passed();
  std::string detail;
  if (passed) {  // the same inputs again: any difference is a race or a read of unwritten memory
    const std::vector<unsigned char> first = output_bytes(inputs);
    inputs.poison_output(stream);
    tk::launch_attention(item.variant, item.problem, inputs.tensors(), workspace.get(), stream);
    TILESIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (output_bytes(inputs) != first) {
      passed = false;
      detail = ", second run differs bitwise";
    }
  }
  if (size.zeroed_bytes > 0) {  // the workspace contract: every launch leaves its flags zero
    std::vector<unsigned char> flags(size.zeroed_bytes);
    TILESIM_CUDA_CHECK(
        cudaMemcpy(flags.data(), workspace.get(), flags.size(), cudaMemcpyDeviceToHost));
    for (const unsigned char byte : flags) {
      if (byte != 0) {
        passed = false;
        detail += ", workspace flags not left zero";
        break;
      }
    }
  }
  if (result.non_finite > 0) detail += ", " + std::to_string(result.non_finite) + " non-finite";
  if (!result.guard_intact) detail += ", wrote past the output";
  std::printf("%-4s %-16s %-44s rel_err %.2e (bound %.0e), %d kernel(s)%s  [%s]\n",
              passed ? "ok" : "FAIL", name.c_str(), shape.c_str(), result.relative_error,
              result.bound, result.kernels, detail.c_str(), item.why.c_str());
  return passed;
}

int run_checks(bool small, const std::string& only) {
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<check::CheckCase> cases = check::prefill_check_cases();
  for (check::CheckCase& item : check::decode_check_cases()) cases.push_back(std::move(item));
  int runs = 0;
  int failures = 0;
  std::uint64_t seed = 1;
  for (const check::CheckCase& item : cases) {
    ++seed;  // fresh inputs for every case, the same whichever cases are filtered out
    if (small && !item.small) continue;
    if (!only.empty() && tk::to_string(item.variant) != only) continue;
    ++runs;
    if (!run_case(item, seed, stream)) ++failures;
  }
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  std::printf("\n%d of %d checks passed\n", runs - failures, runs);
  if (runs == 0) std::printf("no case matched\n");
  return failures == 0 && runs > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows even when piped
  bool small = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--small") {
      small = true;
    } else if (argument == "--variant" && i + 1 < argc) {
      only = argv[++i];
      if (!tk::parse_attention_variant(only)) {
        std::fprintf(stderr,
                     "unknown variant %s (unfused, flash, flash_wgmma, flash_decoding, paged_v1, "
                     "paged_v2, stream_k_decode)\n",
                     only.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "usage: %s [--small] [--variant NAME]\n", argv[0]);
      return 2;
    }
  }
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("no CUDA device (%s): skipped\n",
                status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    return kExitNoDevice;
  }
  try {
    return run_checks(small, only);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
