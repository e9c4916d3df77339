#pragma once
// Conversions between Python objects and the C++ API's argument types.
#include <nanobind/nanobind.h>

#include "kiln/kiln.hpp"

namespace kiln::python {

namespace nb = nanobind;

// Python's BufferError: a buffer protocol (DLPack) cannot serve the request.
struct BufferError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Python-side hooks the package installs at import: the dtype objects (indexed
// by DType), a dtype normaliser and an asarray for foreign inputs.
struct Hooks {
  nb::object dtypes[kNumDTypes];
  nb::object normalize_dtype;  // any dtype-like -> one of `dtypes`
  nb::object asarray;          // any array-like -> kiln.ndarray
  nb::object advanced_index;   // (array, key) -> kiln.ndarray: reading through array indices
  nb::object advanced_assign;  // (array, key, value): writing through them
  nb::object construct;        // CuPy's ndarray(shape, dtype, memptr, strides, order) -> kiln.ndarray
  nb::object compare_with_object;  // (array, object, equal) -> a == object / a != object, elementwise
  // Names normalize_dtype answered for ('float32', numpy.float32): a string
  // or a built-in type names one dtype for good, so the answer is kept with
  // a reference to the name, and the next call with that object skips the
  // hook (most of what kiln.empty(n, dtype='float32') cost).
  struct KnownName {
    nb::object name;
    DType dtype;
  };
  KnownName known_names[16];
  int next_known = 0;  // the entry the next new name replaces
};
Hooks& hooks();

DType to_dtype(nb::handle h, const char* arg = "dtype");
std::optional<DType> to_optional_dtype(nb::handle h, const char* arg = "dtype");
nb::object dtype_object(DType dt);
Device to_device(nb::handle h, const char* arg = "device");

// An operand for an op: an ndarray as is, a Python scalar as a weak scalar, a
// NumPy scalar as a typed one; anything else through kiln.asarray. Returns
// false when `h` cannot be an operand (for NotImplemented).
bool to_operand(nb::handle h, Operand* out);
Array to_array(nb::handle h, const char* arg = "x");
// Python bool/int/float/complex or a NumPy scalar -> Scalar; false otherwise.
bool to_scalar(nb::handle h, Scalar* out);
nb::object scalar_to_python(const Scalar& s);

Shape to_shape(nb::handle h, const char* arg = "shape");
Axes to_axes(nb::handle h, const char* arg = "axis");
std::vector<IndexItem> to_index(nb::handle key);
// Whether `key` holds an integer or boolean array (or a list): NumPy's
// advanced indexing, which the Python layer's hook composes from take and
// flatnonzero.
bool is_advanced_index(nb::handle key);

}  // namespace kiln::python
