#pragma once
// Inner loops of elementwise kernels. A functor F supplies the scalar
// semantics (`F::call`); the loop supplies contiguous fast paths the compiler
// vectorises and a strided fallback. `Register*` put one (op, dtype) entry
// per element type into the kernel table.
#include "kiln/registry.hpp"
#include "strided_loop.hpp"
#include "types.hpp"
#include "vector_clones.hpp"

namespace kiln::cpu {

template <class F, class T>
using unary_result_t = decltype(F::call(T{}));
template <class F, class T>
using binary_result_t = decltype(F::call(T{}, T{}));

template <class F, class T>
KILN_VECTOR_CLONES void unary_loop(char* const* d, const int64_t* s, int64_t n) {
  using R = unary_result_t<F, T>;
  if (s[0] == sizeof(T) && s[1] == sizeof(R)) {
    const T* x = reinterpret_cast<const T*>(d[0]);
    R* y = reinterpret_cast<R*>(d[1]);
    for (int64_t i = 0; i < n; ++i) y[i] = F::call(x[i]);
    return;
  }
  const char* x = d[0];
  char* y = d[1];
  for (int64_t i = 0; i < n; ++i, x += s[0], y += s[1])
    *reinterpret_cast<R*>(y) = F::call(*reinterpret_cast<const T*>(x));
}

template <class F, class T>
KILN_VECTOR_CLONES void binary_loop(char* const* d, const int64_t* s, int64_t n) {
  using R = binary_result_t<F, T>;
  const T* a = reinterpret_cast<const T*>(d[0]);
  const T* b = reinterpret_cast<const T*>(d[1]);
  R* y = reinterpret_cast<R*>(d[2]);
  if (s[2] == sizeof(R)) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      for (int64_t i = 0; i < n; ++i) y[i] = F::call(a[i], b[i]);
      return;
    }
    if (s[0] == sizeof(T) && s[1] == 0) {
      const T bv = *b;
      for (int64_t i = 0; i < n; ++i) y[i] = F::call(a[i], bv);
      return;
    }
    if (s[0] == 0 && s[1] == sizeof(T)) {
      const T av = *a;
      for (int64_t i = 0; i < n; ++i) y[i] = F::call(av, b[i]);
      return;
    }
  }
  const char* pa = d[0];
  const char* pb = d[1];
  char* py = d[2];
  for (int64_t i = 0; i < n; ++i, pa += s[0], pb += s[1], py += s[2])
    *reinterpret_cast<R*>(py) =
        F::call(*reinterpret_cast<const T*>(pa), *reinterpret_cast<const T*>(pb));
}

// Ternary ops: clip(x, lo, hi) with all operands T; where(cond, x, y) with a
// bool first operand (F::Cond says which).
template <class F, class T>
void ternary_loop(char* const* d, const int64_t* s, int64_t n) {
  using C = typename F::template first_operand<T>;
  const char* p0 = d[0];
  const char* p1 = d[1];
  const char* p2 = d[2];
  char* py = d[3];
  if (s[0] == sizeof(C) && s[1] == sizeof(T) && s[2] == sizeof(T) && s[3] == sizeof(T)) {
    const C* x0 = reinterpret_cast<const C*>(p0);
    const T* x1 = reinterpret_cast<const T*>(p1);
    const T* x2 = reinterpret_cast<const T*>(p2);
    T* y = reinterpret_cast<T*>(py);
    for (int64_t i = 0; i < n; ++i) y[i] = F::call(x0[i], x1[i], x2[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i, p0 += s[0], p1 += s[1], p2 += s[2], py += s[3])
    *reinterpret_cast<T*>(py) = F::call(*reinterpret_cast<const C*>(p0), *reinterpret_cast<const T*>(p1),
                                        *reinterpret_cast<const T*>(p2));
}

template <InnerLoop Loop, int64_t Grain>
void run_loop(const StridedArgs& args) {
  run_strided(args, Loop, Grain);
}

template <class F, int64_t Grain = kCheapGrain, class... Ts>
void register_unary(KernelTable& t, OpId op, TypeList<Ts...>) {
  ((t.elementwise[static_cast<int>(op)][dtype_index<Ts>] = &run_loop<&unary_loop<F, Ts>, Grain>), ...);
}
template <class F, int64_t Grain = kCheapGrain, class... Ts>
void register_binary(KernelTable& t, OpId op, TypeList<Ts...>) {
  ((t.elementwise[static_cast<int>(op)][dtype_index<Ts>] = &run_loop<&binary_loop<F, Ts>, Grain>), ...);
}
template <class F, int64_t Grain = kCheapGrain, class... Ts>
void register_ternary(KernelTable& t, OpId op, TypeList<Ts...>) {
  ((t.elementwise[static_cast<int>(op)][dtype_index<Ts>] = &run_loop<&ternary_loop<F, Ts>, Grain>), ...);
}

}  // namespace kiln::cpu
