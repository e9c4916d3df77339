#pragma once
// nanobind's type caster for kiln::Array: an extension's functions take and
// return kiln::Array (by value or const reference) and receive kiln arrays,
// NumPy arrays and DLPack / __cuda_array_interface__ objects (PyTorch,
// CuPy, JAX...) without a copy. Include it in every file that binds such a
// function.
//
//   #include <kiln/python/nanobind.hpp>
//   kiln::Array twice(const kiln::Array& a) { return kiln::multiply(a, kiln::Scalar(2.0)); }
//   NB_MODULE(ext, m) { m.def("twice", &twice); }
#include <nanobind/nanobind.h>

#include "kiln/python/c_api.hpp"

namespace nanobind::detail {

template <>
struct type_caster<kiln::Array> {
  NB_TYPE_CASTER(kiln::Array, const_name("kiln.ndarray"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    return kiln::python::array_from_python(src.ptr(), flags & static_cast<uint8_t>(cast_flags::convert), value);
  }
  static handle from_cpp(const kiln::Array& a, rv_policy, cleanup_list*) noexcept {
    return kiln::python::array_to_python(a);
  }
};

}  // namespace nanobind::detail
