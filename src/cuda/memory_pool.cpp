// The caching device allocator: one pool per device. Freed blocks are kept
// per (stream, size class) and handed out again to allocations on the same
// stream, which keeps reuse stream-ordered without events. When the driver
// runs out of memory the pool frees its cached blocks and retries once.
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "context.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "memory_pool.hpp"

namespace kiln::cuda {
namespace {

constexpr size_t kSmallGranule = 512;             // sizes below kLargeBlock round to this
constexpr size_t kLargeBlock = size_t{1} << 20;
constexpr size_t kLargeGranule = size_t{2} << 20;  // large sizes round to 2 MiB

size_t size_class(size_t nbytes) {
  size_t g = nbytes < kLargeBlock ? kSmallGranule : kLargeGranule;
  return (std::max<size_t>(nbytes, 1) + g - 1) / g * g;
}

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// "1073741824", "512MiB", "4GiB" or "50%" (of the device's memory) -> bytes.
size_t parse_limit(const char* text, size_t device_total) {
  std::string s(text);
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  std::string unit(end);
  if (end == s.c_str() || value < 0)
    throw ValueError("KILN_GPU_MEMORY_LIMIT must be bytes (e.g. 4GiB) or a percentage, got '" + s + "'");
  if (unit == "%") return static_cast<size_t>(value / 100.0 * static_cast<double>(device_total));
  if (unit.empty() || unit == "B") return static_cast<size_t>(value);
  if (unit == "KiB" || unit == "K") return static_cast<size_t>(value * 1024);
  if (unit == "MiB" || unit == "M") return static_cast<size_t>(value * 1024 * 1024);
  if (unit == "GiB" || unit == "G") return static_cast<size_t>(value * 1024 * 1024 * 1024);
  throw ValueError("KILN_GPU_MEMORY_LIMIT has an unknown unit '" + unit + "'");
}

class DevicePool {
 public:
  explicit DevicePool(int device) : device_(device) {
    if (const char* env = std::getenv("KILN_GPU_MEMORY_LIMIT")) {
      size_t free_bytes = 0, total = 0;
      mem_info(device, &free_bytes, &total);
      limit_ = parse_limit(env, total);
    }
  }

  CUdeviceptr allocate(size_t nbytes, uintptr_t stream, size_t* size_out) {
    const size_t size = size_class(nbytes);
    *size_out = size;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find({stream, size});
    if (it != free_.end() && !it->second.empty()) {
      CUdeviceptr p = it->second.back();
      it->second.pop_back();
      cached_ -= size;
      used_ += size;
      return p;
    }
    if (limit_ && total_ + size > limit_) {
      release_cached_locked();
      if (total_ + size > limit_) throw out_of_memory(nbytes, "it would exceed the pool's limit");
    }
    ContextScope scope(device_);
    CUdeviceptr p = 0;
    CUresult r = driver().cuMemAlloc_v2(&p, size);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      release_cached_locked();
      r = driver().cuMemAlloc_v2(&p, size);
      if (r == CUDA_ERROR_OUT_OF_MEMORY) throw out_of_memory(nbytes, "the device is out of memory");
    }
    check(r, "cuMemAlloc");
    total_ += size;
    used_ += size;
    return p;
  }

  void release(CUdeviceptr p, size_t size, uintptr_t stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    used_ -= size;
    cached_ += size;
    free_[{stream, size}].push_back(p);
  }

  void release_cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    release_cached_locked();
  }

  PoolStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {used_, total_, limit_};
  }

  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
  }

 private:
  void release_cached_locked() {
    if (free_.empty()) return;
    ContextScope scope(device_);
    // Blocks may still be read by queued work on their streams.
    check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
    for (auto& [key, blocks] : free_) {
      for (CUdeviceptr p : blocks) {
        check(driver().cuMemFree_v2(p), "cuMemFree");
        total_ -= key.second;
      }
    }
    free_.clear();
    cached_ = 0;
  }

  OutOfMemoryError out_of_memory(size_t nbytes, const char* why) const {
    return OutOfMemoryError("out of memory allocating " + std::to_string(nbytes) + " bytes on cuda:" +
                            std::to_string(device_) + ": " + why + " (pool: " + mib(used_) + " in use, " +
                            mib(total_) + " held" + (limit_ ? ", limit " + mib(limit_) : std::string()) + ")");
  }

  int device_;
  std::mutex mutex_;
  std::map<std::pair<uintptr_t, size_t>, std::vector<CUdeviceptr>> free_;
  size_t used_ = 0, cached_ = 0, total_ = 0, limit_ = 0;
};

DevicePool& pool(int device) {
  static std::mutex mutex;
  static std::map<int, DevicePool*>* pools = new std::map<int, DevicePool*>;  // leaked: outlives every array
  std::lock_guard<std::mutex> lock(mutex);
  check_device(device);
  auto it = pools->find(device);
  if (it == pools->end()) it = pools->emplace(device, new DevicePool(device)).first;
  return *it->second;
}

}  // namespace

BufferPtr allocate_device(size_t nbytes, Device device) {
  DevicePool& p = pool(device.index);
  uintptr_t stream = current_stream(device.index).handle();
  size_t size = 0;
  CUdeviceptr ptr = p.allocate(nbytes, stream, &size);
  return std::make_shared<Buffer>(reinterpret_cast<void*>(ptr), nbytes, device,
                                  [&p, size, stream](void* q) { p.release(reinterpret_cast<CUdeviceptr>(q), size, stream); });
}

PoolStats pool_stats(int device) { return pool(device).stats(); }
void free_all_blocks(int device) { pool(device).release_cached(); }
void set_pool_limit(int device, size_t bytes) { pool(device).set_limit(bytes); }

}  // namespace kiln::cuda
