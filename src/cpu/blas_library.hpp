#pragma once
// The CPU's BLAS and LAPACK, loaded with dlopen on first use (as the CUDA
// libraries are): kiln links no BLAS, so it builds anywhere and uses the
// best library the machine has. Looked for, in order: $KILN_BLAS_LIBRARY;
// the candidates added with kiln::add_blas_library_candidate (the Python
// package adds the OpenBLAS that NumPy's wheels carry); the system's
// OpenBLAS (ILP64, then LP64); the reference liblapack.so.3.
//
// Routines are the Fortran interface, in any of the spellings OpenBLAS
// builds use: scipy-openblas's scipy_dgemm_64_ and dgemm_64_ (64-bit
// integers), or plain dgemm_ (32-bit integers).
#include <complex>
#include <cstdint>
#include <string>

#include "kiln/error.hpp"

namespace kiln::cpu {

// The routines kiln calls, each in four precisions (s, d, c, z).
enum class Routine : uint8_t { gemm, getrf, getrs, potrf, geqrf, orgqr, syevd, gesdd, geev, count_ };
inline constexpr int kNumRoutines = static_cast<int>(Routine::count_);

struct BlasLibrary {
  std::string path;
  bool ilp64 = false;  // 64-bit integer arguments
  void* fn[kNumRoutines][4] = {};  // [routine][float32, float64, complex64, complex128]
};

// The loaded library; std::runtime_error saying where it looked when none works.
const BlasLibrary& blas_library();

// The column of BlasLibrary::fn for a precision.
template <class T> inline constexpr int precision_index = 0;
template <> inline constexpr int precision_index<double> = 1;
template <> inline constexpr int precision_index<std::complex<float>> = 2;
template <> inline constexpr int precision_index<std::complex<double>> = 3;

// A size as the library's integer type (ValueError when it does not fit).
template <class Int>
Int blas_int(int64_t v) {
  if (static_cast<Int>(v) != v) throw ValueError("the CPU's BLAS takes 32-bit sizes, got " + std::to_string(v));
  return static_cast<Int>(v);
}

}  // namespace kiln::cpu
