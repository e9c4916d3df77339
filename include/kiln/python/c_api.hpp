#pragma once
// How kiln arrays cross into users' extension modules. kiln._core publishes
// a table of functions as the capsule kiln._core._C_API; the casters of
// kiln/python/nanobind.hpp and kiln/python/pybind11.hpp use it, so an
// extension built with any binding library, or any version of one, receives
// and returns kiln::Array values that share libkiln (one allocator, one set
// of streams and caches) with kiln's own module.
#include <Python.h>

#include "kiln/array.hpp"

namespace kiln::python {

inline constexpr unsigned kCApiVersion = 1;

struct CApi {
  unsigned version;  // kCApiVersion of the kiln that made the table
  // The array a kiln.ndarray holds, or nullptr (no error set) when `obj` is
  // not a kiln.ndarray.
  const Array* (*array_of)(PyObject* obj);
  // `obj` as a kiln.ndarray, a new reference: a kiln array as it is; NumPy
  // arrays, DLPack and __cuda_array_interface__ objects viewed without a
  // copy; other array-likes (nested sequences, scalars) copied. nullptr with
  // a Python error set when `obj` is none of those.
  PyObject* (*as_ndarray)(PyObject* obj);
  // A new kiln.ndarray viewing `a`'s memory (a new reference), or nullptr
  // with a Python error set.
  PyObject* (*to_python)(const Array& a);
};

// The table, imported (with kiln) on first use; nullptr with a Python error
// set when kiln cannot be imported or is another version of this interface.
// Call with the GIL held.
inline const CApi* c_api() {
  static const CApi* api = nullptr;
  if (api) return api;
  auto* table = static_cast<const CApi*>(PyCapsule_Import("kiln._core._C_API", 0));
  if (!table) return nullptr;
  if (table->version != kCApiVersion) {
    PyErr_Format(PyExc_ImportError,
                 "this extension was built against kiln's C API version %u, the installed kiln has version %u: "
                 "rebuild the extension",
                 kCApiVersion, table->version);
    return nullptr;
  }
  return api = table;
}

// `obj` as a kiln::Array for a bound function's argument. A kiln.ndarray is
// taken as it is; with `convert`, NumPy arrays, DLPack and CUDA array
// interface objects too (zero-copy) and other array-likes (copied). False,
// with no Python error left set, when `obj` cannot be one: the binding
// library then tries the next overload or raises its TypeError.
inline bool array_from_python(PyObject* obj, bool convert, Array& out) {
  const CApi* api = c_api();
  if (!api) {
    PyErr_Clear();
    return false;
  }
  if (const Array* a = api->array_of(obj)) {
    out = *a;
    return true;
  }
  if (!convert) return false;
  PyObject* converted = api->as_ndarray(obj);
  if (!converted) {
    PyErr_Clear();
    return false;
  }
  const Array* a = api->array_of(converted);
  if (a) out = *a;  // shares the memory, which the Array keeps alive
  Py_DECREF(converted);
  return a != nullptr;
}

// A new kiln.ndarray for `a` (a new reference), or nullptr with a Python
// error set.
inline PyObject* array_to_python(const Array& a) {
  const CApi* api = c_api();
  return api ? api->to_python(a) : nullptr;
}

}  // namespace kiln::python
