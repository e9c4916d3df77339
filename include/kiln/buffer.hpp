#pragma once
// A block of memory on one device, shared by every array that views it.
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "kiln/device.hpp"

namespace kiln {

namespace fusion {
class Pending;
}

// A buffer may be pending: automatic fusion (kiln/fusion.hpp) has recorded
// the expression that fills it but not run it. Asking for its memory runs
// the expression first. Asking for the memory of a buffer that pending
// expressions read runs those first too, since the caller may be about to
// write it: every consumer outside fusion sees what eager code would have.
class Buffer {
 public:
  using Release = std::function<void(void*)>;
  Buffer(void* data, size_t nbytes, Device device, Release release, bool writeable = true)
      : data_(data), nbytes_(nbytes), device_(device), release_(std::move(release)),
        writeable_(writeable) {}
  // A pending buffer of `nbytes` on `device`; memory comes when it runs.
  Buffer(size_t nbytes, Device device, std::shared_ptr<fusion::Pending> pending);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const {
    if (pending_ || !readers_.empty()) settle();
    return data_;
  }
  // The memory of a buffer that is not pending, without running the pending
  // expressions that read it (what a fused kernel reading it needs).
  void* data_for_reading() const {
    if (pending_) compute();
    return data_;
  }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  bool writeable() const { return writeable_; }
  // Memory others can write without kiln knowing (a NumPy array's, memory
  // imported through DLPack or exported by pointer): fusion does not defer
  // reading it, since a write it cannot see could come before the read.
  bool shared() const { return shared_; }
  void mark_shared() const { shared_ = true; }
  // The recorded expression that will fill this buffer; null once it has run.
  const std::shared_ptr<fusion::Pending>& pending() const { return pending_; }

 private:
  friend class fusion::Pending;
  // Runs this buffer's pending expression.
  void compute() const;
  // compute(), then the pending expressions that read this buffer.
  void settle() const;

  mutable void* data_;
  size_t nbytes_;
  Device device_;
  mutable Release release_;
  bool writeable_;
  mutable bool shared_ = false;
  mutable std::shared_ptr<fusion::Pending> pending_;
  // A pending buffer's memory once its expression ran (another buffer's).
  mutable std::shared_ptr<Buffer> backing_;
  mutable std::vector<std::weak_ptr<fusion::Pending>> readers_;
};

using BufferPtr = std::shared_ptr<Buffer>;

// New memory on `device` from that device's allocator; OutOfMemoryError on failure.
BufferPtr allocate(size_t nbytes, Device device);
// What a device's caching allocator holds: CuPy's MemoryPool numbers for
// any device (used_bytes, total_bytes), asked of the device's backend.
struct PoolStats {
  size_t used_bytes = 0;   // in live arrays
  size_t total_bytes = 0;  // obtained from the system, cached blocks included
  size_t limit = 0;        // 0: no limit
};
PoolStats pool_stats(Device device);
// Gives the device's cached (unused) blocks back to the system.
void free_all_blocks(Device device);
// Caps what the device's allocator holds at `bytes` (0: no cap).
void set_pool_limit(Device device, size_t bytes);

// Memory owned by someone else (a NumPy array, a foreign GPU buffer); `release`
// runs when the last array viewing it goes away.
BufferPtr wrap_memory(void* data, size_t nbytes, Device device, Buffer::Release release,
                      bool writeable = true);

}  // namespace kiln
