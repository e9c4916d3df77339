#pragma once
// One-dimensional grid-stride launches of kiln's own kernels: as many blocks
// as the work needs, at most `blocks_per_sm` a multiprocessor (the threads
// then stride over the rest), on the device's current stream.
#include <cstdint>

#include "driver.hpp"

namespace kiln::cuda {

unsigned grid_stride_blocks(int device, int64_t items, unsigned threads, unsigned blocks_per_sm);
void launch_grid_stride(CUfunction fn, int device, unsigned blocks, unsigned threads, void** args);

}  // namespace kiln::cuda
