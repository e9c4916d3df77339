// kiln._core's part for users' kernels: kiln::RawModule and kiln::RawKernel,
// and the launcher every user kernel is called through (kernel_launcher.cpp).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "kernel_launcher.hpp"
#include "kiln/array.hpp"
#include "kiln/raw_kernel.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

// What picks a kiln.cuda.jit specialisation, for all arguments in one call:
// a kiln array's dtype and ndim as one int, any other argument's type.
nb::object argument_kinds(nb::handle args) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  nb::object kinds = nb::steal(PyTuple_New(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* a = PyTuple_GET_ITEM(args.ptr(), i);
    PyObject* kind;
    if (nb::isinstance<Array>(a)) {
      const Array& array = nb::cast<const Array&>(nb::handle(a));
      kind = PyLong_FromLong(static_cast<long>(array.dtype()) * 8 + static_cast<long>(array.ndim()));
    } else {
      kind = reinterpret_cast<PyObject*>(Py_TYPE(a));
      Py_INCREF(kind);
    }
    PyTuple_SET_ITEM(kinds.ptr(), i, kind);
  }
  return kinds;
}

void bind_kernels(nb::module_& m) {
  m.def("_argument_kinds", [](nb::args args) { return argument_kinds(args); });
  // The one user-kernel path (kiln/raw_kernel.hpp): a module compiles for
  // each device on first use, a kernel remembers its handle per device.
  nb::class_<RawModule>(m, "_RawModule")
      .def(nb::init<std::string, std::vector<std::string>, std::vector<std::string>>(), "source"_a, "options"_a,
           "name_expressions"_a)
      .def("function", &RawModule::function)
      .def("compile", [](const RawModule& module, Device device) { module.compiled(device); })
      .def("global_", [](const RawModule& module, Device device, const std::string& name) {
        auto [address, size] = module.global(device, name);
        return std::make_pair(reinterpret_cast<uintptr_t>(address), size);
      });
  // The line cuda.jit puts in a module whose kernel syncs its grid.
  m.attr("_cooperative_marker") = kCooperativeMarker;
  nb::class_<RawKernel>(m, "_RawKernel")
      .def_prop_ro("name", &RawKernel::name)
      .def("handle", &RawKernel::handle)
      .def_prop_ro("cooperative", &RawKernel::cooperative)
      .def("max_cooperative_blocks", [](const RawKernel& k, Device device, unsigned x, unsigned y, unsigned z,
                                        size_t shared_bytes) {
        return k.max_cooperative_blocks(device, Dim3(x, y, z), shared_bytes);
      });
  // Subclassed in Python (kiln.RawKernel and the kernels built on it), which
  // keeps a launch free of Python frames.
  nb::class_<KernelLauncher>(m, "_KernelLauncher")
      .def(nb::init<>())
      .def("_configure",
           [](KernelLauncher& k, std::string name, std::optional<std::string> kinds,
              std::vector<std::string> declarations, const RawKernel& kernel) {
             k.name = std::move(name);
             k.known_signature = kinds.has_value();
             k.kinds = kinds.value_or("");
             k.declarations = std::move(declarations);
             k.kernel = kernel;
           })
      .def("__call__", &KernelLauncher::launch, "grid"_a, "block"_a, "args"_a, nb::kw_only(), "shared_mem"_a = 0,
           "stream"_a = nb::none())
      // The same, positional only: what kiln.cuda.jit's launches call (no keywords to match).
      .def("_launch", &KernelLauncher::launch, "grid"_a, "block"_a, "args"_a, "shared_mem"_a, "stream"_a.none());
}

}  // namespace kiln::python
