#pragma once
// Whole-array expressions of @njit functions (python/kiln/_jit/constructs/
// array_expressions.py): a fused tree of ufuncs over arrays and numbers, run
// into a new array of the operands' broadcast shape. Operands that are
// numbers or C-contiguous arrays of that very shape are read by one linear
// index (the loop the host compiler vectorises); others through
// kiln_ufunc_loop's broadcasting walk. Host entries only, as the arrays come
// from jit_heap_arrays.cuh.
#include "kiln/device/jit_heap_arrays.cuh"
#include "kiln/device/jit_ufuncs.cuh"

// Folds an operand's extents into `shape` (NumPy's broadcasting: aligned at
// the right, a length-1 extent repeats); false where two extents clash.
template <class X, int ND> bool kiln_broadcast_into(long long (&)[ND], const X&) { return true; }
template <class T, int NA, int ND> bool kiln_broadcast_into(long long (&shape)[ND], const kiln_view<T, NA>& a) {
  static_assert(NA <= ND, "an operand has more dimensions than the expression");
  for (int d = 0; d < NA; ++d) {
    long long& extent = shape[ND - NA + d];
    const long long e = a.shape[d];
    if (e == 1) continue;
    if (extent == 1)
      extent = e;
    else if (extent != e)
      return false;
  }
  return true;
}

// Whether an operand can be read at a linear index over `shape`: a number,
// or a C-contiguous array of exactly that shape.
template <class X, int ND> bool kiln_linear(const X&, const long long (&)[ND]) { return true; }
template <class T, int NA, int ND> bool kiln_linear(const kiln_view<T, NA>& a, const long long (&shape)[ND]) {
  if (NA != ND) return false;
  long long stride = (long long)sizeof(T);
  for (int d = ND - 1; d >= 0; --d) {
    if (a.shape[d] != shape[d]) return false;
    if (shape[d] != 1 && a.strides[d] != stride) return false;
    stride *= shape[d];
  }
  return true;
}
template <class X> X kiln_linear_at(X x, long long) { return x; }
template <class T, int NA> T kiln_linear_at(const kiln_view<T, NA>& a, long long k) { return a.data[k]; }

// A new array of R: f of the operands at each element. Operands that do not
// broadcast are NumPy's ValueError, recorded (`code`), and the result empty.
template <class R, int ND, bool Parallel, class F, class... A>
kiln_view<R, ND> kiln_elementwise(kiln_jit_error_t* record, int code, F f, const A&... args) {
  long long shape[ND];
  for (int d = 0; d < ND; ++d) shape[d] = 1;
  if (!(kiln_broadcast_into(shape, args) && ...)) {
    if (record && code) kiln_jit_record(record, code);
    for (int d = 0; d < ND; ++d) shape[d] = 0;
  }
  kiln_view<R, ND> out = kiln_heap_array<R, ND>(shape, nullptr, 0);
  if ((kiln_linear(args, shape) && ...)) {
    R* o = out.data;
    const long long n = out.size();
#pragma omp parallel for schedule(static) if (Parallel && n >= 65536)
    for (long long k = 0; k < n; ++k) o[k] = (R)f(kiln_linear_at(args, k)...);
    return out;
  }
  return kiln_ufunc_loop(out, f, args...);
}

// target[...] = value, value broadcast to the target's shape (a number or
// an array; an array expression is computed whole before it is stored).
// A value whose extents do not fit is NumPy's ValueError, recorded (`code`),
// and nothing stored.
template <class T> struct kiln_identity {
  template <class X> T operator()(X x) const { return (T)x; }
};
template <class T, int ND, class V>
void kiln_broadcast_assign(kiln_jit_error_t* record, int code, const kiln_view<T, ND>& target, const V& value) {
  long long shape[ND];
  for (int d = 0; d < ND; ++d) shape[d] = target.shape[d];
  bool fits = kiln_broadcast_into(shape, value);
  for (int d = 0; d < ND; ++d) fits = fits && shape[d] == target.shape[d];
  if (!fits) {
    if (record && code) kiln_jit_record(record, code);
    return;
  }
  kiln_ufunc_loop(target, kiln_identity<T>(), value);
}

// a[mask] with a boolean array of a's shape: the selected elements, in C
// order, as a new array; a mask of another shape is NumPy's IndexError.
template <class T, class M, int ND>
bool kiln_mask_fits(const kiln_view<T, ND>& a, const kiln_view<M, ND>& mask, kiln_jit_error_t* record, int code) {
  for (int d = 0; d < ND; ++d)
    if (a.shape[d] != mask.shape[d]) {
      if (record && code) kiln_jit_record(record, code);
      return false;
    }
  return true;
}
template <class M, int ND> long long kiln_mask_count(const kiln_view<M, ND>& mask) {
  long long count = 0;
  for (long long k = 0, n = mask.size(); k < n; ++k) count += kiln_nth(mask, k) ? 1 : 0;
  return count;
}
template <class T, class M, int ND>
kiln_view<T, 1> kiln_masked_read(const kiln_view<T, ND>& a, const kiln_view<M, ND>& mask, kiln_jit_error_t* record,
                                 int code) {
  const bool fits = kiln_mask_fits(a, mask, record, code);
  const long long n = fits ? a.size() : 0;
  const long long shape[1] = {fits ? kiln_mask_count(mask) : 0};
  kiln_view<T, 1> out = kiln_heap_array<T, 1>(shape, nullptr, 0);
  for (long long k = 0, j = 0; k < n; ++k)
    if (kiln_nth(mask, k)) out.data[j++] = kiln_nth(a, k);
  return out;
}
// a[mask] = value: a number into every selected element, or a 1-d array's
// elements in turn (NumPy's ValueError where it holds fewer or more).
template <class T, class M, int ND, class V>
void kiln_masked_store(const kiln_view<T, ND>& a, const kiln_view<M, ND>& mask, const V& value,
                       kiln_jit_error_t* record, int code) {
  if (!kiln_mask_fits(a, mask, record, code)) return;
  for (long long k = 0, n = a.size(); k < n; ++k)
    if (kiln_nth(mask, k)) kiln_nth(a, k) = (T)value;
}
template <class T, class M, int ND, class U>
void kiln_masked_store(const kiln_view<T, ND>& a, const kiln_view<M, ND>& mask, const kiln_view<U, 1>& values,
                       kiln_jit_error_t* record, int code) {
  if (!kiln_mask_fits(a, mask, record, code)) return;
  if (kiln_mask_count(mask) != values.shape[0]) {
    if (record && code) kiln_jit_record(record, code);
    return;
  }
  for (long long k = 0, j = 0, n = a.size(); k < n; ++k)
    if (kiln_nth(mask, k)) kiln_nth(a, k) = (T)values.at(j++);
}
