// Host memory for CPU arrays. Blocks are kept after release and handed out
// again for the same rounded size: a fresh large block costs a page fault per
// 4 KiB on first touch, which dominates a bandwidth-bound op, and malloc/free
// of small blocks dominates the cost of an op on a small array.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend.hpp"
#include "kiln/error.hpp"

namespace kiln::cpu {
namespace {

constexpr size_t kAlignment = 64;                  // a cache line; AVX-512 loads
constexpr size_t kLargeBlock = size_t{1} << 20;    // from here sizes round to kLargeGranule
constexpr size_t kLargeGranule = size_t{1} << 16;  // below, to a power of two
constexpr size_t kCacheLimit = size_t{1} << 30;    // bytes kept for reuse at most

class BlockCache {
 public:
  void* take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (limit_ && used_ + size > limit_)
      throw OutOfMemoryError("out of memory allocating " + std::to_string(size) + " bytes on the host: the pool's limit is " +
                             std::to_string(limit_) + " bytes and " + std::to_string(used_) + " are in use");
    used_ += size;
    auto it = free_.find(size);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_ -= size;
    return p;
  }
  // A block `take` found none for, and the system did not give either.
  void forget(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    used_ -= size;
  }
  PoolStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {used_, used_ + cached_, limit_};
  }
  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
  }
  void release_cached() {
    std::unordered_map<size_t, std::vector<void*>> blocks;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      blocks.swap(free_);
      cached_ = 0;
    }
    for (auto& entry : blocks)
      for (void* p : entry.second) std::free(p);
  }
  void give(void* p, size_t size) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      used_ -= size;
      if (cached_ + size <= kCacheLimit) {
        free_[size].push_back(p);
        cached_ += size;
        return;
      }
    }
    std::free(p);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t cached_ = 0;
  size_t used_ = 0;
  size_t limit_ = 0;  // 0: none
};

// Leaked on purpose: buffers may be released during interpreter shutdown.
BlockCache& cache() {
  static BlockCache* c = new BlockCache;
  return *c;
}

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

// Size classes: powers of two below kLargeBlock, kLargeGranule steps above.
size_t size_class(size_t nbytes) {
  if (nbytes >= kLargeBlock) return round_up(nbytes, kLargeGranule);
  size_t size = kAlignment;
  while (size < nbytes) size *= 2;
  return size;
}

// The bytes the system can still give, from /proc/meminfo: MemAvailable
// (MemFree + Buffers + Cached where a kernel or sandbox leaves it out, and
// never less than MemFree: a sandbox's 0 is not the truth) plus SwapFree;
// SIZE_MAX where there is no such file. Counting SwapFree alone, as a
// meminfo without MemAvailable made it, refused every large allocation.
// Read with stdio and strtoull, not iostreams: where a wheel's libstdc++
// shares the process, a stream's number parsing read every value as 0 and
// every checked allocation was refused (the H100 host, 2026-11-26).
size_t host_bytes_available() {
  std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
  if (!meminfo) return SIZE_MAX;
  std::unordered_map<std::string, size_t> kib;
  char line[256];
  while (std::fgets(line, sizeof line, meminfo)) {
    const char* colon = std::strchr(line, ':');
    if (colon) kib[std::string(line, static_cast<size_t>(colon - line))] = std::strtoull(colon + 1, nullptr, 10);
  }
  std::fclose(meminfo);
  if (!kib.count("MemFree")) return SIZE_MAX;
  const size_t free = kib["MemFree"];
  const size_t available = kib.count("MemAvailable") ? std::max(kib["MemAvailable"], free)
                                                      : free + kib["Buffers"] + kib["Cached"];
  return (available + kib["SwapFree"]) * 1024;
}

// Allocations from this size on are checked against what the system can
// give: Linux overcommits, so a too-large malloc succeeds and the process is
// killed later, when the pages are touched, with no exception to catch.
constexpr size_t kCheckedAllocation = size_t{256} << 20;

BufferPtr allocate_host(size_t nbytes, Device device) {
  const size_t size = size_class(nbytes);
  void* p = cache().take(size);
  if (!p && size >= kCheckedAllocation) {
    const size_t available = host_bytes_available();
    if (size > available)
      throw OutOfMemoryError("out of host memory allocating " + std::to_string(nbytes) + " bytes (more than the " +
                             std::to_string(available >> 20) + " MiB the system has available)");
  }
  if (!p) p = std::aligned_alloc(kAlignment, size);
  if (!p) {
    cache().forget(size);
    throw OutOfMemoryError("out of host memory allocating " + std::to_string(nbytes) + " bytes");
  }
  return std::make_shared<Buffer>(p, nbytes, device, [size](void* q) { cache().give(q, size); });
}

}  // namespace

void register_allocator(KernelTable& table) {
  table.allocate = &allocate_host;
  table.pool_stats = [](Device) { return cache().stats(); };
  table.free_all_blocks = [](Device) { cache().release_cached(); };
  table.set_pool_limit = [](Device, size_t bytes) { cache().set_limit(bytes); };
}

}  // namespace kiln::cpu
