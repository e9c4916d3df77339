#pragma once
// kiln._KernelLauncher: the C++ side of every call of a user's kernel from
// Python (see kernel_launcher.cpp).
#include <nanobind/nanobind.h>

#include <optional>
#include <string>
#include <vector>

#include "kiln/raw_kernel.hpp"

namespace nb = nanobind;

namespace kiln::python {

// The kind of a parameter that takes an array by value as {data, shape,
// strides} (kiln.cuda.jit's kernels), not as a pointer.
constexpr char kArrayView = 'v';

struct KernelLauncher {
  std::string name;
  // Per parameter: 'p' for a pointer, kArrayView, a NumPy type character for
  // a scalar a Python number can be converted to, 0 where kiln cannot tell.
  std::string kinds;
  std::vector<std::string> declarations;  // for error messages
  bool known_signature = false;           // false: any argument count, no Python numbers
  std::optional<RawKernel> kernel;  // compiles, caches and launches (kiln/raw_kernel.hpp)

  // grid/block: an int or 1 to 3 ints; stream: None (the device's current
  // stream), a handle or an object with .ptr.
  void launch(nb::handle grid, nb::handle block, nb::handle args, size_t shared_bytes, nb::handle stream);
};

}  // namespace kiln::python
