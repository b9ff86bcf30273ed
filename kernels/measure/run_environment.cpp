#include "kernels/measure/run_environment.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <sstream>
#include <vector>

#include "kernels/common/cuda_check.hpp"

#ifndef TILESIM_BUILD_GIT_REVISION
#define TILESIM_BUILD_GIT_REVISION "unknown"
#endif

namespace tilesim::measure {
namespace {

// stdout of `command`, or nothing when it fails.
std::optional<std::string> run_command(const char* command) {
  struct Close {
    void operator()(FILE* pipe) const noexcept { pclose(pipe); }
  };
  std::unique_ptr<FILE, Close> pipe(popen(command, "r"));
  if (!pipe) return std::nullopt;
  std::string output;
  std::array<char, 512> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe.get()) != nullptr) {
    output += buffer.data();
  }
  const int status = pclose(pipe.release());
  if (status != 0 || output.empty()) return std::nullopt;
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, ',')) {
    const auto first = field.find_first_not_of(' ');
    const auto last = field.find_last_not_of(' ');
    fields.push_back(first == std::string::npos ? "" : field.substr(first, last - first + 1));
  }
  return fields;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text.data();
}

}  // namespace

RunEnvironment read_run_environment() {
  int device = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  TILESIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  RunEnvironment environment;
  environment.gpu = properties.name;
  environment.compute_capability =
      std::to_string(properties.major) + "." + std::to_string(properties.minor);
  environment.sm_count = properties.multiProcessorCount;
  environment.l2_bytes = properties.l2CacheSize;
  environment.global_memory_bytes = static_cast<long long>(properties.totalGlobalMem);
  int khz = 0;
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  environment.sm_clock_max_mhz = khz / 1000;
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, device));
  environment.memory_clock_max_mhz = khz / 1000;
  TILESIM_CUDA_CHECK(cudaDriverGetVersion(&environment.cuda_driver));
  TILESIM_CUDA_CHECK(cudaRuntimeGetVersion(&environment.cuda_runtime));
  cublasGetProperty(MAJOR_VERSION, &khz);
  environment.cublas_version = khz * 10000;
  cublasGetProperty(MINOR_VERSION, &khz);
  environment.cublas_version += khz * 100;
  cublasGetProperty(PATCH_LEVEL, &khz);
  environment.cublas_version += khz;
  environment.driver_version =
      run_command("nvidia-smi --query-gpu=driver_version --format=csv,noheader -i 0 2>/dev/null")
          .value_or("");
  environment.date_utc = utc_now();
  const char* revision = std::getenv("TILESIM_GIT_REVISION");
  environment.git_revision =
      revision != nullptr && *revision != '\0' ? revision : TILESIM_BUILD_GIT_REVISION;
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) environment.hostname = host.data();
  return environment;
}

std::optional<nlohmann::json> sample_gpu_clocks() {
  const auto line = run_command(
      "nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,"
      "temperature.gpu,pstate,clocks_throttle_reasons.active --format=csv,noheader,nounits "
      "-i 0 2>/dev/null");
  if (!line) return std::nullopt;
  const std::vector<std::string> fields = split_csv_line(*line);
  const std::array<const char*, 8> names = {"sm_clock_mhz", "sm_clock_max_mhz", "memory_clock_mhz",
                                            "power_draw_w", "power_limit_w",    "temperature_c",
                                            "pstate",       "throttle_reasons"};
  nlohmann::json sample = nlohmann::json::object();
  for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i) sample[names[i]] = fields[i];
  return sample;
}

nlohmann::json to_json(const RunEnvironment& environment) {
  return {
      {"gpu", environment.gpu},
      {"compute_capability", environment.compute_capability},
      {"sm_count", environment.sm_count},
      {"l2_bytes", environment.l2_bytes},
      {"global_memory_bytes", environment.global_memory_bytes},
      {"sm_clock_max_mhz", environment.sm_clock_max_mhz},
      {"memory_clock_max_mhz", environment.memory_clock_max_mhz},
      {"driver_version", environment.driver_version},
      {"cuda_driver", environment.cuda_driver},
      {"cuda_runtime", environment.cuda_runtime},
      {"cublas_version", environment.cublas_version},
      {"date_utc", environment.date_utc},
      {"git_revision", environment.git_revision},
      {"hostname", environment.hostname},
  };
}

}  // namespace tilesim::measure
