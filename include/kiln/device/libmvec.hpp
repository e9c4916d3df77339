// The math functions loops on the CPU vectorise through glibc's libmvec.
//
// glibc's vector variants of one function (SSE's _ZGVb, AVX's _ZGVc, AVX2's
// _ZGVd, AVX-512's _ZGVe) and the C library's scalar function each round
// their own way: on 2^20 random floats sinf's vector variants disagreed in
// 93,278 places, the scalar sinf and the AVX-512 variant in 235,255. A loop
// GCC vectorises calls one variant in its body, narrower ones in its last
// partial vectors and the scalar function where it does not vectorise (a
// strided loop), so an element's value depended on its place in the loop
// and on its operands' layout, and a fused kernel's on which of its leaves
// were strided.
//
// So kiln's ops (ops.cuh, through KILN_MVEC) call the kiln_mvec_* wrappers
// declared here: each of their forms (the scalar function and the vector
// variants GCC calls for a `simd` declaration) computes through the one
// variant the process picks when it loads (AVX-512's on an x86-64-v4 CPU,
// else AVX2's, else SSE's), so an evaluation gives the same bits for
// the same input wherever it runs: kiln's loops (src/cpu/math_kernels.cpp)
// and generated kernels (fused.cuh) alike. A narrower form fills the chosen
// width with zeros; the scalar form costs one vector call. The definitions
// are compiled where KILN_LIBMVEC_DEFINITIONS precedes this header: into
// libkiln (src/cpu/libmvec_wrappers.cpp) and into the runtime object
// generated kernels link (host_compiler.cpp's kRuntimeDefinitions).
#pragma once
#define KILN_LIBMVEC_UNARY(X)                                                                      \
  X(sqrt) X(cbrt) X(exp) X(exp2) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) \
  X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)
// Those libmvec has (not sqrt: a vector sqrt is an instruction, and every
// sqrt rounds correctly), and its binary ones kiln uses.
#define KILN_LIBMVEC_WRAPPED_UNARY(X)                                                                     \
  X(cbrt) X(exp) X(exp2) X(expm1) X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) \
  X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)
#define KILN_LIBMVEC_WRAPPED_BINARY(X) X(atan2) X(hypot)

#if !defined(__CUDA_ARCH__) && defined(KILN_HAVE_LIBMVEC) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define KILN_MVEC_WRAPPED 1
// The function kiln's ops call: kiln_mvec_<fn> where the wrappers exist.
#define KILN_MVEC(fn) kiln_mvec_##fn
#ifdef KILN_LIBMVEC_DEFINITIONS
// GCC would build the vector variants of a `simd` function it sees defined;
// the definitions below are the variants.
#define KILN_MVEC_SIMD
#else
#define KILN_MVEC_SIMD __attribute__((simd("notinbranch")))
#endif
// Hidden: each library that calls them (libkiln, each generated kernel's)
// has its own, called without the PLT. Const: no memory or errno touched.
#pragma GCC visibility push(hidden)
extern "C" {
#define KILN_MVEC_DECLARE_UNARY(fn)                                                  \
  KILN_MVEC_SIMD __attribute__((const)) float kiln_mvec_##fn##f(float) noexcept; \
  KILN_MVEC_SIMD __attribute__((const)) double kiln_mvec_##fn(double) noexcept;
#define KILN_MVEC_DECLARE_BINARY(fn)                                                        \
  KILN_MVEC_SIMD __attribute__((const)) float kiln_mvec_##fn##f(float, float) noexcept; \
  KILN_MVEC_SIMD __attribute__((const)) double kiln_mvec_##fn(double, double) noexcept;
KILN_LIBMVEC_WRAPPED_UNARY(KILN_MVEC_DECLARE_UNARY)
KILN_LIBMVEC_WRAPPED_BINARY(KILN_MVEC_DECLARE_BINARY)
#undef KILN_MVEC_DECLARE_UNARY
#undef KILN_MVEC_DECLARE_BINARY
}
#pragma GCC visibility pop
inline float kiln_mvec_sqrtf(float x) noexcept { return __builtin_sqrtf(x); }
inline double kiln_mvec_sqrt(double x) noexcept { return __builtin_sqrt(x); }
#else
#define KILN_MVEC(fn) fn
#endif

#if defined(KILN_MVEC_WRAPPED) && defined(KILN_LIBMVEC_DEFINITIONS)
#include <immintrin.h>

namespace kiln_mvec {
// 3: AVX-512 (glibc's _ZGVe variants), 2: AVX2 (_ZGVd), 1: SSE (_ZGVb): the
// variant the bodies of GCC's loops call on this CPU (kiln's x86-64-v4 and
// v3 clones, and generated kernels built for the same level), so that the
// wrappers cost those loops nothing but a call.
static const int level = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("x86-64-v4") ? 3 : __builtin_cpu_supports("avx2") ? 2 : 1;
}();
}  // namespace kiln_mvec

// Parameter lists and arguments of unary (1) and binary (2) functions.
#define KILN_MVEC_TYPES_1(V) V
#define KILN_MVEC_TYPES_2(V) V, V
#define KILN_MVEC_PARAMS_1(V) V x
#define KILN_MVEC_PARAMS_2(V) V x, V y
#define KILN_MVEC_ARGS_1(f) f(x)
#define KILN_MVEC_ARGS_2(f) f(x), f(y)

// The wrappers of one function over one element type. NAME: the C name
// (sinf, sin); T: the element; S: the intrinsics' letters (ps, pd); V: the
// vector types' suffix (nothing, d); CVT: the lane-0 read (ss_f32, sd_f64);
// E, D, B: the lanes of glibc's AVX-512, AVX2 and SSE variants; A: 1 or 2
// arguments; L: glibc's v or vv. The form of the chosen variant's width
// calls it (the loops' bodies); a narrower form (a loop's last partial
// vector, the scalar function) widens its lanes with zeros, calls the chosen
// variant from a function compiled for its instruction set, and takes its
// lanes back. (The AVX-512 form runs only where level is 3.)
#define KILN_MVEC_DEFINE(NAME, T, S, V, CVT, E, D, B, A, L)                                                     \
  extern "C" __attribute__((visibility("default"))) __m512##V _ZGVeN##E##L##_##NAME(KILN_MVEC_TYPES_##A(__m512##V));                                   \
  extern "C" __attribute__((visibility("default"))) __m256##V _ZGVdN##D##L##_##NAME(KILN_MVEC_TYPES_##A(__m256##V));                                   \
  extern "C" __attribute__((visibility("default"))) __m128##V _ZGVbN##B##L##_##NAME(KILN_MVEC_TYPES_##A(__m128##V));                                   \
  namespace kiln_mvec {                                                                                         \
  __attribute__((target("avx512f"))) static __m256##V e_of_256_##NAME(KILN_MVEC_PARAMS_##A(__m256##V)) {        \
    return _mm512_cast##S##512_##S##256(_ZGVeN##E##L##_##NAME(KILN_MVEC_ARGS_##A(_mm512_zext##S##256_##S##512))); \
  }                                                                                                             \
  __attribute__((target("avx512f"))) static __m128##V e_of_128_##NAME(KILN_MVEC_PARAMS_##A(__m128##V)) {        \
    return _mm512_cast##S##512_##S##128(_ZGVeN##E##L##_##NAME(KILN_MVEC_ARGS_##A(_mm512_zext##S##128_##S##512))); \
  }                                                                                                             \
  __attribute__((target("avx2"))) static __m256##V d_of_256_##NAME(KILN_MVEC_PARAMS_##A(__m256##V)) {           \
    return _ZGVdN##D##L##_##NAME(KILN_MVEC_ARGS_##A());                                                         \
  }                                                                                                             \
  __attribute__((target("avx2"))) static __m128##V d_of_128_##NAME(KILN_MVEC_PARAMS_##A(__m128##V)) {           \
    return _mm256_cast##S##256_##S##128(_ZGVdN##D##L##_##NAME(KILN_MVEC_ARGS_##A(_mm256_zext##S##128_##S##256))); \
  }                                                                                                             \
  __attribute__((target("avx"))) static __m256##V b_of_256_##NAME(KILN_MVEC_PARAMS_##A(__m256##V)) {           \
    const __m128##V low = _ZGVbN##B##L##_##NAME(KILN_MVEC_ARGS_##A(_mm256_cast##S##256_##S##128));               \
    const __m128##V high = _ZGVbN##B##L##_##NAME(KILN_MVEC_ARGS_##A(KILN_MVEC_HIGH_##S));                        \
    return _mm256_set_m128##V(high, low);                                                                       \
  }                                                                                                             \
  static __m128##V of_128_##NAME(KILN_MVEC_PARAMS_##A(__m128##V)) {                                             \
    if (level == 3) return e_of_128_##NAME(KILN_MVEC_ARGS_##A());                                               \
    if (level == 2) return d_of_128_##NAME(KILN_MVEC_ARGS_##A());                                               \
    return _ZGVbN##B##L##_##NAME(KILN_MVEC_ARGS_##A());                                                         \
  }                                                                                                             \
  }                                                                                                             \
  extern "C" T kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(T)) noexcept {                                             \
    return _mm_cvt##CVT(kiln_mvec::of_128_##NAME(KILN_MVEC_ARGS_##A(_mm_set1_##S)));                            \
  }                                                                                                             \
  extern "C" __m128##V _ZGVbN##B##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(__m128##V)) {                       \
    return kiln_mvec::of_128_##NAME(KILN_MVEC_ARGS_##A());                                                      \
  }                                                                                                             \
  extern "C" __attribute__((target("avx"))) __m256##V _ZGVcN##D##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(__m256##V)) { \
    if (kiln_mvec::level == 3) return kiln_mvec::e_of_256_##NAME(KILN_MVEC_ARGS_##A());                         \
    if (kiln_mvec::level == 2) return kiln_mvec::d_of_256_##NAME(KILN_MVEC_ARGS_##A());                         \
    return kiln_mvec::b_of_256_##NAME(KILN_MVEC_ARGS_##A());                                                    \
  }                                                                                                             \
  extern "C" __attribute__((target("avx2"))) __m256##V _ZGVdN##D##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(__m256##V)) { \
    if (kiln_mvec::level == 3) return kiln_mvec::e_of_256_##NAME(KILN_MVEC_ARGS_##A());                         \
    return _ZGVdN##D##L##_##NAME(KILN_MVEC_ARGS_##A());                                                         \
  }                                                                                                             \
  extern "C" __attribute__((target("avx512f"))) __m512##V _ZGVeN##E##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(__m512##V)) { \
    return _ZGVeN##E##L##_##NAME(KILN_MVEC_ARGS_##A());                                                         \
  }

// The upper half of a 256-bit vector.
#define KILN_MVEC_HIGH_ps(x) _mm256_extractf128_ps(x, 1)
#define KILN_MVEC_HIGH_pd(x) _mm256_extractf128_pd(x, 1)

#pragma GCC visibility push(hidden)
// GCC 12's own 512-bit extract and insert intrinsics pass an undefined
// vector as their unused merge operand, which -Wuninitialized reports in
// every function that inlines them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define KILN_MVEC_DEFINE_UNARY(fn)                              \
  KILN_MVEC_DEFINE(fn##f, float, ps, , ss_f32, 16, 8, 4, 1, v) \
  KILN_MVEC_DEFINE(fn, double, pd, d, sd_f64, 8, 4, 2, 1, v)
#define KILN_MVEC_DEFINE_BINARY(fn)                              \
  KILN_MVEC_DEFINE(fn##f, float, ps, , ss_f32, 16, 8, 4, 2, vv) \
  KILN_MVEC_DEFINE(fn, double, pd, d, sd_f64, 8, 4, 2, 2, vv)
KILN_LIBMVEC_WRAPPED_UNARY(KILN_MVEC_DEFINE_UNARY)
KILN_LIBMVEC_WRAPPED_BINARY(KILN_MVEC_DEFINE_BINARY)
#pragma GCC diagnostic pop
#pragma GCC visibility pop

#endif  // KILN_MVEC_WRAPPED && KILN_LIBMVEC_DEFINITIONS
