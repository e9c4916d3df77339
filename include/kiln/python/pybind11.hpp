#pragma once
// pybind11's type caster for kiln::Array: an extension's functions take and
// return kiln::Array (by value or const reference) and receive kiln arrays,
// NumPy arrays and DLPack / __cuda_array_interface__ objects (PyTorch,
// CuPy, JAX...) without a copy. Include it in every file that binds such a
// function.
//
//   #include <kiln/python/pybind11.hpp>
//   kiln::Array twice(const kiln::Array& a) { return kiln::multiply(a, kiln::Scalar(2.0)); }
//   PYBIND11_MODULE(ext, m) { m.def("twice", &twice); }
#include <pybind11/pybind11.h>

#include "kiln/python/c_api.hpp"

namespace pybind11::detail {

template <>
struct type_caster<kiln::Array> {
  PYBIND11_TYPE_CASTER(kiln::Array, const_name("kiln.ndarray"));

  bool load(handle src, bool convert) { return kiln::python::array_from_python(src.ptr(), convert, value); }
  static handle cast(const kiln::Array& a, return_value_policy, handle) {
    PyObject* out = kiln::python::array_to_python(a);
    if (!out) throw error_already_set();
    return out;
  }
};

}  // namespace pybind11::detail
