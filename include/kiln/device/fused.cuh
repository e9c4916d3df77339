#pragma once
// What automatic fusion's generated kernels (src/core/fused_kernel.cpp)
// index with: the parameter block of NOPS operands (the inputs, then the
// output) walked over an ND-dimensional C-order loop, and the scalar
// operands in 16-byte slots. Compiles under NVRTC and the host compiler.
// ops.cuh first: kernel_params.cuh brings std_complex.cuh's complex
// overloads of exp and friends into kiln::dev, which would hide the real
// ones from ops.cuh's templates.
#include "kiln/device/ops.cuh"
#include "kiln/device/kernel_params.cuh"

template <int NOPS, int ND, int NSLOTS> struct kiln_fused_args {
  char* data[NOPS];
  long long size;
  long long shape[ND];
  long long strides[NOPS][ND];  // bytes
  unsigned char scalars[NSLOTS * 16];
  // Byte offsets of every operand at flat index i.
  __device__ __forceinline__ void offsets(long long i, long long* off) const {
    for (int k = 0; k < NOPS; ++k) off[k] = 0;
    for (int d = ND - 1; d >= 0; --d) {
      const long long c = d == 0 ? i : i % shape[d];
      i = d == 0 ? 0 : i / shape[d];
      for (int k = 0; k < NOPS; ++k) off[k] += c * strides[k][d];
    }
  }
  template <class T> __device__ __forceinline__ T scalar(int slot) const {
    return *reinterpret_cast<const T*>(scalars + 16 * slot);
  }
};

// Each thread's share of the flat loop: kernel_params.cuh's KILN_LOOP on
// the GPU; on the CPU, where a block is one thread, its contiguous run as
// an OpenMP simd loop, which the host compiler vectorises (its -O2 would not
// vectorise a loop of unknown trip count). The output never aliases an
// input, so the lanes are independent.
#ifdef __CUDA_ARCH__
#define KILN_FUSED_LOOP(i, n) KILN_LOOP(i, n)
#else
#define KILN_FUSED_LOOP(i, n)                                                                   \
  const long long kiln_per_ = ((n) + gridDim.x - 1) / gridDim.x;                               \
  const long long kiln_begin_ = (long long)blockIdx.x * kiln_per_;                             \
  const long long kiln_end_ = kiln_begin_ + kiln_per_ < (n) ? kiln_begin_ + kiln_per_ : (n);   \
  _Pragma("omp simd") for (long long i = kiln_begin_; i < kiln_end_; ++i)
#endif
