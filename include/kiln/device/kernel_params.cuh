#pragma once
// What the kernels ElementwiseKernel and ReductionKernel generate index with
// (python/kiln/_elementwise_kernel.py, _reduction_kernel.py): the operands'
// broadcast layout, raw parameters and each thread's share of the loop.
// Offsets are in bytes. Compiles under NVRTC and under the host compiler
// (include/kiln/device/host_runtime.hpp), so one kernel text serves the GPU
// and the CPU.
#include "kiln/device/kernel_types.cuh"

// Offsets of NOPS operands at flat index i of an ND-dimensional C-order loop.
template <int ND, int NOPS> struct kiln_indexer {
  long long size_;
  long long shape[ND];
  long long strides[NOPS][ND];
  __device__ __forceinline__ long long size() const { return size_; }
  __device__ __forceinline__ void offsets(long long i, long long* off) const {
    for (int k = 0; k < NOPS; ++k) off[k] = 0;
    for (int d = ND - 1; d >= 0; --d) {
      const long long c = d == 0 ? i : i % shape[d];
      i = d == 0 ? 0 : i / shape[d];
      for (int k = 0; k < NOPS; ++k) off[k] += c * strides[k][d];
    }
  }
};
// A raw parameter: the whole array, indexed by a flat C-order index or by
// an index per dimension.
template <int ND> struct kiln_raw_layout {
  long long size, contiguous, shape[ND], strides[ND];
};
template <class T, int ND> struct kiln_raw {
  T* data_;
  kiln_raw_layout<ND> l_;
  __device__ __forceinline__ kiln_raw(T* data, const kiln_raw_layout<ND>& l) : data_(data), l_(l) {}
  __device__ __forceinline__ long long size() const { return l_.size; }
  __device__ __forceinline__ const long long* shape() const { return l_.shape; }
  __device__ __forceinline__ const long long* strides() const { return l_.strides; }
  __device__ __forceinline__ T* data() const { return data_; }
  __device__ __forceinline__ T& operator[](long long i) const {
    if (l_.contiguous) return data_[i];
    long long off = 0;
    for (int d = ND - 1; d >= 0; --d) {
      off += (d == 0 ? i : i % l_.shape[d]) * l_.strides[d];
      i = d == 0 ? 0 : i / l_.shape[d];
    }
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }
  __device__ __forceinline__ T& operator[](const long long (&idx)[ND]) const {
    long long off = 0;
    for (int d = 0; d < ND; ++d) off += idx[d] * l_.strides[d];
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + off);
  }
};
// Each thread's share of a flat loop of n: a grid-stride loop on the GPU
// (neighbouring threads touch neighbouring elements); on the CPU, where a
// block is one thread, a contiguous run per block.
#ifdef __CUDA_ARCH__
#define KILN_LOOP(i, n) \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (long long)blockDim.x * gridDim.x)
#else
#define KILN_LOOP(i, n)                                                                           \
  for (long long kiln_per_ = ((n) + gridDim.x - 1) / gridDim.x, i = (long long)blockIdx.x * kiln_per_, \
                 kiln_end_ = i + kiln_per_ < (n) ? i + kiln_per_ : (n);                            \
       i < kiln_end_; ++i)
#endif

// The heads of generated kernels and of their helpers, spelled here once.
#define KILN_GENERATED_KERNEL extern "C" __global__ void
#define KILN_GENERATED_HELPER __device__ __forceinline__

// `acc` combined over a block of `Threads` threads with `reduce` (thread 0's
// result is every thread's). On the CPU, where a block is one thread, `acc`.
template <int Threads, class T, class Reduce>
__device__ __forceinline__ T kiln_block_reduce(T acc, Reduce reduce) {
#ifdef __CUDA_ARCH__
  __shared__ __align__(16) char shared_bytes[Threads * sizeof(T)];
  T* shared = reinterpret_cast<T*>(shared_bytes);
  shared[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      acc = reduce(acc, shared[threadIdx.x + s]);
      shared[threadIdx.x] = acc;
    }
    __syncthreads();
  }
  acc = shared[0];
  __syncthreads();
#endif
  return acc;
}
