#pragma once
// Long C++ work on arrays with Python's GIL released, so other Python
// threads run meanwhile. Fusion's graphs are recorded and run under the GIL,
// so the arrays' pending expressions (and those reading them) run first,
// with the GIL held, and the work itself records none: its elementwise ops
// run at once. The work must not touch Python objects.
#include <nanobind/nanobind.h>

#include <initializer_list>
#include <functional>
#include <utility>

#include "kiln/array.hpp"
#include "kiln/fusion.hpp"

namespace kiln::python {

template <class Work>
auto without_gil(std::initializer_list<std::reference_wrapper<const Array>> arrays, Work&& work) {
  for (const Array& a : arrays) fusion::settle(a);
  nanobind::gil_scoped_release released;
  fusion::Suspend unfused;
  return std::forward<Work>(work)();
}

}  // namespace kiln::python
