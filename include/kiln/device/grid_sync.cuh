#pragma once
// A barrier across a whole grid (Numba's cuda.cg.this_grid().sync()). Only
// a cooperative launch may reach it: one whose blocks are all running at
// once, so that none waits for a block that cannot start. A module whose
// kernels sync their grid says so with the line kiln::kCooperativeMarker
// (kiln/compiled_module.hpp), and both backends then launch them so: a GPU
// with cuLaunchCooperativeKernel, the CPU with an OS thread per block
// (host_runtime.hpp).

// The grid as Numba's cuda.cg.this_grid() gives it: its one operation is sync().
struct kiln_grid_group {};

#ifdef __CUDA_ARCH__
// The barrier's state, one per module; zero when the module loads, and
// again after every barrier. Launches of one module's cooperative kernels
// that overlap (on different streams) would share it: kiln's jit makes a
// module for each kernel specialisation.
__device__ unsigned int kiln_grid_arrived;
__device__ unsigned int kiln_grid_generation;

// Each block's first thread arrives for its block; the last block to
// arrive starts the next generation, which the others wait to see. The
// fences make each block's writes before the barrier visible to every
// block after it.
__device__ __forceinline__ void kiln_grid_sync() {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    volatile unsigned int* generation = &kiln_grid_generation;
    const unsigned int seen = *generation;
    __threadfence();
    if (atomicAdd(&kiln_grid_arrived, 1u) == blocks - 1) {
      atomicExch(&kiln_grid_arrived, 0u);
      __threadfence();
      atomicAdd(&kiln_grid_generation, 1u);
    } else {
      while (*generation == seen) {
#if __CUDA_ARCH__ >= 700
        __nanosleep(32);
#endif
      }
    }
    __threadfence();
  }
  __syncthreads();
}
#else
inline void kiln_grid_sync() { kiln_host::grid_sync(); }
#endif
