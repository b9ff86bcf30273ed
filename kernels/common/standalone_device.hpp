#pragma once
// For the standalone GPU programs (tilesim-mma-peak, tilesim-clock-under-load,
// tilesim-l2-fill-hit): device 0's SM count, or none after printing that there
// is no device; the program then exits with kExitNoDevice, which ctest reads
// as a skip.

#include <cuda_runtime_api.h>

#include <cstdio>
#include <optional>

namespace tilesim::kernels {

inline constexpr int kExitNoDevice = 77;

inline std::optional<int> device_sm_count_or_skip() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device: skipped\n");
    return std::nullopt;
  }
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  return sms;
}

}  // namespace tilesim::kernels
