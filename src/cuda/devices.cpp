// Device discovery and queries, and the per-thread current device.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "context.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "kiln/fusion.hpp"

namespace kiln::cuda {
namespace {

CUdevice handle(int device) {
  check_device(device);
  CUdevice dev;
  check(driver().cuDeviceGet(&dev, device), "cuDeviceGet");
  return dev;
}

int attribute(CUdevice dev, CUdevice_attribute attr) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, attr, dev), "cuDeviceGetAttribute");
  return value;
}

thread_local int tls_current_device = 0;

}  // namespace

bool is_available() { return device_count() > 0; }

int device_count() {
  // Fixed once the driver is initialised (it reads CUDA_VISIBLE_DEVICES then),
  // and asked on every launch: counted once.
  static const int count = [] {
    int n = 0;
    return driver_available() && driver().cuDeviceGetCount(&n) == CUDA_SUCCESS ? n : 0;
  }();
  return count;
}

std::string unavailable_reason() {
  if (!driver_available()) return driver_error();
  if (device_count() == 0) return "the CUDA driver found no device";
  return "";
}

int driver_version() {
  int v = 0;
  check(driver().cuDriverGetVersion(&v), "cuDriverGetVersion");
  return v;
}

DeviceInfo device_info(int device) {
  const Driver& d = driver();
  CUdevice dev = handle(device);
  DeviceInfo info;
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof name - 1, dev), "cuDeviceGetName");
  info.name = name;
  info.major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  check(d.cuDeviceTotalMem_v2(&info.total_memory, dev), "cuDeviceTotalMem");
  info.multiprocessors = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.pci_domain = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  info.pci_bus = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  info.pci_device = attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  info.kernel_timeout = attribute(dev, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT) != 0;
  info.fp32_per_fp64 = attribute(dev, CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
  CUuuid uuid;
  check(d.cuDeviceGetUuid_v2(&uuid, dev), "cuDeviceGetUuid");
  // GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, as nvidia-smi prints it.
  std::string text = "GPU-";
  for (int i = 0; i < 16; ++i) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(uuid.bytes[i]));
    text += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
  }
  info.uuid = text;
  return info;
}

int device_attribute(int device, int attr) {
  return attribute(handle(device), static_cast<CUdevice_attribute>(attr));
}

int cached_attribute(int device, CUdevice_attribute attr) {
  // Stored as value + 1 in 64 bits, so that 0 means "not read yet" while any
  // int the driver returns, 0 and INT_MAX included, can be kept.
  constexpr int kSlots = 256;
  static std::atomic<long long> values[kMaxDevices][kSlots] = {};
  check_device_index(device);
  if (attr >= kSlots) return device_attribute(device, attr);
  long long stored = values[device][attr].load(std::memory_order_relaxed);
  if (stored == 0) {
    stored = static_cast<long long>(device_attribute(device, attr)) + 1;
    values[device][attr].store(stored, std::memory_order_relaxed);
  }
  return static_cast<int>(stored - 1);
}

void mem_info(int device, size_t* free_bytes, size_t* total_bytes) {
  ContextScope scope(device);
  check(driver().cuMemGetInfo_v2(free_bytes, total_bytes), "cuMemGetInfo");
}

void profiler_start(int device) {
  ContextScope scope(device);
  check(driver().cuProfilerStart(), "cuProfilerStart");
}

void profiler_stop(int device) {
  ContextScope scope(device);
  check(driver().cuProfilerStop(), "cuProfilerStop");
}

void synchronize(int device) {
  fusion::flush();  // what was recorded is part of the work waited for
  ContextScope scope(device);
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

namespace {
thread_local bool tls_synchronize_allowed = true;
}  // namespace

void set_synchronize_allowed(bool allowed) { tls_synchronize_allowed = allowed; }
bool synchronize_allowed() { return tls_synchronize_allowed; }
void check_synchronize_allowed(const char* what) {
  if (!tls_synchronize_allowed)
    throw DeviceSynchronized(std::string(what) + " waits for the GPU, where synchronizing is not allowed "
                             "(kiln.allow_synchronize(False))");
}

int current_device() { return tls_current_device; }

void set_current_device(int device) {
  check_device(device);
  fusion::flush();  // recorded work runs where it was recorded
  check(driver().cuCtxSetCurrent(primary_context(device)), "cuCtxSetCurrent");
  tls_current_device = device;
}

int pointer_device(uintptr_t address) {
  if (!is_available()) return -1;
  // The plural query answers for pageable memory too (type 0) where the
  // singular one fails.
  unsigned type = 0;
  int ordinal = -1;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* values[] = {&type, &ordinal};
  CUresult r = driver().cuPointerGetAttributes(2, attributes, values, static_cast<CUdeviceptr>(address));
  if (r != CUDA_SUCCESS || (type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED)) return -1;
  return ordinal;
}

}  // namespace kiln::cuda
