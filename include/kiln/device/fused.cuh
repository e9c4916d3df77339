#pragma once
// What automatic fusion's generated kernels (src/core/fused_kernel.cpp)
// index with: the parameter block of NOPS operands (the inputs, then the
// output) walked over an ND-dimensional C-order loop (kernel_params.cuh's
// kiln_indexer), and the scalar operands in 16-byte slots. Compiles under NVRTC and the host compiler.

#include "kiln/device/libmvec.hpp"  // on the CPU, the vector variants kiln's own loops call
// ops.cuh first: kernel_params.cuh brings std_complex.cuh's complex
// overloads of exp and friends into kiln::dev, which would hide the real
// ones from ops.cuh's templates.
#include "kiln/device/ops.cuh"
#include "kiln/device/kernel_params.cuh"

template <int NOPS, int ND, int NSLOTS> struct kiln_fused_args {
  char* data[NOPS];
  long long zero;  // 0, unknown to the compiler (kiln_rounded)
  kiln_indexer<ND, NOPS> index;  // the loop's size, shape and byte strides
  unsigned char scalars[NSLOTS * 16];
  template <class T> __device__ __forceinline__ T scalar(int slot) const {
    return *reinterpret_cast<const T*>(scalars + 16 * slot);
  }
};

// A GPU reduction's input (kiln/device/reduce_kernels.cuh) computed from
// a fused graph instead of read: element i is the generated source's
// kiln_fused_element(p, i), found when the reduction is instantiated. Its
// C-order element i sits at byte i * sizeof(T) from an aligned start, as a
// fresh result would, so the reduction takes the same path through it.
template <class T, class Params> struct kiln_fused_input {
  typedef T value_type;
  Params p;
  __device__ __forceinline__ T at(long long offset) const { return kiln_fused_element(p, offset / (long long)sizeof(T)); }
  __device__ __forceinline__ unsigned long long address(long long offset) const { return offset; }
  template <int V> __device__ __forceinline__ void vector(long long offset, T (&v)[V]) const {
    kiln_fused_vector(p, offset / (long long)sizeof(T), v);
  }
};

// V elements of an input from `at`: one load where they make an aligned
// power of two of at most 16 bytes (as stored values would be read), else
// one at a time.
template <int V, class L> __device__ __forceinline__ void kiln_load_vector(const L* at, L (&v)[V]) {
  constexpr unsigned long long bytes = V * sizeof(L);
  if constexpr (bytes <= 16 && (bytes & (bytes - 1)) == 0) {
    struct __align__(bytes) Word { L v[V]; };
    if ((unsigned long long)at % bytes == 0) {
      const Word w = *(const Word*)at;
#pragma unroll
      for (int e = 0; e < V; ++e) v[e] = w.v[e];
      return;
    }
  }
#pragma unroll
  for (int e = 0; e < V; ++e) v[e] = at[e];
}

// V results to `at`, as kiln_load_vector reads them.
template <int V, class T> __device__ __forceinline__ void kiln_store_vector(T* at, const T (&v)[V]) {
  constexpr unsigned long long bytes = V * sizeof(T);
  if constexpr (bytes <= 16 && (bytes & (bytes - 1)) == 0) {
    struct __align__(bytes) Word { T v[V]; };
    if ((unsigned long long)at % bytes == 0) {
      Word w;
#pragma unroll
      for (int e = 0; e < V; ++e) w.v[e] = v[e];
      *(Word*)at = w;
      return;
    }
  }
#pragma unroll
  for (int e = 0; e < V; ++e) at[e] = v[e];
}

// An op's result as op-by-op code stores it. On the GPU, ptxas contracts a
// multiply feeding an add into one FMA (rounded once) even across ops, and
// an asm barrier does not stop it; the value's bits passed through an
// integer XOR with a zero it cannot know (kiln_fused_args::zero) do. Used
// unless fusion's contract_fma setting allows contraction across ops; each
// op's own code still contracts as kiln's op-by-op kernels do. The CPU's
// host compiler never contracts (-ffp-contract=off).
template <class T> __device__ __forceinline__ T kiln_rounded(T v, long long) { return v; }
#ifdef __CUDA_ARCH__
__device__ __forceinline__ float kiln_rounded(float v, long long zero) {
  return __int_as_float(__float_as_int(v) ^ static_cast<int>(zero));
}
__device__ __forceinline__ double kiln_rounded(double v, long long zero) {
  return __longlong_as_double(__double_as_longlong(v) ^ zero);
}
template <class R>
__device__ __forceinline__ kiln::dev::complex<R> kiln_rounded(kiln::dev::complex<R> z, long long zero) {
  z.re = kiln_rounded(z.re, zero);
  z.im = kiln_rounded(z.im, zero);
  return z;
}
#endif

// Each thread's share of the flat loop: kernel_params.cuh's KILN_LOOP on
// the GPU; on the CPU, where a block is one thread, its contiguous run as
// an OpenMP simd loop, which the host compiler vectorises (its -O2 would not
// vectorise a loop of unknown trip count). The output never aliases an
// input, so the lanes are independent.
#ifdef __CUDA_ARCH__
#define KILN_FUSED_LOOP(i, n) KILN_LOOP(i, n)
#else
// [begin, end): this block's contiguous run of a flat loop of n.
#define KILN_FUSED_BLOCK_RUN(begin, end, n)                                              \
  const long long kiln_per_ = ((n) + gridDim.x - 1) / gridDim.x;                          \
  const long long begin = (long long)blockIdx.x * kiln_per_;                              \
  const long long end = begin + kiln_per_ < (n) ? begin + kiln_per_ : (n)
#define KILN_FUSED_LOOP(i, n)                 \
  KILN_FUSED_BLOCK_RUN(kiln_begin_, kiln_end_, n); \
  _Pragma("omp simd") for (long long i = kiln_begin_; i < kiln_end_; ++i)

// Elements of a strided loop a CPU kernel gathers into contiguous tiles
// (the generated kiln_fused_tiles), so that the value is computed by one
// simd loop over them, with the math functions' vector forms, instead of a
// scalar call an element.
#define KILN_FUSED_TILE 256

// The operands' byte offsets of consecutive elements of a C-order loop,
// from a counter per dimension: no division an element, where
// kiln_indexer::offsets takes ND - 1 divisions and remainders.
template <int ND, int NOPS> struct kiln_strided_walk {
  const kiln_indexer<ND, NOPS>& x;
  long long at[ND];
  long long off[NOPS];
  kiln_strided_walk(const kiln_indexer<ND, NOPS>& index, long long i) : x(index) {
    x.offsets(i, off);
    for (int d = ND - 1; d >= 0; --d) {
      at[d] = d == 0 ? i : i % x.shape[d];
      i = d == 0 ? 0 : i / x.shape[d];
    }
  }
  // To the next element (past the last: the first dimension's counter
  // runs on, nothing is read there).
  void next() {
    for (int d = ND - 1; d >= 0; --d) {
      for (int k = 0; k < NOPS; ++k) off[k] += x.strides[k][d];
      if (++at[d] < x.shape[d] || d == 0) return;
      at[d] = 0;
      for (int k = 0; k < NOPS; ++k) off[k] -= x.shape[d] * x.strides[k][d];
    }
  }
};
#endif
