// Host memory for CPU arrays. Large blocks are kept after release and handed
// out again for the same rounded size: a fresh large block costs a page fault
// per 4 KiB on first touch, which dominates a bandwidth-bound op.
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend.hpp"
#include "kiln/error.hpp"

namespace kiln::cpu {
namespace {

constexpr size_t kAlignment = 64;               // a cache line; AVX-512 loads
constexpr size_t kCachedMin = size_t{1} << 20;  // blocks below this go straight to malloc
constexpr size_t kCachedGranule = size_t{1} << 16;
constexpr size_t kCacheLimit = size_t{1} << 30;  // bytes kept for reuse at most

class BlockCache {
 public:
  void* take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    cached_ -= size;
    return p;
  }
  void give(void* p, size_t size) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
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
};

// Leaked on purpose: buffers may be released during interpreter shutdown.
BlockCache& cache() {
  static BlockCache* c = new BlockCache;
  return *c;
}

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

BufferPtr allocate_host(size_t nbytes, Device device) {
  const bool cached = nbytes >= kCachedMin;
  const size_t size = cached ? round_up(nbytes, kCachedGranule) : round_up(std::max<size_t>(nbytes, 1), kAlignment);
  void* p = cached ? cache().take(size) : nullptr;
  if (!p) p = std::aligned_alloc(kAlignment, size);
  if (!p)
    throw OutOfMemoryError("out of host memory allocating " + std::to_string(nbytes) + " bytes");
  Buffer::Release release;
  if (cached) release = [size](void* q) { cache().give(q, size); };
  else release = [](void* q) { std::free(q); };
  return std::make_shared<Buffer>(p, nbytes, device, std::move(release));
}

}  // namespace

void register_allocator(KernelTable& table) { table.allocate = &allocate_host; }

}  // namespace kiln::cpu
