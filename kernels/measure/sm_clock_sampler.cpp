#include "kernels/measure/sm_clock_sampler.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <array>
#include <chrono>

namespace tilesim::measure {
namespace {

// The few NVML entry points used, declared as nvml.h declares them (stable C ABI).
using NvmlReturn = int;  // NVML_SUCCESS = 0
using NvmlHandle = void*;
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM
constexpr auto kSamplePeriod = std::chrono::milliseconds(5);

}  // namespace

class NvmlDevice {
 public:
  using GetClock = NvmlReturn (*)(NvmlHandle, int, unsigned*);
  using GetPower = NvmlReturn (*)(NvmlHandle, unsigned*);
  NvmlDevice(void* library, NvmlHandle handle, GetClock clock, GetPower power)
      : library_(library), handle_(handle), clock_(clock), power_(power) {}
  ~NvmlDevice() { dlclose(library_); }
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  // One sample; false when NVML refuses.
  bool read(double& sm_clock_mhz, double& power_w) const {
    unsigned mhz = 0;
    unsigned milliwatts = 0;
    if (clock_(handle_, kNvmlClockSm, &mhz) != 0 || power_(handle_, &milliwatts) != 0) {
      return false;
    }
    sm_clock_mhz = mhz;
    power_w = milliwatts / 1000.0;
    return true;
  }

 private:
  void* library_;
  NvmlHandle handle_;
  GetClock clock_;
  GetPower power_;
};

std::shared_ptr<const NvmlDevice> open_nvml_device() {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return nullptr;
  const auto symbol = [&](const char* name) { return dlsym(library, name); };
  using Init = NvmlReturn (*)();
  using ByBusId = NvmlReturn (*)(const char*, NvmlHandle*);
  const auto init = reinterpret_cast<Init>(symbol("nvmlInit_v2"));
  const auto by_bus_id = reinterpret_cast<ByBusId>(symbol("nvmlDeviceGetHandleByPciBusId_v2"));
  const auto clock = reinterpret_cast<NvmlDevice::GetClock>(symbol("nvmlDeviceGetClockInfo"));
  const auto power = reinterpret_cast<NvmlDevice::GetPower>(symbol("nvmlDeviceGetPowerUsage"));
  int device = 0;
  std::array<char, 32> bus_id{};
  NvmlHandle handle = nullptr;
  const bool ok = init != nullptr && by_bus_id != nullptr && clock != nullptr && power != nullptr &&
                  init() == 0 && cudaGetDevice(&device) == cudaSuccess &&
                  cudaDeviceGetPCIBusId(bus_id.data(), bus_id.size(), device) == cudaSuccess &&
                  by_bus_id(bus_id.data(), &handle) == 0;
  if (!ok) {
    dlclose(library);
    return nullptr;
  }
  return std::make_shared<const NvmlDevice>(library, handle, clock, power);
}

SmClockSampler::SmClockSampler(const NvmlDevice* device) : device_(device) {
  if (device_ == nullptr) return;
  thread_ = std::thread([this] {
    while (running_.load()) {
      double mhz = 0;
      double watts = 0;
      if (device_->read(mhz, watts)) {
        sum_.sm_clock_mhz += mhz;
        sum_.power_w += watts;
        ++sum_.samples;
      }
      std::this_thread::sleep_for(kSamplePeriod);
    }
  });
}

SmClockSampler::~SmClockSampler() {
  stop();
}

ClockSample SmClockSampler::stop() {
  running_.store(false);
  if (thread_.joinable()) thread_.join();
  ClockSample mean = sum_;
  if (mean.samples > 0) {
    mean.sm_clock_mhz /= mean.samples;
    mean.power_w /= mean.samples;
  }
  return mean;
}

}  // namespace tilesim::measure
