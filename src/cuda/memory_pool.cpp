// The caching device allocator: one BlockPool per device over segments from
// cuMemAlloc. When the driver runs out of memory (or the pool's limit would be
// passed) the pool frees its wholly free segments and retries once.
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "../core/block_pool.hpp"
#include "context.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"
#include "memory_pool.hpp"

namespace kiln::cuda {
namespace {

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

  BlockPool::Block* allocate(size_t nbytes, uintptr_t stream) {
    const size_t size = BlockPool::block_size(nbytes);
    std::lock_guard<std::mutex> lock(mutex_);
    if (BlockPool::Block* b = blocks_.take(size, stream)) return b;
    const size_t segment = BlockPool::segment_size(size);
    if (limit_ && blocks_.held_bytes() + segment > limit_) {
      release_cached_locked();
      if (blocks_.held_bytes() + segment > limit_) throw out_of_memory(nbytes, "it would exceed the pool's limit");
    }
    ContextScope scope(device_);
    CUdeviceptr p = 0;
    CUresult r = driver().cuMemAlloc_v2(&p, segment);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      release_cached_locked();
      r = driver().cuMemAlloc_v2(&p, segment);
      if (r == CUDA_ERROR_OUT_OF_MEMORY) throw out_of_memory(nbytes, "the device is out of memory");
    }
    check(r, "cuMemAlloc");
    return blocks_.add_segment(p, segment, size, stream);
  }

  void release(BlockPool::Block* block) {
    std::lock_guard<std::mutex> lock(mutex_);
    blocks_.give(block);
  }

  void release_cached() {
    std::lock_guard<std::mutex> lock(mutex_);
    release_cached_locked();
  }

  PoolStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {blocks_.used_bytes(), blocks_.held_bytes(), limit_};
  }

  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
  }

 private:
  void release_cached_locked() {
    if (blocks_.held_bytes() == blocks_.used_bytes()) return;
    ContextScope scope(device_);
    // Blocks may still be read by queued work on their streams.
    check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
    blocks_.release_free_segments([](uintptr_t p, size_t) { check(driver().cuMemFree_v2(p), "cuMemFree"); });
  }

  OutOfMemoryError out_of_memory(size_t nbytes, const char* why) const {
    return OutOfMemoryError("out of memory allocating " + std::to_string(nbytes) + " bytes on cuda:" +
                            std::to_string(device_) + ": " + why + " (pool: " + mib(blocks_.used_bytes()) + " in use, " +
                            mib(blocks_.held_bytes()) + " held" + (limit_ ? ", limit " + mib(limit_) : std::string()) + ")");
  }

  int device_;
  std::mutex mutex_;
  BlockPool blocks_;
  size_t limit_ = 0;
};

DevicePool& pool(int device) {
  // Looked up on every allocation: a lock-free read once the pool exists.
  // The pools are leaked: they outlive every array.
  static std::atomic<DevicePool*> pools[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) check_device(device);  // a device that does not exist, by name
  check_device_index(device);
  return *load_or_build(pools[device], [&] {
    check_device(device);
    return new DevicePool(device);
  });
}

}  // namespace

BufferPtr allocate_device(size_t nbytes, Device device) {
  DevicePool& p = pool(device.index);
  uintptr_t stream = current_stream_handle(device.index);
  BlockPool::Block* block = p.allocate(nbytes, stream);
  return std::make_shared<Buffer>(reinterpret_cast<void*>(block->address), nbytes, device,
                                  [&p, block](void*) { p.release(block); });
}

PoolStats pool_stats(int device) { return pool(device).stats(); }
void free_all_blocks(int device) { pool(device).release_cached(); }
void set_pool_limit(int device, size_t bytes) { pool(device).set_limit(bytes); }

}  // namespace kiln::cuda
