#pragma once
// Discrete Fourier transforms: cuFFT on the GPU, the FFTW3 interface on the
// CPU (FFTW itself, or a library that exports its interface, such as MKL's
// libmkl_rt, loaded with dlopen on first use).
#include <cstdint>
#include <string>

#include "kiln/array.hpp"

namespace kiln {

enum class FftKind : uint8_t {
  C2C,  // complex to complex, same shape
  R2C,  // real to complex: the last axis keeps n / 2 + 1 frequencies
  C2R,  // complex (the last axis n / 2 + 1 frequencies) to real (n)
};

// The unnormalised transform over the last `rank` axes (1 to 3) of x, the
// axes before them a batch: exp(-2 pi i jk/n) forward, exp(+2 pi i jk/n)
// `inverse` (C2R is always inverse and R2C forward). float16 and float32
// (complex64) compute in single precision, everything else in double, as
// NumPy's do. For C2R, `last_length` is the real output's last axis.
Array fft(const Array& x, int rank, FftKind kind, bool inverse, int64_t last_length = 0);

// The CPU's FFT library in use (the double-precision one), "" when none was
// found. Looked for: $KILN_FFT_LIBRARY, then FFTW's libfftw3.so.3 (and
// libfftw3f.so.3 for single precision), then MKL's libmkl_rt.
std::string fft_library_path();

}  // namespace kiln
