#include "grid_stride.hpp"

#include <algorithm>

#include "context.hpp"
#include "kernel_slots.hpp"
#include "kiln/cuda.hpp"

namespace kiln::cuda {

unsigned grid_stride_blocks(int device, int64_t items, unsigned threads, unsigned blocks_per_sm) {
  const int64_t resident =
      int64_t{blocks_per_sm} * cached_attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(resident, (items + threads - 1) / threads)));
}

void launch_grid_stride(CUfunction fn, int device, unsigned blocks, unsigned threads, void** args) {
  ContextScope scope(device);
  CUstream stream = reinterpret_cast<CUstream>(current_stream_handle(device));
  const unsigned grid[3] = {blocks, 1, 1}, block[3] = {threads, 1, 1};
  launch_kernel(fn, grid, block, 0, stream, args);
}

}  // namespace kiln::cuda
