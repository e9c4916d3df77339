// NumPy's whole-array reductions called inside cuda.jit kernels (np.sum(a),
// np.nanmax(a), np.count_nonzero(a)...): one thread walks the whole array, in
// C order, with NumPy's NaN rules and result types (chosen by
// python/kiln/_jit/constructs/array_reductions.py). Small arrays are what a
// thread reduces; whole-array reductions across threads are kiln's own ops.
#pragma once

// Each element of `a`, in C order (jit_support.cuh's kiln_nth).
template <class T, int ND, class F>
__device__ __forceinline__ void kiln_for_each(const kiln_view<T, ND>& a, F f) {
  for (long long k = 0, n = a.size(); k < n; ++k) f(kiln_nth(a, k));
}

template <class R, class T, int ND>
__device__ R kiln_array_sum(const kiln_view<T, ND>& a, bool skip_nan) {
  R s = R(0);
  kiln_for_each(a, [&](const T& x) {
    if (!(skip_nan && kiln_isnan(x))) s = s + R(x);
  });
  return s;
}

template <class R, class T, int ND>
__device__ R kiln_array_prod(const kiln_view<T, ND>& a, bool skip_nan) {
  R p = R(1);
  kiln_for_each(a, [&](const T& x) {
    if (!(skip_nan && kiln_isnan(x))) p = p * R(x);
  });
  return p;
}

template <class T, int ND>
__device__ long long kiln_array_count(const kiln_view<T, ND>& a, bool skip_nan) {
  long long n = 0;
  kiln_for_each(a, [&](const T& x) { n += !(skip_nan && kiln_isnan(x)); });
  return n;
}

template <class T, int ND>
__device__ long long kiln_array_count_nonzero(const kiln_view<T, ND>& a) {
  long long n = 0;
  kiln_for_each(a, [&](const T& x) { n += x != T(0); });
  return n;
}

template <class T, int ND>
__device__ bool kiln_array_all(const kiln_view<T, ND>& a) {
  bool all = true;
  kiln_for_each(a, [&](const T& x) { all = all && x != T(0); });
  return all;
}

template <class T, int ND>
__device__ bool kiln_array_any(const kiln_view<T, ND>& a) {
  bool any = false;
  kiln_for_each(a, [&](const T& x) { any = any || x != T(0); });
  return any;
}

// max (largest) or min; a NaN is the result (NumPy's max/min), or is
// skipped (nanmax/nanmin: NaN only when every element is).
// Whether x comes before y in NumPy's order: numbers as they compare,
// complex numbers by their real parts, then their imaginary parts.
template <class T> __device__ __forceinline__ bool kiln_before(T x, T y) { return x < y; }
template <class T> __device__ __forceinline__ bool kiln_before(complex<T> x, complex<T> y) {
  return x.re < y.re || (x.re == y.re && x.im < y.im);
}

// np.argmax / np.argmin of the whole array: the C-order index of the first
// largest (smallest) element, or of the first NaN where there is one, as
// NumPy's; -1 for an empty array (the caller raises).
template <class T, int ND>
__device__ long long kiln_array_arg_extreme(const kiln_view<T, ND>& a, bool largest) {
  T best = T(0);
  long long at = -1;
  for (long long k = 0, n = a.size(); k < n; ++k) {
    const T x = kiln_nth(a, k);
    if (kiln_isnan(x)) return k;
    if (at < 0 || (largest ? kiln_before(best, x) : kiln_before(x, best))) best = x, at = k;
  }
  return at;
}

template <class T, int ND>
__device__ T kiln_array_extreme(const kiln_view<T, ND>& a, bool largest, bool skip_nan) {
  bool found = false, nan = false;
  T best = T(0), a_nan = T(0);
  kiln_for_each(a, [&](const T& x) {
    if (kiln_isnan(x)) {
      nan = true, a_nan = x;
    } else if (!found || (largest ? kiln_before(best, x) : kiln_before(x, best))) {
      best = x, found = true;
    }
  });
  return nan && (!skip_nan || !found) ? a_nan : best;
}

// The mean, and the variance with NumPy's steps: the mean first, then the
// mean of the squared distances from it (ddof 0), skipping NaNs for nanvar.
template <class R, class T, int ND>
__device__ R kiln_array_mean(const kiln_view<T, ND>& a, bool skip_nan) {
  return kiln_array_sum<R>(a, skip_nan) / R(kiln_array_count(a, skip_nan));
}

// The variance of complex numbers (M, the mean's complex type): the mean of
// the squared magnitudes of the distances from the mean, a real number.
template <class M, class T, int ND>
__device__ decltype(M().re) kiln_array_complex_var(const kiln_view<T, ND>& a, bool skip_nan) {
  using R = decltype(M().re);
  const M mean = kiln_array_mean<M>(a, skip_nan);
  R s = R(0);
  kiln_for_each(a, [&](const T& x) {
    if (skip_nan && kiln_isnan(x)) return;
    const M d = M(x) - mean;
    s = s + d.re * d.re + d.im * d.im;
  });
  return s / R(kiln_array_count(a, skip_nan));
}

template <class R, class T, int ND>
__device__ R kiln_array_var(const kiln_view<T, ND>& a, bool skip_nan) {
  const R mean = kiln_array_mean<R>(a, skip_nan);
  R s = R(0);
  kiln_for_each(a, [&](const T& x) {
    if (skip_nan && kiln_isnan(x)) return;
    const R d = R(x) - mean;
    s = s + d * d;
  });
  return s / R(kiln_array_count(a, skip_nan));
}
