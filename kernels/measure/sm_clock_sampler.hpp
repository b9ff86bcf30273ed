#pragma once
// The SM clock and board power while a row's timed runs execute, read from
// NVML (libnvidia-ml.so.1, loaded at run time: the driver ships it, the CUDA
// toolkit here has no header for it) by a thread that samples every few
// milliseconds. Without NVML the means stay 0 and the columns are left empty.

#include <atomic>
#include <memory>
#include <thread>

namespace tilesim::measure {

struct ClockSample {
  double sm_clock_mhz = 0;  // mean over the samples; 0 when none
  double power_w = 0;       // mean board power (NVML's own averaging window)
  int samples = 0;
};

class NvmlDevice;  // the loaded library and the device's handle

// Samples the current CUDA device from construction until stop().
class SmClockSampler {
 public:
  explicit SmClockSampler(const NvmlDevice* device);
  ~SmClockSampler();
  SmClockSampler(const SmClockSampler&) = delete;
  SmClockSampler& operator=(const SmClockSampler&) = delete;
  ClockSample stop();

 private:
  const NvmlDevice* device_;
  std::atomic<bool> running_{true};
  ClockSample sum_;
  std::thread thread_;
};

// NVML for the current CUDA device, or nothing when the library or the device
// is not available. Kept for the whole run (loading it costs ~100 ms).
std::shared_ptr<const NvmlDevice> open_nvml_device();

}  // namespace tilesim::measure
