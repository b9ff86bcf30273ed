#include "kernels/measure/attention_measurement.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/attention/attention_inputs.hpp"
#include "kernels/attention/attention_reference.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/common/device_buffer.hpp"
#include "kernels/measure/host_enqueue.hpp"

namespace tilesim::measure {

AttentionMeasurement measure_attention(const AttentionCase& item, const TimingOptions& options,
                                       cudaStream_t stream) {
  const kernels::AttentionProblem& problem = item.problem;
  AttentionMeasurement result;
  result.input_sets = input_sets_for(static_cast<std::size_t>(problem.min_bytes()), options);
  const kernels::AttentionWorkspaceSize size =
      kernels::attention_workspace_size(item.variant, problem);
  result.workspace_bytes = size.bytes;
  result.splits = size.splits;
  kernels::DeviceBuffer workspace(size.bytes);
  if (size.zeroed_bytes > 0) {
    TILESIM_CUDA_CHECK(cudaMemsetAsync(workspace.get(), 0, size.zeroed_bytes, stream));
  }

  std::vector<std::unique_ptr<kernels::AttentionInputs>> sets;
  const std::uint64_t seed = std::hash<std::string>{}(item.name) | 1u;
  for (int s = 0; s < result.input_sets; ++s) {
    kernels::AttentionInputOptions input_options;
    input_options.paged = kernels::attention_variant_is_paged(item.variant);
    input_options.reference_copy = s == 0;  // the checked run uses set 0
    input_options.seed = seed + static_cast<std::uint64_t>(s);
    sets.push_back(std::make_unique<kernels::AttentionInputs>(problem, input_options));
  }

  const kernels::AttentionCheck check =
      kernels::check_attention(item.variant, *sets[0], workspace.get(), stream);
  result.relative_error = check.relative_error;
  result.error_bound = check.bound;
  result.non_finite = check.non_finite;
  result.guard_intact = check.guard_intact;
  result.check_passed = check.passed();
  result.kernels = check.kernels;
  // A wrong result has no timing worth writing (measurement_writer.hpp, check_failure).
  if (!result.check_passed) return result;

  const std::function<void(int)> launch = [&](int set) {
    kernels::launch_attention(item.variant, problem, sets[static_cast<std::size_t>(set)]->tensors(),
                              workspace.get(), stream);
  };
  result.timed = time_launches(launch, result.input_sets, options, stream);
  // Host-bound unfused rows run at this host's speed, which moves within seconds.
  if (item.variant == kernels::AttentionVariant::unfused) {
    result.host_enqueue =
        time_host_enqueue(launch, result.input_sets, result.timed.time_us, stream);
  }
  result.tflops = problem.useful_flops() / (result.timed.time_us * 1e-6) / 1e12;
  result.gbps = problem.min_bytes() / (result.timed.time_us * 1e-6) / 1e9;
  return result;
}

}  // namespace tilesim::measure
