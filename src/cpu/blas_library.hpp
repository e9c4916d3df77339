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
#include <cstdint>
#include <string>

#include "kiln/error.hpp"

namespace kiln::cpu {

enum class LapackFn : uint8_t { sgemm, dgemm, cgemm, zgemm, count_ };

struct BlasLibrary {
  std::string path;
  bool ilp64 = false;  // 64-bit integer arguments
  void* fn[static_cast<int>(LapackFn::count_)] = {};
};

// The loaded library; std::runtime_error saying where it looked when none works.
const BlasLibrary& blas_library();

// A size as the library's integer type (ValueError when it does not fit).
template <class Int>
Int blas_int(int64_t v) {
  if (static_cast<Int>(v) != v) throw ValueError("the CPU's BLAS takes 32-bit sizes, got " + std::to_string(v));
  return static_cast<Int>(v);
}

}  // namespace kiln::cpu
