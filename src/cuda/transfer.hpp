#pragma once
#include <cstddef>

#include "kiln/device.hpp"
#include "kiln/registry.hpp"

namespace kiln::cuda {

// Copies nbytes of contiguous memory; at least one side is a CUDA device.
void transfer(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);
// The kernel table's cast_across: the cast kernel on the source's GPU
// writes the peer's memory directly, where peer access is possible.
bool cast_across(const StridedArgs& args, DType from, DType to, int dst_device);

}  // namespace kiln::cuda
