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

BufferPtr wrap_memory(void* data, size_t nbytes, Device device, Buffer::Release release,
                      bool writeable) {
  return std::make_shared<Buffer>(data, nbytes, device, std::move(release), writeable);
}

}  // namespace kiln
