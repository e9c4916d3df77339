#include "kiln/buffer.hpp"

#include <string>

#include "kiln/error.hpp"
#include "kiln/registry.hpp"

namespace kiln {

BufferPtr allocate(size_t nbytes, Device device) {
  AllocateFn fn = kernel_table(device.kind).allocate;
  if (!fn) throw ValueError("no backend is available for device " + device.str());
  return fn(nbytes, device);
}

PoolStats pool_stats(Device device) {
  auto fn = kernel_table(device.kind).pool_stats;
  return fn ? fn(device) : PoolStats{};
}

void free_all_blocks(Device device) {
  if (auto fn = kernel_table(device.kind).free_all_blocks) fn(device);
}

void set_pool_limit(Device device, size_t bytes) {
  auto fn = kernel_table(device.kind).set_pool_limit;
  if (!fn) throw ValueError("the allocator of " + device.str() + " cannot be capped");
  fn(device, bytes);
}

BufferPtr wrap_memory(void* data, size_t nbytes, Device device, Buffer::Release release,
                      bool writeable) {
  return std::make_shared<Buffer>(data, nbytes, device, std::move(release), writeable);
}

}  // namespace kiln
