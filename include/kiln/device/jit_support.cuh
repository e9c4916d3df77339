#pragma once
// What every kernel kiln.cuda.jit translates from Python calls
// (python/kiln/_jit/): array views, Python's integer division and modulo,
// atomics for every element type, and IEEE tests without <cmath> macros.
// Compiles under NVRTC and under the host compiler.
#include <stdio.h>  // printf, for print() in kernels (built into NVRTC; the C library's on the CPU)
#include "kiln/device/kernel_types.cuh"  // float16, complex<float>, complex<double>
#include "kiln/device/jit_half.cuh"      // float16 arithmetic as single f16 instructions
// The bytes of dynamic shared memory each block of this launch has: what a
// cuda.shared.array(0, dtype) holds.
__device__ __forceinline__ long long kiln_dynamic_shared_bytes() {
#ifdef __CUDA_ARCH__
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
#else
  return (long long)kiln_host::current_launch->shared_bytes;
#endif
}
// An array argument or a shared/local array: data, shape and byte strides.
// Python's negative indices are resolved by wrap(), which the translator
// leaves out where an index can be shown never to be negative.
template <class T, int ND> struct kiln_view {
  T* data;
  long long shape[ND];
  long long strides[ND];
  __device__ __forceinline__ T& element(long long offset) const {
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + offset);
  }
  __device__ __forceinline__ long long wrap(long long i, int d) const { return i < 0 ? i + shape[d] : i; }
  __device__ __forceinline__ T& at(long long i) const { return element(i * strides[0]); }
  __device__ __forceinline__ T& at(long long i, long long j) const { return element(i * strides[0] + j * strides[1]); }
  __device__ __forceinline__ T& at(long long i, long long j, long long k) const {
    return element(i * strides[0] + j * strides[1] + k * strides[2]);
  }
  __device__ __forceinline__ long long size() const {
    long long n = 1;
    for (int d = 0; d < ND; ++d) n *= shape[d];
    return n;
  }
  // a[start:stop:step] along dimension d, with Python's rules for missing,
  // negative and out-of-range bounds (slice.indices).
  __device__ __forceinline__ kiln_view sliced(int d, long long start, long long stop, long long step,
                                              bool has_start, bool has_stop) const {
    const long long n = shape[d];
    long long length;
    if (step > 0) {
      start = !has_start ? 0 : start < 0 ? (start + n < 0 ? 0 : start + n) : (start > n ? n : start);
      stop = !has_stop ? n : stop < 0 ? (stop + n < 0 ? 0 : stop + n) : (stop > n ? n : stop);
      length = stop > start ? (stop - start + step - 1) / step : 0;
    } else {
      start = !has_start ? n - 1 : start < 0 ? (start + n < -1 ? -1 : start + n) : (start > n - 1 ? n - 1 : start);
      stop = !has_stop ? -1 : stop < 0 ? (stop + n < -1 ? -1 : stop + n) : (stop > n - 1 ? n - 1 : stop);
      length = start > stop ? (start - stop - step - 1) / (-step) : 0;
    }
    kiln_view r = *this;
    if (length > 0) r.data = reinterpret_cast<T*>(reinterpret_cast<char*>(data) + start * strides[d]);
    r.shape[d] = length;
    r.strides[d] = strides[d] * step;
    return r;
  }
};
// A 0-d array: its data alone (as the host passes it; NVRTC takes no
// zero-length shape and strides), a[()] its one element.
template <class T> struct kiln_view<T, 0> {
  T* data;
  __device__ __forceinline__ T& element(long long offset) const {
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(data) + offset);
  }
  __device__ __forceinline__ T& at() const { return *data; }
  __device__ __forceinline__ long long size() const { return 1; }
};

// a.real / a.imag of a complex array: a view of one part of each element,
// with the array's shape and byte strides (writable, as NumPy's).
template <int Part, class T, int ND>
__device__ __forceinline__ kiln_view<T, ND> kiln_complex_part(const kiln_view<complex<T>, ND>& v) {
  kiln_view<T, ND> part;
  part.data = reinterpret_cast<T*>(v.data) + Part;
  if constexpr (ND > 0)  // a 0-d view is its data alone
    for (int d = 0; d < ND; ++d) part.shape[d] = v.shape[d], part.strides[d] = v.strides[d];
  return part;
}

// a[..., i, ...]: the view without dimension D, at index i along it.
template <int D, class T, int ND>
__device__ __forceinline__ kiln_view<T, ND - 1> kiln_drop(const kiln_view<T, ND>& a, long long i) {
  kiln_view<T, ND - 1> r;
  r.data = reinterpret_cast<T*>(reinterpret_cast<char*>(a.data) + i * a.strides[D]);
  if constexpr (ND > 1)
    for (int d = 0, k = 0; d < ND; ++d)
      if (d != D) {
        r.shape[k] = a.shape[d];
        r.strides[k++] = a.strides[d];
      }
  return r;
}

// The layout the NumPy methods reshape and view need: a C-contiguous array
// (every dimension longer than 1 at the stride of C order; any empty array).
template <class T, int ND> __device__ __forceinline__ bool kiln_c_contiguous(const kiln_view<T, ND>& a) {
  if constexpr (ND > 0) {
    long long expected = sizeof(T);
    for (int d = ND - 1; d >= 0; --d) {
      if (a.shape[d] == 0) return true;
      if (a.shape[d] != 1 && a.strides[d] != expected) return false;
      expected *= a.shape[d];
    }
  }
  return true;
}

// a.reshape(shape) of a C-contiguous array, one -1 extent inferred, as a
// view of the same memory (as Numba makes it). A shape whose size differs
// from a's, or an array that is not C-contiguous, gives an empty view: an
// exception's counterpart that cannot reach memory outside a.
template <int NEW, class T, int ND>
__device__ __forceinline__ kiln_view<T, NEW> kiln_reshape(const kiln_view<T, ND>& a, const long long (&shape)[NEW]) {
  kiln_view<T, NEW> r;
  r.data = a.data;
  long long known = 1, n = a.size();
  int unknown = -1;
  bool valid = kiln_c_contiguous(a);
  for (int d = 0; d < NEW; ++d) {
    r.shape[d] = shape[d];
    if (shape[d] >= 0) known *= shape[d];
    else if (shape[d] == -1 && unknown < 0) unknown = d;
    else valid = false;
  }
  if (unknown >= 0) {
    if (known == 0 || n % known != 0) valid = false;
    else r.shape[unknown] = n / known;
  } else if (known != n) {
    valid = false;
  }
  long long stride = sizeof(T);
  for (int d = NEW - 1; d >= 0; --d) {
    if (!valid) r.shape[d] = 0;
    r.strides[d] = stride;
    stride *= r.shape[d] > 0 ? r.shape[d] : 1;
  }
  return r;
}

// a.view(U): the same bytes as elements of U, the last dimension rescaled
// (NumPy's rule: it must be contiguous and its bytes divide into U's). Where
// they do not, an empty view.
template <class U, class T, int ND>
__device__ __forceinline__ kiln_view<U, ND> kiln_view_as(const kiln_view<T, ND>& a) {
  kiln_view<U, ND> r;
  r.data = reinterpret_cast<U*>(a.data);
  for (int d = 0; d < ND; ++d) r.shape[d] = a.shape[d], r.strides[d] = a.strides[d];
  if (sizeof(U) != sizeof(T)) {
    const long long bytes = a.shape[ND - 1] * (long long)sizeof(T);
    const bool valid = (a.shape[ND - 1] <= 1 || a.strides[ND - 1] == (long long)sizeof(T)) && bytes % sizeof(U) == 0;
    r.shape[ND - 1] = valid ? bytes / (long long)sizeof(U) : 0;
    r.strides[ND - 1] = sizeof(U);
  }
  return r;
}

// a[...] = value (a number, or an array of a's shape): every element, in C order.
template <class T, int ND> __device__ __forceinline__ T& kiln_nth(const kiln_view<T, ND>& a, long long k) {
  long long offset = 0;
  if constexpr (ND > 0)
    for (int d = ND - 1; d >= 0; --d) {
      offset += (k % a.shape[d]) * a.strides[d];
      k /= a.shape[d];
    }
  return a.element(offset);
}
template <class T, int ND, class V> __device__ __forceinline__ void kiln_assign(const kiln_view<T, ND>& a, V value) {
  for (long long k = 0, n = a.size(); k < n; ++k) kiln_nth(a, k) = (T)value;
}
template <class T, int ND, class U>
__device__ __forceinline__ void kiln_assign(const kiln_view<T, ND>& a, const kiln_view<U, ND>& b) {
  for (long long k = 0, n = a.size(); k < n; ++k) kiln_nth(a, k) = (T)kiln_nth(b, k);
}

// A contiguous view of the elements at byte `offset` from `base`, in C order
// (or Fortran's), shape given: a record's subarray field, Numba's
// carray/farray over a pointer.
template <class T, bool FOrder = false, class... Extent>
__device__ __forceinline__ kiln_view<T, sizeof...(Extent)> kiln_contiguous_view(const void* base, long long offset,
                                                                                 Extent... shape) {
  constexpr int nd = (int)sizeof...(Extent);
  kiln_view<T, nd> v;
  v.data = reinterpret_cast<T*>(const_cast<char*>(reinterpret_cast<const char*>(base)) + offset);
  const long long extents[] = {(long long)shape...};
  long long stride = sizeof(T);
  for (int k = 0; k < nd; ++k) {
    const int d = FOrder ? k : nd - 1 - k;
    v.shape[d] = extents[d];
    v.strides[d] = stride;
    stride *= extents[d];
  }
  return v;
}

// t[i] of a tuple of N items of one type (a shape), i known only when running:
// Python's negative indices; out of range is clamped (debug mode checks first).
template <class T, int N> __device__ __forceinline__ T kiln_pick(long long i, const T (&items)[N]) {
  if (i < 0) i += N;
  return items[i < 0 ? 0 : i >= N ? N - 1 : i];
}

#include "kiln/device/jit_records.cuh"  // records of structured dtypes: fields read and written in place

// A tuple of numbers (or tuples): a head, then the rest as a struct of its
// own (the layout python/kiln/_jit/types.py packs tuple arguments in).
// Converts item by item to a tuple of other types, as assignment does.
template <class... T> struct kiln_tuple;
template <> struct kiln_tuple<> {};
template <class H> struct kiln_tuple<H> {
  H head;
  kiln_tuple() = default;
  __device__ __forceinline__ explicit kiln_tuple(H h) : head(h) {}
  template <class H2> __device__ __forceinline__ kiln_tuple(const kiln_tuple<H2>& o) : head((H)o.head) {}
};
template <class H, class... R> struct kiln_tuple<H, R...> {
  H head;
  kiln_tuple<R...> rest;
  kiln_tuple() = default;
  __device__ __forceinline__ kiln_tuple(H h, kiln_tuple<R...> r) : head(h), rest(r) {}
  template <class H2, class... R2>
  __device__ __forceinline__ kiln_tuple(const kiln_tuple<H2, R2...>& o) : head((H)o.head), rest(o.rest) {}
};
template <class H> __device__ __forceinline__ kiln_tuple<H> kiln_make_tuple(H h) { return kiln_tuple<H>(h); }
template <class H, class... R> __device__ __forceinline__ kiln_tuple<H, R...> kiln_make_tuple(H h, R... r) {
  return kiln_tuple<H, R...>(h, kiln_make_tuple(r...));
}
// A tuple literal's items computed left to right, as Python computes them
// (a braced list is sequenced, a call's arguments are not: random draws and
// other calls with effects keep their order).
template <class... T> struct kiln_tuple_of {
  kiln_tuple<T...> value;
  __device__ __forceinline__ kiln_tuple_of(T... v) : value(kiln_make_tuple(v...)) {}
};
template <class... T> kiln_tuple_of(T...) -> kiln_tuple_of<T...>;
template <int I> struct kiln_tuple_item {
  template <class T> static __device__ __forceinline__ auto get(const T& t) { return kiln_tuple_item<I - 1>::get(t.rest); }
};
template <> struct kiln_tuple_item<0> {
  template <class T> static __device__ __forceinline__ auto get(const T& t) { return t.head; }
};
#define kiln_get(I, t) (kiln_tuple_item<I>::get(t))

__device__ __forceinline__ long long kiln_wrap(long long i, long long n) { return i < 0 ? i + n : i; }

// Python's // and % on integers round toward negative infinity.
template <class T> __device__ __forceinline__ T kiln_floordiv(T a, T b) {
  if (b == 0) return 0;
  T q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T> __device__ __forceinline__ T kiln_mod(T a, T b) {
  if (b == 0) return 0;
  T r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
// NumPy's datetime64 and timedelta64 in kernels: int64 counts of a unit,
// NaT the smallest int64. Each operand is scaled to the result's unit
// (`fa`, `fb`; an integer operand by 1, and it cannot be NaT: `b_time` false);
// arithmetic with NaT gives NaT, comparisons with it are false but !=.
#define KILN_NAT (-9223372036854775807LL - 1)
enum kiln_time_op { kiln_time_add, kiln_time_sub, kiln_time_mul, kiln_time_floordiv, kiln_time_mod };
template <int Op>
__device__ __forceinline__ long long kiln_time_arith(long long a, bool a_time, long long fa, long long b, bool b_time,
                                                     long long fb) {
  if ((a_time && a == KILN_NAT) || (b_time && b == KILN_NAT)) return KILN_NAT;
  a *= fa;
  b *= fb;
  switch (Op) {
    case kiln_time_add: return a + b;
    case kiln_time_sub: return a - b;
    case kiln_time_mul: return a * b;
    case kiln_time_floordiv: return b == 0 ? 0 : kiln_floordiv(a, b);
    default: return b == 0 ? KILN_NAT : kiln_mod(a, b);
  }
}
// timedelta / timedelta: a float64, NaN where either is NaT.
__device__ __forceinline__ double kiln_time_ratio(long long a, long long fa, long long b, long long fb) {
  if (a == KILN_NAT || b == KILN_NAT) return __longlong_as_double(0x7ff8000000000000LL);
  return (double)(a * fa) / (double)(b * fb);
}
// Comparison Op (0 ==, 1 !=, 2 <, 3 <=, 4 >, 5 >=) of two times in a common unit.
template <int Op>
__device__ __forceinline__ bool kiln_time_compare(long long a, long long fa, long long b, long long fb) {
  if (a == KILN_NAT || b == KILN_NAT) return Op == 1;
  a *= fa;
  b *= fb;
  switch (Op) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}
__device__ __forceinline__ float kiln_fmod(float a, float b) { return a - floorf(a / b) * b; }
__device__ __forceinline__ double kiln_fmod(double a, double b) { return a - floor(a / b) * b; }
template <class T> __device__ __forceinline__ T kiln_ipow(T base, long long e) {
  if (e < 0) return base == 1 ? 1 : 0;
  T r = 1;
  for (; e; e >>= 1, base *= base)
    if (e & 1) r *= base;
  return r;
}
// round(x, ndigits): scaled by a power of ten, rounded half to even, scaled
// back; x itself where scaling overflows (as Numba computes it).
// round(x, ndigits): CPython's float.__round__ steps, in double whatever x's
// type (as Numba computes it: a float32 is rounded from its exact value, not
// from x * 10**n rounded to float32 first), the result in x's type.
template <class T> __device__ __forceinline__ T kiln_round_digits(T value, long long ndigits) {
  const double x = (double)value;
  if (x - x != x - x) return value;  // inf or nan
  double pow1 = 1.0, pow2 = 1.0, y;
  if (ndigits >= 0) {
    if (ndigits > 22) pow1 = pow(10.0, (double)(ndigits - 22)), pow2 = 1e22;  // 10**n exact in two steps
    else pow1 = pow(10.0, (double)ndigits);
    y = (x * pow1) * pow2;
    if (y - y != y - y) return value;  // too many digits to matter
  } else {
    pow1 = pow(10.0, (double)-ndigits);
    y = x / pow1;
  }
  double z = rint(y);  // ties to even
  z = ndigits >= 0 ? (z / pow2) / pow1 : z * pow1;
  return z - z != z - z ? value : (T)z;
}
// math.modf: (fractional part, integral part).
template <class T> __device__ __forceinline__ kiln_tuple<T, T> kiln_modf(T x) {
  T whole;
  const T fraction = modf(x, &whole);
  return kiln_make_tuple(fraction, whole);
}
// math.frexp: (mantissa, exponent); the exponent of inf and NaN is 0, as Numba gives it.
template <class T> __device__ __forceinline__ kiln_tuple<T, int> kiln_frexp(T x) {
  int exponent = 0;
  const T mantissa = frexp(x, &exponent);
  return kiln_make_tuple(mantissa, (x - x == x - x) ? exponent : 0);
}
template <class T> __device__ __forceinline__ bool kiln_isnan(T x) { return x != x; }
template <class T> __device__ __forceinline__ bool kiln_isinf(T x) { return x == x && (x - x) != (x - x); }
template <class T> __device__ __forceinline__ bool kiln_isfinite(T x) { return (x - x) == (x - x); }
template <class T> __device__ __forceinline__ bool kiln_isnan(complex<T> z) { return z.re != z.re || z.im != z.im; }
template <class T> __device__ __forceinline__ bool kiln_isinf(complex<T> z) { return kiln_isinf(z.re) || kiln_isinf(z.im); }
template <class T> __device__ __forceinline__ bool kiln_isfinite(complex<T> z) {
  return kiln_isfinite(z.re) && kiln_isfinite(z.im);
}
__device__ __forceinline__ double kiln_double_bits(unsigned long long bits) {
  union { unsigned long long u; double d; } v;
  v.u = bits;
  return v.d;
}

// Atomics on any 32- or 64-bit element: the native instruction where CUDA
// has one, otherwise a compare-and-swap loop.
template <int Size> struct kiln_word;
template <> struct kiln_word<4> { typedef unsigned int type; };
template <> struct kiln_word<8> { typedef unsigned long long type; };
template <class To, class From> __device__ __forceinline__ To kiln_reinterpret(From x) {
  union { From from; To to; } v;
  v.from = x;
  return v.to;
}
#include "kiln/device/jit_bfloat16.cuh"  // bfloat16: Numba's numba.cuda.bf16
template <class T, class F> __device__ __forceinline__ T kiln_atomic_update(T* p, F f) {
  typedef typename kiln_word<sizeof(T)>::type W;
  W* address = reinterpret_cast<W*>(p);
  W old = *address, assumed;
  do {
    assumed = old;
    old = atomicCAS(address, assumed, kiln_reinterpret<W>(f(kiln_reinterpret<T>(assumed))));
  } while (assumed != old);
  return kiln_reinterpret<T>(old);
}
template <class T> __device__ __forceinline__ T kiln_atomic_add(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return (T)(x + v); });
}
__device__ __forceinline__ int kiln_atomic_add(int* p, int v) { return atomicAdd(p, v); }
__device__ __forceinline__ unsigned kiln_atomic_add(unsigned* p, unsigned v) { return atomicAdd(p, v); }
__device__ __forceinline__ unsigned long long kiln_atomic_add(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, v);
}
__device__ __forceinline__ long long kiln_atomic_add(long long* p, long long v) {
  return (long long)atomicAdd(reinterpret_cast<unsigned long long*>(p), (unsigned long long)v);
}
__device__ __forceinline__ float kiln_atomic_add(float* p, float v) { return atomicAdd(p, v); }
__device__ __forceinline__ double kiln_atomic_add(double* p, double v) { return atomicAdd(p, v); }
template <class T> __device__ __forceinline__ T kiln_atomic_sub(T* p, T v) { return kiln_atomic_add(p, (T)(0 - v)); }
// max/min leave the element as it is when it or the value is NaN; nanmax/
// nanmin treat NaN as missing: a NaN value changes nothing, a NaN element is
// replaced (Numba's semantics for its atomics).
template <class T> __device__ __forceinline__ T kiln_atomic_max(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return x < v ? v : x; });
}
template <class T> __device__ __forceinline__ T kiln_atomic_min(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return v < x ? v : x; });
}
template <class T> __device__ __forceinline__ T kiln_atomic_nanmax(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return x < v || (kiln_isnan(x) && !kiln_isnan(v)) ? v : x; });
}
template <class T> __device__ __forceinline__ T kiln_atomic_nanmin(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return v < x || (kiln_isnan(x) && !kiln_isnan(v)) ? v : x; });
}
template <class T> __device__ __forceinline__ T kiln_atomic_and(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return (T)(x & v); });
}
template <class T> __device__ __forceinline__ T kiln_atomic_or(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return (T)(x | v); });
}
template <class T> __device__ __forceinline__ T kiln_atomic_xor(T* p, T v) {
  return kiln_atomic_update(p, [v](T x) { return (T)(x ^ v); });
}
template <class T> __device__ __forceinline__ T kiln_atomic_exch(T* p, T v) {
  return kiln_atomic_update(p, [v](T) { return v; });
}
template <class T> __device__ __forceinline__ T kiln_atomic_inc(T* p, T limit) {
  return kiln_atomic_update(p, [limit](T x) { return x >= limit ? (T)0 : (T)(x + 1); });
}
template <class T> __device__ __forceinline__ T kiln_atomic_dec(T* p, T limit) {
  return kiln_atomic_update(p, [limit](T x) { return (x == 0 || x > limit) ? limit : (T)(x - 1); });
}
template <class T> __device__ __forceinline__ T kiln_atomic_cas(T* p, T compare, T value) {
  typedef typename kiln_word<sizeof(T)>::type W;
  return kiln_reinterpret<T>(atomicCAS(reinterpret_cast<W*>(p), kiln_reinterpret<W>(compare), kiln_reinterpret<W>(value)));
}

// Numba's warp functions beyond CUDA's names: match_all_sync's (mask, all
// equal) and the lanes below this one.
template <class T> __device__ __forceinline__ kiln_tuple<unsigned, bool> kiln_match_all(unsigned mask, T value) {
  int all = 0;
  const unsigned lanes = __match_all_sync(mask, value, &all);
  return kiln_make_tuple(lanes, all != 0);
}
__device__ __forceinline__ unsigned kiln_lanemask_lt() {
  const unsigned lane = (threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) & 31;
  return (1u << lane) - 1u;
}

// Debug mode's record of the first raise, failed assert or out-of-bounds
// index of a launch: the exception's code (python/kiln/_jit/dispatcher.py's
// table), the block and the thread, and for an index the axis, the index
// and the extent it broke. A module in debug mode defines one, kiln_jit_error.
struct kiln_jit_error_t {
  int raised, code;
  unsigned block[3], thread[3];
  int axis;
  long long index, extent;
};
__device__ __forceinline__ void kiln_jit_record(kiln_jit_error_t* record, int code, int axis = -1,
                                                long long index = 0, long long extent = 0) {
  if (atomicCAS(&record->raised, 0, 1) != 0) return;  // the first one is reported
  record->code = code;
  record->block[0] = blockIdx.x, record->block[1] = blockIdx.y, record->block[2] = blockIdx.z;
  record->thread[0] = threadIdx.x, record->thread[1] = threadIdx.y, record->thread[2] = threadIdx.z;
  record->axis = axis, record->index = index, record->extent = extent;
}

// Debug mode's bounds checks. An index outside [0, extent) is recorded and
// the access goes elsewhere, so the kernel finishes without touching memory
// it should not and the host raises IndexError: a C array's element 0, a
// view's stand-in element (kiln_jit_scratch), a dropped dimension's empty view.
__device__ __forceinline__ long long kiln_jit_check(kiln_jit_error_t* record, int code, int axis, long long i,
                                                    long long extent) {
  if (i >= 0 && i < extent) return i;
  kiln_jit_record(record, code, axis, i, extent);
  return 0;
}
__device__ unsigned long long kiln_jit_scratch[4];  // what out-of-bounds accesses read and write
template <class T, int ND, class... I>
__device__ __forceinline__ T& kiln_jit_checked_at(kiln_jit_error_t* record, int code, const kiln_view<T, ND>& a,
                                                   I... index) {
  if constexpr (sizeof...(I) == 0) {
    return a.at();  // a 0-d array's a[()]: nothing to check
  } else {
    const long long at[] = {(long long)index...};
    long long offset = 0;
    for (int d = 0; d < (int)sizeof...(I); ++d) {
      if (at[d] < 0 || at[d] >= a.shape[d]) {
        kiln_jit_record(record, code, d, at[d], a.shape[d]);
        return *reinterpret_cast<T*>(kiln_jit_scratch);
      }
      offset += at[d] * a.strides[d];
    }
    return a.element(offset);
  }
}
template <int D, class T, int ND>
__device__ __forceinline__ kiln_view<T, ND - 1> kiln_jit_checked_drop(kiln_jit_error_t* record, int code,
                                                                       const kiln_view<T, ND>& a, long long i) {
  if (i >= 0 && i < a.shape[D]) return kiln_drop<D>(a, i);
  kiln_jit_record(record, code, D, i, a.shape[D]);
  kiln_view<T, ND - 1> empty = kiln_drop<D>(a, 0);
  if constexpr (ND > 1)
    for (int d = 0; d < ND - 1; ++d) empty.shape[d] = 0;
  return empty;
}

// complex(re, im) as CPython builds it (complex_new): real parts stand as
// they are, with no multiplication by 1j (which turns inf + nan j into nan +
// nan j and -0.0 into 0.0); a complex argument adds its other part.
__device__ __forceinline__ complex<double> kiln_python_complex(double re, double im) { return complex<double>(re, im); }
template <class T> __device__ __forceinline__ complex<double> kiln_python_complex(complex<T> re, double im) {
  return complex<double>(re.re, im + re.im);
}
template <class T> __device__ __forceinline__ complex<double> kiln_python_complex(double re, complex<T> im) {
  return complex<double>(re - im.im, im.re);
}
template <class T, class U>
__device__ __forceinline__ complex<double> kiln_python_complex(complex<T> re, complex<U> im) {
  return complex<double>(re.re - im.im, im.re + re.im);
}

#define KILN_JIT_ERROR_RECORD __device__ kiln_jit_error_t kiln_jit_error;

// The heads of translated kernels and of the device functions they call.
// cuda.jit's kernels have C++ linkage inside namespace kiln_jit and are found
// by name expression, so a kernel may be named like a C library function
// (div, exp); vectorize's and guvectorize's, named by kiln, are extern "C".
#ifdef __CUDA_ARCH__
#define KILN_JIT_NAMED_KERNEL __global__ void
#else
// On the CPU only the kernel's entry point (kiln_host::run_grid) calls it,
// inlined there: with internal linkage no copy of its own is compiled (about
// 3 ms of a small kernel's compile on the 2-core machine, each function).
#define KILN_JIT_NAMED_KERNEL static void
#endif
#define KILN_JIT_KERNEL extern "C" __global__ void
#define KILN_JIT_DEVICE_FUNCTION __device__ __forceinline__

// Numba's calling convention for declare_device functions passes the result
// slot as the first argument, and the linked C code may spell that
// pointer's type otherwise (unsigned int* for an int32 result), which no
// linker checks: the slot converts to whatever pointer the function takes.
struct kiln_result_slot {
  void* address;
  template <class T>
  __device__ operator T*() const { return static_cast<T*>(address); }
};
// A recursive one cannot be inlined into itself: a call (the GPU's stack).
#define KILN_JIT_RECURSIVE_DEVICE_FUNCTION static __device__
// A device function compile_ptx shows on its own, with C linkage.
#define KILN_JIT_EXPORTED_DEVICE_FUNCTION extern "C" __device__
