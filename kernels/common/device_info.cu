// tilesim-device-info: prints the GPU, its clocks and the driver/runtime
// versions as one JSON object; every measurement file records this beside its
// numbers. Host-only code (no kernels of its own).
// Exit status: 0 with a device, 77 (ctest's "skipped") without one.

#include <cuda_runtime.h>

#include <cstdio>

namespace {

constexpr int kExitNoDevice = 77;

int print_device(int device) {
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, device) != cudaSuccess) return 1;
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, device);
  int driver_version = 0;
  int runtime_version = 0;
  cudaDriverGetVersion(&driver_version);
  cudaRuntimeGetVersion(&runtime_version);
  std::printf(
      "{\"gpu\": \"%s\", \"compute_capability\": \"%d.%d\", \"sm_count\": %d, "
      "\"sm_clock_max_mhz\": %d, \"memory_clock_max_mhz\": %d, \"memory_bus_bits\": %d, "
      "\"global_memory_bytes\": %zu, \"l2_bytes\": %d, \"cuda_driver\": %d, \"cuda_runtime\": "
      "%d}\n",
      properties.name, properties.major, properties.minor, properties.multiProcessorCount,
      sm_clock_khz / 1000, memory_clock_khz / 1000, properties.memoryBusWidth,
      properties.totalGlobalMem, properties.l2CacheSize, driver_version, runtime_version);
  return 0;
}

}  // namespace

int main() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    std::fprintf(stderr, "tilesim-device-info: no CUDA device (%s)\n",
                 status == cudaSuccess ? "none found" : cudaGetErrorString(status));
    return kExitNoDevice;
  }
  return print_device(0);
}
