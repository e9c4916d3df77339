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
// are compiled where KILN_LIBMVEC_DEFINITIONS precedes this header
// (src/cpu/libmvec_wrappers.cpp) into one object, which libkiln holds and
// the runtime object generated kernels link (host_compiler.cpp) takes in.
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
// GCC's vector types (the same registers and calling convention as
// immintrin.h's, whose headers took longer to compile than the wrappers:
// the runtime object generated kernels link is compiled once per cache).
typedef float kiln_mvec_f16 __attribute__((vector_size(64)));
typedef float kiln_mvec_f8 __attribute__((vector_size(32)));
typedef float kiln_mvec_f4 __attribute__((vector_size(16)));
typedef double kiln_mvec_d8 __attribute__((vector_size(64)));
typedef double kiln_mvec_d4 __attribute__((vector_size(32)));
typedef double kiln_mvec_d2 __attribute__((vector_size(16)));

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

// Lanes moved between widths, per element type: zero-extended into a wider
// vector (_ZX_), the low part (_LO_) or high half (_HI_) of a wider one.
#define KILN_MVEC_ZX_8_16f(v) __builtin_shufflevector(v, (kiln_mvec_f8){}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define KILN_MVEC_ZX_4_16f(v) __builtin_shufflevector(v, (kiln_mvec_f4){}, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7)
#define KILN_MVEC_ZX_4_8f(v) __builtin_shufflevector(v, (kiln_mvec_f4){}, 0, 1, 2, 3, 4, 5, 6, 7)
#define KILN_MVEC_LO_16_8f(v) __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7)
#define KILN_MVEC_LO_16_4f(v) __builtin_shufflevector(v, v, 0, 1, 2, 3)
#define KILN_MVEC_LO_8_4f(v) __builtin_shufflevector(v, v, 0, 1, 2, 3)
#define KILN_MVEC_ZX_8_16d(v) __builtin_shufflevector(v, (kiln_mvec_d4){}, 0, 1, 2, 3, 4, 5, 6, 7)
#define KILN_MVEC_ZX_4_16d(v) __builtin_shufflevector(v, (kiln_mvec_d2){}, 0, 1, 2, 3, 2, 3, 2, 3)
#define KILN_MVEC_ZX_4_8d(v) __builtin_shufflevector(v, (kiln_mvec_d2){}, 0, 1, 2, 3)
#define KILN_MVEC_LO_16_8d(v) __builtin_shufflevector(v, v, 0, 1, 2, 3)
#define KILN_MVEC_LO_16_4d(v) __builtin_shufflevector(v, v, 0, 1)
#define KILN_MVEC_LO_8_4d(v) __builtin_shufflevector(v, v, 0, 1)

// The forms' shared code for one element type (f or d) and arity, given
// glibc's three variants of the function as pointers: one copy for all
// functions (a copy per function took the first fused kernel's build, which
// compiles this into the runtime object, from about 1.2 to 2 s). VE, VD,
// VB: the AVX-512, AVX2 and SSE vector types. The form of the chosen
// variant's width calls it directly (the loops' bodies); a narrower form (a
// loop's last partial vector, the scalar function) widens its lanes with
// zeros, calls the chosen variant from a function compiled for its
// instruction set, and takes its lanes back.
#define KILN_MVEC_SHARED(TAG, K, VE, VD, VB, A)                                                                   \
  namespace kiln_mvec {                                                                                          \
  typedef VE (*e_##TAG)(KILN_MVEC_TYPES_##A(VE));                                                                \
  typedef VD (*d_##TAG)(KILN_MVEC_TYPES_##A(VD));                                                                \
  typedef VB (*b_##TAG)(KILN_MVEC_TYPES_##A(VB));                                                                \
  __attribute__((target("avx512f"), noinline)) static VD e_of_d_##TAG(KILN_MVEC_PARAMS_##A(VD), e_##TAG e) {     \
    const VE r = e(KILN_MVEC_ARGS_##A(KILN_MVEC_ZX_8_16##K));                                                    \
    return KILN_MVEC_LO_16_8##K(r);                                                                              \
  }                                                                                                              \
  __attribute__((target("avx512f"), noinline)) static VB e_of_b_##TAG(KILN_MVEC_PARAMS_##A(VB), e_##TAG e) {     \
    const VE r = e(KILN_MVEC_ARGS_##A(KILN_MVEC_ZX_4_16##K));                                                    \
    return KILN_MVEC_LO_16_4##K(r);                                                                              \
  }                                                                                                              \
  __attribute__((target("avx2"), noinline)) static VB d_of_b_##TAG(KILN_MVEC_PARAMS_##A(VB), d_##TAG d) {        \
    const VD r = d(KILN_MVEC_ARGS_##A(KILN_MVEC_ZX_4_8##K));                                                     \
    return KILN_MVEC_LO_8_4##K(r);                                                                               \
  }                                                                                                              \
  __attribute__((noinline)) static VB b_form_##TAG(KILN_MVEC_PARAMS_##A(VB), e_##TAG e, d_##TAG d, b_##TAG b) {  \
    if (level == 3) return e_of_b_##TAG(KILN_MVEC_ARGS_##A(), e);                                                \
    if (level == 2) return d_of_b_##TAG(KILN_MVEC_ARGS_##A(), d);                                                \
    return b(KILN_MVEC_ARGS_##A());                                                                              \
  }                                                                                                              \
  __attribute__((target("avx2"), noinline)) static VD d_form_##TAG(KILN_MVEC_PARAMS_##A(VD), e_##TAG e,          \
                                                                  d_##TAG d) {                                   \
    if (level == 3) return e_of_d_##TAG(KILN_MVEC_ARGS_##A(), e);                                                \
    return d(KILN_MVEC_ARGS_##A());                                                                              \
  }                                                                                                              \
  }

// The wrappers of one function over one element type: the scalar function
// and the SSE, AVX2 and AVX-512 forms (kiln compiles its loops and kernels
// for x86-64-v4, v3 or the baseline, never for AVX without AVX2, so GCC
// never calls the AVX form a `simd` declaration also promises).
// NAME: the C name (sinf, sin); T: the element; TAG: its shared code's set;
// VE, VD, VB: its vector types; E, D, B: the lanes of glibc's AVX-512, AVX2
// and SSE variants; A: 1 or 2 arguments; L: glibc's v or vv.
#define KILN_MVEC_SPLAT_1(VB) (VB){x}
#define KILN_MVEC_SPLAT_2(VB) (VB){x}, (VB){y}
#define KILN_MVEC_DEFINE(NAME, T, TAG, VE, VD, VB, E, D, B, A, L)                                                 \
  extern "C" __attribute__((visibility("default"))) VE _ZGVeN##E##L##_##NAME(KILN_MVEC_TYPES_##A(VE));          \
  extern "C" __attribute__((visibility("default"))) VD _ZGVdN##D##L##_##NAME(KILN_MVEC_TYPES_##A(VD));          \
  extern "C" __attribute__((visibility("default"))) VB _ZGVbN##B##L##_##NAME(KILN_MVEC_TYPES_##A(VB));          \
  namespace kiln_mvec {                                                                                           \
  __attribute__((target("avx512f"))) static T e_scalar_##NAME(KILN_MVEC_PARAMS_##A(T)) {                           \
    return _ZGVeN##E##L##_##NAME(KILN_MVEC_SPLAT_##A(VE))[0];                                                     \
  }                                                                                                               \
  __attribute__((target("avx2"))) static T d_scalar_##NAME(KILN_MVEC_PARAMS_##A(T)) {                              \
    return _ZGVdN##D##L##_##NAME(KILN_MVEC_SPLAT_##A(VD))[0];                                                     \
  }                                                                                                               \
  }                                                                                                               \
  /* The scalar form, which strided generated code calls an element at a time: direct calls only. */             \
  extern "C" T kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(T)) noexcept {                                               \
    if (kiln_mvec::level == 3) return kiln_mvec::e_scalar_##NAME(KILN_MVEC_ARGS_##A());                           \
    if (kiln_mvec::level == 2) return kiln_mvec::d_scalar_##NAME(KILN_MVEC_ARGS_##A());                           \
    return _ZGVbN##B##L##_##NAME(KILN_MVEC_SPLAT_##A(VB))[0];                                                     \
  }                                                                                                               \
  extern "C" VB _ZGVbN##B##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(VB)) {                                       \
    return kiln_mvec::b_form_##TAG(KILN_MVEC_ARGS_##A(), _ZGVeN##E##L##_##NAME, _ZGVdN##D##L##_##NAME,           \
                                   _ZGVbN##B##L##_##NAME);                                                        \
  }                                                                                                               \
  extern "C" __attribute__((target("avx2"))) VD _ZGVdN##D##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(VD)) {       \
    return kiln_mvec::d_form_##TAG(KILN_MVEC_ARGS_##A(), _ZGVeN##E##L##_##NAME, _ZGVdN##D##L##_##NAME);          \
  }                                                                                                               \
  extern "C" __attribute__((target("avx512f"))) VE _ZGVeN##E##L##_kiln_mvec_##NAME(KILN_MVEC_PARAMS_##A(VE)) {    \
    return _ZGVeN##E##L##_##NAME(KILN_MVEC_ARGS_##A());                                                          \
  }

#pragma GCC visibility push(hidden)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // vector arguments wider than the baseline's: the forms target their ISA
KILN_MVEC_SHARED(f1, f, kiln_mvec_f16, kiln_mvec_f8, kiln_mvec_f4, 1)
KILN_MVEC_SHARED(d1, d, kiln_mvec_d8, kiln_mvec_d4, kiln_mvec_d2, 1)
KILN_MVEC_SHARED(f2, f, kiln_mvec_f16, kiln_mvec_f8, kiln_mvec_f4, 2)
KILN_MVEC_SHARED(d2, d, kiln_mvec_d8, kiln_mvec_d4, kiln_mvec_d2, 2)
#define KILN_MVEC_DEFINE_UNARY(fn)                                                                  \
  KILN_MVEC_DEFINE(fn##f, float, f1, kiln_mvec_f16, kiln_mvec_f8, kiln_mvec_f4, 16, 8, 4, 1, v) \
  KILN_MVEC_DEFINE(fn, double, d1, kiln_mvec_d8, kiln_mvec_d4, kiln_mvec_d2, 8, 4, 2, 1, v)
#define KILN_MVEC_DEFINE_BINARY(fn)                                                                  \
  KILN_MVEC_DEFINE(fn##f, float, f2, kiln_mvec_f16, kiln_mvec_f8, kiln_mvec_f4, 16, 8, 4, 2, vv) \
  KILN_MVEC_DEFINE(fn, double, d2, kiln_mvec_d8, kiln_mvec_d4, kiln_mvec_d2, 8, 4, 2, 2, vv)
KILN_LIBMVEC_WRAPPED_UNARY(KILN_MVEC_DEFINE_UNARY)
KILN_LIBMVEC_WRAPPED_BINARY(KILN_MVEC_DEFINE_BINARY)
#pragma GCC diagnostic pop
#pragma GCC visibility pop

#endif  // KILN_MVEC_WRAPPED && KILN_LIBMVEC_DEFINITIONS
