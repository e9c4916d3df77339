// Reductions and scans in device code: the accumulator of each reduction,
// and a block-wide combine through shared memory.
#pragma once
#include "kiln/device/ops.cuh"

namespace kiln { namespace dev {

// Each reduction: its accumulator Acc, load(x, index), combine(a, b) and
// finish(acc) -> the output value. Threads without elements take no part
// (block_combine's valid flags), so no identity is needed.
template <class T> struct red_sum {
  typedef typename compute_type<T>::type Acc;
  typedef T Out;
  __device__ static Acc load(T x, long long) { return convert<Acc>(x); }
  __device__ static Acc combine(Acc a, Acc b) { return op_add::call(a, b); }
  __device__ static Out finish(Acc a) { return convert<T>(a); }
};
template <class T> struct red_prod {
  typedef typename compute_type<T>::type Acc;
  typedef T Out;
  __device__ static Acc load(T x, long long) { return convert<Acc>(x); }
  __device__ static Acc combine(Acc a, Acc b) { return op_multiply::call(a, b); }
  __device__ static Out finish(Acc a) { return convert<T>(a); }
};
template <class T> struct red_min {
  typedef T Acc;
  typedef T Out;
  __device__ static Acc load(T x, long long) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return op_minimum::call(a, b); }
  __device__ static Out finish(Acc a) { return a; }
};
template <class T> struct red_max {
  typedef T Acc;
  typedef T Out;
  __device__ static Acc load(T x, long long) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return op_maximum::call(a, b); }
  __device__ static Out finish(Acc a) { return a; }
};
template <class T> struct red_any {
  typedef bool Acc;
  typedef bool Out;
  __device__ static Acc load(bool x, long long) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return a || b; }
  __device__ static Out finish(Acc a) { return a; }
};
template <class T> struct red_all {
  typedef bool Acc;
  typedef bool Out;
  __device__ static Acc load(bool x, long long) { return x; }
  __device__ static Acc combine(Acc a, Acc b) { return a && b; }
  __device__ static Out finish(Acc a) { return a; }
};

// argmin/argmax: the first extreme in C order, or the first NaN.
template <class T> struct indexed {
  T value;
  long long index;
};
template <class T, bool IsMax> struct red_arg {
  typedef indexed<T> Acc;
  typedef long long Out;
  __device__ static Acc load(T x, long long i) {
    Acc a;
    a.value = x;
    a.index = i;
    return a;
  }
  __device__ static Acc combine(Acc a, Acc b) {
    bool an = is_nan(a.value), bn = is_nan(b.value);
    if (an || bn) return (an && (!bn || a.index < b.index)) ? a : b;
    bool b_better = IsMax ? less(a.value, b.value) : less(b.value, a.value);
    bool tie = !less(a.value, b.value) && !less(b.value, a.value);
    if (b_better || (tie && b.index < a.index)) return b;
    return a;
  }
  __device__ static Out finish(Acc a) { return a.index; }
};
template <class T> struct red_argmin : red_arg<T, false> {};
template <class T> struct red_argmax : red_arg<T, true> {};

// Combines one value per thread into thread 0's; `scratch` holds blockDim.x values.
template <class R>
__device__ typename R::Acc block_combine(typename R::Acc mine, bool has, typename R::Acc* scratch, bool* valid) {
  scratch[threadIdx.x] = mine;
  valid[threadIdx.x] = has;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s && valid[threadIdx.x + s]) {
      scratch[threadIdx.x] = valid[threadIdx.x] ? R::combine(scratch[threadIdx.x], scratch[threadIdx.x + s])
                                                : scratch[threadIdx.x + s];
      valid[threadIdx.x] = true;
    }
    __syncthreads();
  }
  return scratch[0];
}

}}  // namespace kiln::dev
