#pragma once
// A single value: a Python scalar (weak, NEP 50) or a typed scalar (strong).
#include <complex>
#include <cstdint>

#include "kiln/dtype.hpp"

namespace kiln {

struct Scalar {
  ScalarKind kind = ScalarKind::Int;
  bool weak = true;         // a Python bool/int/float/complex
  DType dtype = kDefaultInt;  // meaningful when !weak
  bool b = false;
  int64_t i = 0;            // Int kind; holds uint64 values above INT64_MAX in `u`
  uint64_t u = 0;
  bool is_unsigned_big = false;
  double f = 0.0;
  std::complex<double> c{};

  static Scalar from_bool(bool v) { Scalar s; s.kind = ScalarKind::Bool; s.b = v; return s; }
  static Scalar from_int(int64_t v) { Scalar s; s.kind = ScalarKind::Int; s.i = v; return s; }
  static Scalar from_uint(uint64_t v) {
    Scalar s; s.kind = ScalarKind::Int; s.u = v; s.i = static_cast<int64_t>(v);
    s.is_unsigned_big = v > static_cast<uint64_t>(INT64_MAX); return s;
  }
  static Scalar from_double(double v) { Scalar s; s.kind = ScalarKind::Float; s.f = v; return s; }
  static Scalar from_complex(std::complex<double> v) {
    Scalar s; s.kind = ScalarKind::Complex; s.c = v; return s;
  }
  // A typed scalar (a NumPy scalar, or a C++ value meant as this dtype).
  Scalar typed(DType dt) const { Scalar s = *this; s.weak = false; s.dtype = dt; return s; }

  // The dtype this scalar takes beside an array of `array_dtype`.
  DType result_dtype_with(DType array_dtype) const {
    return weak ? promote_weak(array_dtype, kind) : promote_types(array_dtype, dtype);
  }
  DType own_dtype() const { return weak ? default_dtype(kind) : dtype; }
  // Whether a Python int is representable in `dt` (always true otherwise).
  bool fits(DType dt) const;
  // OverflowError when a Python int does not fit `dt` (NumPy 2 raises too).
  void check_fits(DType dt) const;
  // For a Python int outside `dt`'s range: whether it lies below it.
  bool below_range() const { return !is_unsigned_big && i < 0; }
  // The value converted to `dt`, written to `out` (itemsize(dt) bytes).
  void store(DType dt, void* out) const;
};

}  // namespace kiln
