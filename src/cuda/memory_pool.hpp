#pragma once
#include "kiln/buffer.hpp"

namespace kiln::cuda {

// Device memory for an array, from the device's caching pool, ordered on the
// thread's current stream.
BufferPtr allocate_device(size_t nbytes, Device device);

}  // namespace kiln::cuda
