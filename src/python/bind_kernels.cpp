// kiln._core's part for users' CUDA C kernels run on the CPU: compile (or
// load from the cache) and launch. Arguments arrive as bytes, one object per
// parameter, already converted by kiln/_raw_kernel.py.
#include <nanobind/nanobind.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>

#include "../cpu/host_compiler.hpp"

namespace nb = nanobind;

namespace kiln::python {

// Pointers to each argument's bytes, as a launch wants them.
std::vector<void*> argument_pointers(const std::vector<nb::bytes>& args) {
  std::vector<void*> pointers;
  pointers.reserve(args.size());
  for (const nb::bytes& b : args) pointers.push_back(const_cast<char*>(b.c_str()));
  return pointers;
}

void bind_kernels(nb::module_& m) {
  using cpu::HostModule;
  nb::class_<HostModule>(m, "_HostModule").def_ro("uses_barriers", &HostModule::uses_barriers);
  m.def("_load_host_module", &cpu::load_host_module);
  m.def("_launch_host", [](const HostModule& module, size_t kernel, std::array<unsigned, 3> grid,
                           std::array<unsigned, 3> block, size_t shared, const std::vector<nb::bytes>& args) {
    std::vector<void*> pointers = argument_pointers(args);
    nb::gil_scoped_release release;
    cpu::launch_host(module, kernel, grid.data(), block.data(), shared, pointers.data());
  });
}

}  // namespace kiln::python
