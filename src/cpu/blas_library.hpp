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
  // OpenBLAS's count of threads for calls from this thread (returns the old
  // one); null where the library has no such per-thread setting.
  int (*set_threads_here)(int) = nullptr;
};

// While alive, the library's calls from this thread run on this thread
// alone, where `small` and the library can be told per thread. OpenBLAS
// otherwise spreads even a 4x4 solve over its threads, and the hand-off
// costs more than the solve: inv of 10,000 4x4 took 14 ms that way, 3.5 ms
// on one thread (NumPy's 3.5 ms; 2-core machine).
class SmallCallsOnThisThread {
 public:
  explicit SmallCallsOnThisThread(bool small);
  ~SmallCallsOnThisThread();
  SmallCallsOnThisThread(const SmallCallsOnThisThread&) = delete;
  SmallCallsOnThisThread& operator=(const SmallCallsOnThisThread&) = delete;

 private:
  int saved_ = 0;  // the thread count to restore; 0: nothing was changed
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
