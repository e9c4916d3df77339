#pragma once
// PyCUDA's <pycuda-complex.hpp>: pycuda::complex<T> is kiln's std::complex-like
// type (kiln/device/std_complex.cuh), so PyCUDA's kernels compile unchanged.
#include "kiln/device/std_complex.cuh"

namespace pycuda {
template <class T>
using complex = kiln::dev::std_complex<T>;
using kiln::dev::abs;
using kiln::dev::arg;
using kiln::dev::conj;
using kiln::dev::norm;
using kiln::dev::polar;
}  // namespace pycuda
