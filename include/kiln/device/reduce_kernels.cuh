// The GPU's reduction kernels, over any input: kiln's own reductions read
// memory (kiln_memory_input); a reduction of a pending fused expression
// computes each element where it is read (src/core/fused_kernel.cpp's
// generated input), so the expression's value is never stored. Both go
// through the same bodies, so they combine elements in the same order and
// give the same bits.
//
// An input type In has value_type, at(offset) (the element at that byte
// offset of the C-order input), address(offset) (for alignment) and
// vector<V>(offset, v) (V elements from a 16-byte aligned offset).
//
// KILN_REDUCE_KERNELS(NAME, R, PARAMS, MAKE_INPUT) defines the six
// kernels src/cuda/reduction_kernels.cpp launches: NAME_direct (a block per
// output), NAME_partial and NAME_final (two passes for long ranges),
// NAME_columns (a thread per output) and NAME_columns_partial/_final
// (columns with the rows split, two passes).
#pragma once
#include "kiln/device/reduce.cuh"

// Mirrors kiln::cuda::ReduceParams (src/cuda/kernel_source.hpp).
#define KILN_REDUCE_MAX_DIMS 12
struct kiln_reduce_params {
  const char* in;
  char* out;
  char* partial;
  long long kept_shape[KILN_REDUCE_MAX_DIMS], kept_in[KILN_REDUCE_MAX_DIMS], kept_out[KILN_REDUCE_MAX_DIMS];
  long long red_shape[KILN_REDUCE_MAX_DIMS], red_in[KILN_REDUCE_MAX_DIMS];
  long long kept_size, reduce_size, split, chunk;
  int kept_ndim, red_ndim;
};

namespace kiln { namespace dev {

template <class T> struct kiln_memory_input {
  typedef T value_type;
  const char* base;
  __device__ __forceinline__ T at(long long offset) const { return *(const T*)(base + offset); }
  __device__ __forceinline__ unsigned long long address(long long offset) const {
    return (unsigned long long)(base + offset);
  }
  template <int V> __device__ __forceinline__ void vector(long long offset, T (&v)[V]) const {
    struct __align__(16) Vec { T v[V]; };
    const Vec w = *(const Vec*)(base + offset);
#pragma unroll
    for (int e = 0; e < V; ++e) v[e] = w.v[e];
  }
};

__device__ __forceinline__ long long reduce_kept_offset(const kiln_reduce_params& p, long long o, long long* out_off) {
  long long in = 0, out = 0;
  for (int d = p.kept_ndim - 1; d >= 0; --d) {
    long long c = o % p.kept_shape[d];
    o /= p.kept_shape[d];
    in += c * p.kept_in[d];
    out += c * p.kept_out[d];
  }
  *out_off = out;
  return in;
}

__device__ __forceinline__ long long reduce_red_offset(const kiln_reduce_params& p, long long r) {
  long long off = 0;
  for (int d = p.red_ndim - 1; d >= 0; --d) {
    off += (r % p.red_shape[d]) * p.red_in[d];
    r /= p.red_shape[d];
  }
  return off;
}

template <class R> __device__ __forceinline__ void reduce_fold(typename R::Acc& acc, bool& has, typename R::Acc v) {
  acc = has ? R::combine(acc, v) : v;
  has = true;
}

// Contiguous elements [lo, hi) from byte offset `at`, a block-stride apart,
// read 16 bytes at a time once aligned, four loads in flight per thread.
template <class R, class In>
__device__ void reduce_accumulate_vectors(const In& in, long long at, long long lo, long long hi,
                                          typename R::Acc& acc, bool& has) {
  typedef typename In::value_type T;
  constexpr int V = 16 / sizeof(T);
  const long long step = blockDim.x, size = sizeof(T);
  long long head = (long long)((16 - in.address(at + lo * size) % 16) % 16 / sizeof(T));
  if (head > hi - lo) head = hi - lo;
  for (long long r = lo + threadIdx.x; r < lo + head; r += step) reduce_fold<R>(acc, has, R::load(in.at(at + r * size), r));
  const long long body = lo + head, groups = (hi - body) / V;
  long long g = threadIdx.x;
  for (; g + 3 * step < groups; g += 4 * step) {
    T w[4][V];
#pragma unroll
    for (int k = 0; k < 4; ++k) in.vector(at + (body + (g + k * step) * V) * size, w[k]);
    typename R::Acc part[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long r = body + (g + k * step) * V;
      part[k] = R::load(w[k][0], r);
#pragma unroll
      for (int e = 1; e < V; ++e) part[k] = R::combine(part[k], R::load(w[k][e], r + e));
    }
    reduce_fold<R>(acc, has, R::combine(R::combine(part[0], part[1]), R::combine(part[2], part[3])));
  }
  for (; g < groups; g += step) {
    T w[V];
    const long long r = body + g * V;
    in.vector(at + r * size, w);
#pragma unroll
    for (int e = 0; e < V; ++e) reduce_fold<R>(acc, has, R::load(w[e], r + e));
  }
  for (long long r = body + groups * V + threadIdx.x; r < hi; r += step) reduce_fold<R>(acc, has, R::load(in.at(at + r * size), r));
}

// Accumulates elements [lo, hi) of one output's range, a block-stride apart.
template <class R, class In>
__device__ typename R::Acc reduce_accumulate(const kiln_reduce_params& p, const In& in, long long base, long long lo,
                                             long long hi, bool* has) {
  typedef typename In::value_type T;
  const long long size = sizeof(T);
  typename R::Acc acc;
  *has = false;
  if (p.red_ndim == 1 && p.red_in[0] == size && sizeof(T) < 16 &&
      (16 - in.address(base + lo * size) % 16) % 16 % sizeof(T) == 0) {
    reduce_accumulate_vectors<R>(in, base, lo, hi, acc, *has);
    return acc;
  }
  // One strided axis: no division per element, and eight independent loads
  // in flight per thread so that enough bytes are outstanding.
  if (p.red_ndim == 1) {
    const long long s = p.red_in[0], step = blockDim.x;
    long long r = lo + threadIdx.x;
    for (; r + 7 * step < hi; r += 8 * step) {
      typename R::Acc v[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) v[k] = R::load(in.at(base + (r + k * step) * s), r + k * step);
      typename R::Acc v01 = R::combine(v[0], v[1]), v23 = R::combine(v[2], v[3]);
      typename R::Acc v45 = R::combine(v[4], v[5]), v67 = R::combine(v[6], v[7]);
      reduce_fold<R>(acc, *has, R::combine(R::combine(v01, v23), R::combine(v45, v67)));
    }
    for (; r < hi; r += step) reduce_fold<R>(acc, *has, R::load(in.at(base + r * s), r));
    return acc;
  }
  for (long long r = lo + threadIdx.x; r < hi; r += blockDim.x)
    reduce_fold<R>(acc, *has, R::load(in.at(base + reduce_red_offset(p, r)), r));
  return acc;
}

// One thread walks rows [lo, hi) of one column; eight loads in flight.
template <class R, class In>
__device__ typename R::Acc reduce_walk_column(const kiln_reduce_params& p, const In& in, long long base, long long lo,
                                              long long hi) {
  typename R::Acc acc = R::load(in.at(base + (p.red_ndim == 1 ? lo * p.red_in[0] : reduce_red_offset(p, lo))), lo);
  long long r = lo + 1;
  if (p.red_ndim == 1) {
    const long long s = p.red_in[0];
    for (; r + 7 < hi; r += 8) {
      typename R::Acc v[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) v[k] = R::load(in.at(base + (r + k) * s), r + k);
      typename R::Acc v01 = R::combine(v[0], v[1]), v23 = R::combine(v[2], v[3]);
      typename R::Acc v45 = R::combine(v[4], v[5]), v67 = R::combine(v[6], v[7]);
      acc = R::combine(acc, R::combine(R::combine(v01, v23), R::combine(v45, v67)));
    }
  }
  for (; r < hi; ++r) {
    long long off = p.red_ndim == 1 ? r * p.red_in[0] : reduce_red_offset(p, r);
    acc = R::combine(acc, R::load(in.at(base + off), r));
  }
  return acc;
}

// A kept axis moves fastest: one thread per output walks the reduced range,
// so neighbouring threads read neighbouring elements.
template <class R, class In> __device__ void reduce_columns(const kiln_reduce_params& p, const In& in) {
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < p.kept_size;
       o += (long long)gridDim.x * blockDim.x) {
    long long out_off, base = reduce_kept_offset(p, o, &out_off);
    *(typename R::Out*)(p.out + out_off) = R::finish(reduce_walk_column<R>(p, in, base, 0, p.reduce_size));
  }
}

// Too few columns for a thread each: rows are split into p.split chunks;
// thread t takes column t % kept_size of chunk t / kept_size, so that
// neighbouring threads still read neighbouring elements...
template <class R, class In> __device__ void reduce_columns_partial(const kiln_reduce_params& p, const In& in) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < p.kept_size * p.split;
       t += (long long)gridDim.x * blockDim.x) {
    long long o = t % p.kept_size, lo = (t / p.kept_size) * p.chunk;
    long long hi = lo + p.chunk < p.reduce_size ? lo + p.chunk : p.reduce_size;
    long long out_off, base = reduce_kept_offset(p, o, &out_off);
    ((typename R::Acc*)p.partial)[t] = reduce_walk_column<R>(p, in, base, lo, hi);
  }
}

// ...then one thread per column combines its chunks in order.
template <class R> __device__ void reduce_columns_final(const kiln_reduce_params& p) {
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < p.kept_size;
       o += (long long)gridDim.x * blockDim.x) {
    long long out_off;
    reduce_kept_offset(p, o, &out_off);
    typename R::Acc acc = ((const typename R::Acc*)p.partial)[o];
    for (long long c = 1; c < p.split; ++c) acc = R::combine(acc, ((const typename R::Acc*)p.partial)[c * p.kept_size + o]);
    *(typename R::Out*)(p.out + out_off) = R::finish(acc);
  }
}

template <class R, class In> __device__ void reduce_direct(const kiln_reduce_params& p, const In& in) {
  __shared__ typename R::Acc scratch[256];
  __shared__ bool valid[256];
  for (long long o = blockIdx.x; o < p.kept_size; o += gridDim.x) {
    long long out_off, base = reduce_kept_offset(p, o, &out_off);
    bool has;
    typename R::Acc acc = reduce_accumulate<R>(p, in, base, 0, p.reduce_size, &has);
    typename R::Acc total = block_combine<R>(acc, has, scratch, valid);
    if (threadIdx.x == 0) *(typename R::Out*)(p.out + out_off) = R::finish(total);
    __syncthreads();
  }
}

template <class R, class In> __device__ void reduce_partial(const kiln_reduce_params& p, const In& in) {
  __shared__ typename R::Acc scratch[256];
  __shared__ bool valid[256];
  for (long long b = blockIdx.x; b < p.kept_size * p.split; b += gridDim.x) {
    long long o = b / p.split, lo = (b % p.split) * p.chunk;
    long long hi = lo + p.chunk < p.reduce_size ? lo + p.chunk : p.reduce_size;
    long long out_off, base = reduce_kept_offset(p, o, &out_off);
    bool has;
    typename R::Acc acc = reduce_accumulate<R>(p, in, base, lo, hi, &has);
    typename R::Acc total = block_combine<R>(acc, has, scratch, valid);
    if (threadIdx.x == 0) ((typename R::Acc*)p.partial)[b] = total;
    __syncthreads();
  }
}

template <class R> __device__ void reduce_final(const kiln_reduce_params& p) {
  __shared__ typename R::Acc scratch[256];
  __shared__ bool valid[256];
  for (long long o = blockIdx.x; o < p.kept_size; o += gridDim.x) {
    long long out_off;
    reduce_kept_offset(p, o, &out_off);
    typename R::Acc acc;
    bool has = false;
    for (long long c = threadIdx.x; c < p.split; c += blockDim.x) {
      typename R::Acc v = ((const typename R::Acc*)p.partial)[o * p.split + c];
      acc = has ? R::combine(acc, v) : v;
      has = true;
    }
    typename R::Acc total = block_combine<R>(acc, has, scratch, valid);
    if (threadIdx.x == 0) *(typename R::Out*)(p.out + out_off) = R::finish(total);
    __syncthreads();
  }
}

}}  // namespace kiln::dev

// PARAMS: the kernels' parameter list in parentheses, `p` first (a
// kiln_reduce_params); MAKE_INPUT: the input, from the parameters.
#define KILN_REDUCE_KERNELS(NAME, R, PARAMS, MAKE_INPUT)                                                          \
  extern "C" __global__ void NAME##_direct PARAMS { kiln::dev::reduce_direct<R>(p, MAKE_INPUT); }                \
  extern "C" __global__ void NAME##_partial PARAMS { kiln::dev::reduce_partial<R>(p, MAKE_INPUT); }              \
  extern "C" __global__ void NAME##_final PARAMS { kiln::dev::reduce_final<R>(p); }                              \
  extern "C" __global__ void NAME##_columns PARAMS { kiln::dev::reduce_columns<R>(p, MAKE_INPUT); }              \
  extern "C" __global__ void NAME##_columns_partial PARAMS { kiln::dev::reduce_columns_partial<R>(p, MAKE_INPUT); } \
  extern "C" __global__ void NAME##_columns_final PARAMS { kiln::dev::reduce_columns_final<R>(p); }
