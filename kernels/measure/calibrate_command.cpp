#include "kernels/measure/calibrate_command.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <memory>

#include "app/report/output_file.hpp"
#include "hwmodels/hardware_loader.hpp"
#include "kernels/common/cuda_check.hpp"
#include "kernels/measure/measurement_writer.hpp"
#include "kernels/measure/run_environment.hpp"
#include "kernels/microbench/calibrated_hardware_file.hpp"
#include "kernels/microbench/calibration_run.hpp"
#include "kernels/microbench/microbench_table.hpp"

namespace tilesim::measure {
namespace {

constexpr int kExitInvalidOutput = 1;
constexpr int kExitUsage = 2;
constexpr int kExitNoDevice = 3;
constexpr int kExitCudaError = 4;

struct CalibrateOptions {
  std::string out;
  std::string base;
  std::string csv;                   // raw results; the JSON sidecar goes beside it
  std::filesystem::path config_dir;  // kernel profiles for a file outside configs/hw
};

bool write_raw_results(const CalibrateOptions& options,
                       const std::vector<microbench::MicrobenchResult>& results,
                       const RunEnvironment& environment, const nlohmann::json& clocks_before,
                       const nlohmann::json& clocks_after) {
  if (options.csv.empty()) return true;
  const std::string json_path =
      std::filesystem::path(options.csv).replace_extension(".json").string();
  const nlohmann::json sidecar = {
      {"tool", "tilesim-measure calibrate"},
      {"csv", std::filesystem::path(options.csv).filename().string()},
      {"hardware_yaml", std::filesystem::path(options.out).filename().string()},
      {"environment", to_json(environment)},
      {"gpu_sample_before", clocks_before},
      {"gpu_sample_after", clocks_after},
      {"method",
       {{"timer",
         "CUDA events around each run after warm-up runs; host steady_clock for launch "
         "costs"},
        {"statistic", "median of the runs; lowest and highest beside it"},
        {"inputs", "buffers filled with non-zero bytes"}}},
      {"results", microbench::microbench_json(results)},
  };
  std::optional<std::string> problem =
      report::write_file_atomically(options.csv, microbench::microbench_csv(results));
  if (!problem) problem = report::write_file_atomically(json_path, sidecar.dump(2) + "\n");
  if (problem) {
    std::fprintf(stderr, "tilesim-measure calibrate: cannot write %s: %s\n", options.csv.c_str(),
                 problem->c_str());
    return false;
  }
  std::printf("wrote %s and %s\n", options.csv.c_str(), json_path.c_str());
  return true;
}

int calibrate(const CalibrateOptions& options) {
  const config::Loaded<hw::HardwareSpec> base =
      hw::load_hardware_spec(options.base, {}, options.config_dir);
  if (!base.ok()) {
    std::fprintf(stderr, "%s", base.diagnostics.format().c_str());
    return kExitUsage;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "tilesim-measure calibrate: no CUDA device; calibrating needs a GPU\n");
    return kExitNoDevice;
  }
  const RunEnvironment environment = read_run_environment();
  const auto clocks_before = sample_gpu_clocks();
  std::printf("%s, %d SMs, %lld MiB L2, driver %s, CUDA runtime %d, max SM clock %d MHz\n",
              environment.gpu.c_str(), environment.sm_count, environment.l2_bytes >> 20,
              environment.driver_version.c_str(), environment.cuda_runtime,
              environment.sm_clock_max_mhz);
  cudaStream_t stream = nullptr;
  TILESIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const microbench::MicrobenchDevice device{environment.sm_count,
                                            static_cast<std::size_t>(environment.l2_bytes), stream};
  const std::vector<microbench::MicrobenchResult> results =
      microbench::run_calibration_microbenchmarks(device);
  TILESIM_CUDA_CHECK(cudaStreamDestroy(stream));
  const auto clocks_after = sample_gpu_clocks();
  if (!write_raw_results(options, results, environment, clocks_before.value_or(nlohmann::json()),
                         clocks_after.value_or(nlohmann::json()))) {
    return kExitUsage;
  }

  const microbench::CalibratedFileSources sources{
      options.base,
      options.csv.empty() ? "" : std::filesystem::path(options.csv).filename().string(),
      std::filesystem::path(options.out).stem().string()};
  const microbench::CalibrationProvenance provenance{
      environment.gpu, environment.sm_count, environment.driver_version, environment.cuda_runtime,
      environment.date_utc};
  const config::Loaded<std::string> text =
      microbench::calibrated_hardware_yaml(sources, options.config_dir, results, provenance);
  if (!text.ok()) {
    std::fprintf(stderr, "%s", text.diagnostics.format().c_str());
    return kExitUsage;
  }
  if (const std::optional<std::string> problem =
          report::write_file_atomically(options.out, *text.value)) {
    std::fprintf(stderr, "tilesim-measure calibrate: cannot write %s: %s\n", options.out.c_str(),
                 problem->c_str());
    return kExitUsage;
  }
  // The file must pass `tilesim validate`: the same loader checks it here.
  const config::Loaded<hw::HardwareSpec> written =
      hw::load_hardware_spec(options.out, {}, options.config_dir);
  if (!written.ok()) {
    std::fprintf(stderr, "%s", written.diagnostics.format().c_str());
    return kExitInvalidOutput;
  }
  std::printf("wrote %s (measured values commented `measured:`; the rest from %s)\n",
              options.out.c_str(), options.base.c_str());
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, const std::filesystem::path& config_dir, int& exit_code) {
  auto options = std::make_shared<CalibrateOptions>();
  options->base = (config_dir / "hw" / "h100_sxm.yaml").string();
  options->config_dir = config_dir;
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Run the calibration microbenchmarks and write a hardware YAML with the measured values");
  command->add_option("--out", options->out, "Hardware YAML to write")->required();
  command->add_option("--base", options->base, "Hardware YAML whose unmeasured values are kept")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  command->add_option("--csv", options->csv,
                      "Also write the raw results as CSV (and a JSON sidecar beside it)");
  command->callback([options, &exit_code] {
    try {
      exit_code = calibrate(*options);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "tilesim-measure calibrate: %s\n", error.what());
      exit_code = kExitCudaError;
    }
  });
}

}  // namespace tilesim::measure
