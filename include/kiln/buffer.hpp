#pragma once
// A block of memory on one device, shared by every array that views it.
#include <cstddef>
#include <functional>
#include <memory>

#include "kiln/device.hpp"

namespace kiln {

class Buffer {
 public:
  using Release = std::function<void(void*)>;
  Buffer(void* data, size_t nbytes, Device device, Release release, bool writeable = true)
      : data_(data), nbytes_(nbytes), device_(device), release_(std::move(release)),
        writeable_(writeable) {}
  ~Buffer() {
    if (release_) release_(data_);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  bool writeable() const { return writeable_; }

 private:
  void* data_;
  size_t nbytes_;
  Device device_;
  Release release_;
  bool writeable_;
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
