#pragma once
#include <cstddef>

#include "kiln/device.hpp"

namespace kiln::cuda {

// Copies nbytes of contiguous memory; at least one side is a CUDA device.
void transfer(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);

}  // namespace kiln::cuda
