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
// sum of a bool or a narrower integer straight into NumPy's default
// accumulator (int64; uint64 for unsigned), without a widened copy first.
template <class T> struct widened { typedef long long type; };
template <> struct widened<uint8> { typedef unsigned long long type; };
template <> struct widened<uint16> { typedef unsigned long long type; };
template <> struct widened<uint32> { typedef unsigned long long type; };
template <class T> struct red_widening_sum {
  typedef typename widened<T>::type Acc;
  typedef Acc Out;
  __device__ static Acc load(T x, long long) { return (Acc)x; }
  __device__ static Acc combine(Acc a, Acc b) { return a + b; }
  __device__ static Out finish(Acc a) { return a; }
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

// var's accumulator: the count, mean and sum of squared deviations of a
// range, merged pairwise by Chan, Golub and LeVeque's update, so that var
// reads its input once (the two-pass form reads it twice and writes the
// deviations between) with the accuracy of the two-pass form. Integers and
// bools compute in float64, float16 in float32, as NumPy's var does.
template <class T> struct moments_type { typedef double type; };
template <> struct moments_type<half> { typedef float type; };
template <> struct moments_type<float> { typedef float type; };
template <class R> struct moments_type<complex<R> > { typedef complex<R> type; };
template <class T> struct real_part { typedef T type; };
template <class R> struct real_part<complex<R> > { typedef R type; };
template <class R> __device__ __forceinline__ bool is_finite_value(R x) { return x - x == R(0); }
template <class R> __device__ __forceinline__ bool is_finite_value(complex<R> z) {
  return is_finite_value(z.re) && is_finite_value(z.im);
}
template <class R> __device__ __forceinline__ R scaled(R x, R w) { return x * w; }
template <class R> __device__ __forceinline__ complex<R> scaled(complex<R> z, R w) {
  return make_complex(z.re * w, z.im * w);
}
template <class T> struct red_squared_deviations {
  typedef typename moments_type<T>::type C;
  typedef typename real_part<C>::type Real;
  struct Acc {
    long long n;
    C mean;
    Real m2;
  };
  typedef Real Out;
  __device__ static Acc load(T x, long long) {
    Acc a;
    a.n = 1;
    a.mean = convert<C>(x);
    a.m2 = Real(0);
    return a;
  }
  __device__ static Acc combine(Acc a, Acc b) {
    Acc r;
    r.n = a.n + b.n;
    const Real w = (Real)b.n / (Real)r.n;
    const C delta = op_subtract::call(b.mean, a.mean);
    r.mean = op_add::call(a.mean, scaled(delta, w));
    r.m2 = a.m2 + b.m2 + squared_magnitude(delta) * ((Real)a.n * w);
    return r;
  }
  // An infinite element makes NumPy's deviations inf - inf = NaN; the
  // running form can leave m2 at 0 (one element) or inf instead.
  __device__ static Out finish(Acc a) { return is_finite_value(a.mean) ? a.m2 : quiet_nan<Real>(); }
};

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
