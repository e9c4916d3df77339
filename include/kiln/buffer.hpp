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
// Memory owned by someone else (a NumPy array, a foreign GPU buffer); `release`
// runs when the last array viewing it goes away.
BufferPtr wrap_memory(void* data, size_t nbytes, Device device, Buffer::Release release,
                      bool writeable = true);

}  // namespace kiln
