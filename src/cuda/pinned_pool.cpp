// Page-locked host memory, cached by size class like the device pool: pinning
// costs far more than the copy it speeds up, so blocks are kept for reuse.
#include <map>
#include <mutex>
#include <vector>

#include "context.hpp"
#include "kiln/cuda.hpp"
#include "kiln/error.hpp"

namespace kiln::cuda {
namespace {

class PinnedPool {
 public:
  void* take(size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      return p;
    }
    // Portable: usable from every context, so from every device.
    void* p = nullptr;
    ContextScope scope(current_device());
    CUresult r = driver().cuMemHostAlloc(&p, size, CU_MEMHOSTALLOC_PORTABLE);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
      throw OutOfMemoryError("out of pinned host memory allocating " + std::to_string(size) + " bytes");
    check(r, "cuMemHostAlloc");
    total_ += size;
    return p;
  }
  void give(void* p, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_[size].push_back(p);
  }
  size_t total() {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_;
  }

 private:
  std::mutex mutex_;
  std::map<size_t, std::vector<void*>> free_;
  size_t total_ = 0;
};

PinnedPool& pinned() {
  static PinnedPool* p = new PinnedPool;  // leaked: blocks may be returned during shutdown
  return *p;
}

}  // namespace

std::shared_ptr<void> alloc_pinned(size_t nbytes) {
  size_t size = std::max<size_t>((nbytes + 4095) / 4096 * 4096, 4096);
  void* p = pinned().take(size);
  return std::shared_ptr<void>(p, [size](void* q) { pinned().give(q, size); });
}

size_t pinned_pool_bytes() { return pinned().total(); }

}  // namespace kiln::cuda
