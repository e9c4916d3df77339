// The nanobind module kiln._core: binds the C++ API. Argument conversion
// lives in convert.cpp; everything else is a direct call into the C++ API.
#include <stdexcept>
#include <string>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.hpp"
#include "kiln/device/host_launch.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {
void bind_array(nb::module_& m);
void bind_functions(nb::module_& m);
void bind_io(nb::module_& m);
void bind_kernels(nb::module_& m);
void bind_fusion(nb::module_& m);
void bind_c_api(nb::module_& m);
void bind_dlpack(nb::module_& m);
#ifdef KILN_WITH_CUDA
void bind_cuda(nb::module_& m);
void bind_nccl(nb::module_& m);
#endif
}  // namespace kiln::python

namespace {
// Raises NumPy's exception type `module.name` with `message`; NumPy is
// imported only when one is raised, so `import kiln` stays NumPy-free.
void set_numpy_error(const char* module, const char* name, const char* message) {
  nb::object type = nb::module_::import_(module).attr(name);
  PyErr_SetObject(type.ptr(), nb::str(message).ptr());
}

// "NAME (from FILE)" of a module being initialised; its __file__ is set by
// the import system before the module runs, but a loader may leave it out.
std::string module_identity(nb::module_& m) {
  std::string identity = nb::cast<std::string>(nb::str(m.attr("__name__")));
  if (nb::hasattr(m, "__file__")) identity += " (from " + nb::cast<std::string>(nb::str(m.attr("__file__"))) + ")";
  return identity;
}

// The library initialises once a process. A second initialisation (the same
// file imported under another module name, as an alias of the package or a
// vendoring tool makes) would register nanobind's types a second time, which
// nanobind does not undo but aborts the interpreter on; it is refused as an
// ImportError instead (nanobind's module init turns the exception into one).
void refuse_a_second_load(nb::module_& m) {
  static std::string first;
  if (!first.empty())
    throw std::runtime_error("kiln's extension is already loaded in this process as " + first +
                             "; it cannot be loaded again as " + module_identity(m) +
                             ". Import it once, under its own name, and alias that module object instead.");
  first = module_identity(m);
}
}  // namespace

NB_MODULE(_core, m) {
  using namespace kiln;
  using namespace kiln::python;
  refuse_a_second_load(m);

  // nanobind's exit-time leak report counts arrays that Python still holds
  // during interpreter teardown (pytest keeps parametrised values until the
  // end, for one); those are not reference-count errors, so it stays quiet.
  nb::set_leak_warnings(false);

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const kiln::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const kiln::LinAlgError& e) {  // NumPy's type, as CuPy raises
      set_numpy_error("numpy.linalg", "LinAlgError", e.what());
    } catch (const kiln::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const kiln::AxisError& e) {
      set_numpy_error("numpy.exceptions", "AxisError", e.what());
    } catch (const kiln::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const kiln::OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    } catch (const kiln::Interrupted& e) {
      // Python's own handler raises KeyboardInterrupt (in the main thread);
      // elsewhere, or under a handler that raises nothing, kiln does.
      if (PyErr_CheckSignals() == 0) PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    }
  });
  // Registered after the translator above, so tried before it.
  auto cuda_error = nb::exception<kiln::CudaError>(m, "CUDAError", PyExc_RuntimeError);
  nb::exception<kiln::DeviceSynchronized>(m, "DeviceSynchronized", cuda_error);
  nb::exception<kiln::ContextPoisoned>(m, "ContextPoisoned", cuda_error);
  nb::exception<kiln::OutOfMemoryError>(m, "OutOfMemoryError", PyExc_MemoryError);
  nb::exception<kiln::CompileError>(m, "CompileError", PyExc_RuntimeError);
  nb::exception<kiln::KernelError>(m, "KernelError", PyExc_RuntimeError);

  nb::class_<Device>(m, "Device")
      .def("__init__", [](Device* d, const std::string& s) { new (d) Device(Device::parse(s)); }, "device"_a)
      .def_prop_ro("type", [](const Device& d) { return d.kind == DeviceKind::CPU ? "cpu" : "cuda"; })
      .def_prop_ro("index", [](const Device& d) { return d.index; })
      .def("__str__", &Device::str)
      .def("__repr__", [](const Device& d) { return "<kiln.Device " + d.str() + ">"; })
      .def("__eq__", [](const Device& a, nb::handle b) {
        if (nb::isinstance<Device>(b)) return a == nb::cast<Device>(b);
        if (nb::isinstance<nb::str>(b)) return a.str() == nb::cast<std::string>(b) ||
                                               (a == Device::cuda(0) && nb::cast<std::string>(b) == "cuda");
        return false;
      })
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.kind) * 1024 + d.index; });

  m.def("_install_hooks", [](nb::list dtypes, nb::object normalize, nb::object asarray, nb::object advanced_index,
                             nb::object advanced_assign, nb::object construct, nb::object compare_with_object) {
    Hooks& h = hooks();
    if (nb::len(dtypes) != kNumDTypes) throw ValueError("_install_hooks: expected one object per dtype");
    for (int i = 0; i < kNumDTypes; ++i) h.dtypes[i] = dtypes[i];
    for (auto& known : h.known_names) known.name = nb::object();
    h.normalize_dtype = normalize;
    h.asarray = asarray;
    h.advanced_index = advanced_index;
    h.advanced_assign = advanced_assign;
    h.construct = construct;
    h.compare_with_object = compare_with_object;
  });

  // Drops the hooks before interpreter teardown so no Python object outlives it.
  m.def("_clear_hooks", [] {
    Hooks& h = hooks();
    for (auto& d : h.dtypes) d = nb::object();
    for (auto& known : h.known_names) known.name = nb::object();
    h.normalize_dtype = nb::object();
    h.asarray = nb::object();
    h.advanced_index = nb::object();
    h.advanced_assign = nb::object();
    h.construct = nb::object();
    h.compare_with_object = nb::object();
  });

  m.def("_cpu_threads", &cpu_thread_count);
  // The host's device attributes in CPU mode, by CuPy's names: the limits of
  // the kernel language the CPU backend runs, which its launches enforce
  // (host_launch.hpp; no opt-in for more shared memory), its warp, the
  // threads its blocks run on as the multiprocessors, and memory the host
  // and its kernels share.
  m.def("_cpu_device_attributes", [] {
    using namespace kiln_host;
    nb::dict d;
    d["ComputeCapabilityMajor"] = kComputeCapability[0];
    d["ComputeCapabilityMinor"] = kComputeCapability[1];
    d["MaxThreadsPerBlock"] = kMaxBlockThreads;
    d["MaxBlockDimX"] = kMaxBlockDim[0];
    d["MaxBlockDimY"] = kMaxBlockDim[1];
    d["MaxBlockDimZ"] = kMaxBlockDim[2];
    d["MaxGridDimX"] = kMaxGridDim[0];
    d["MaxGridDimY"] = kMaxGridDim[1];
    d["MaxGridDimZ"] = kMaxGridDim[2];
    d["MaxSharedMemoryPerBlock"] = kMaxDynamicShared;
    d["MaxSharedMemoryPerBlockOptin"] = kMaxDynamicShared;
    d["WarpSize"] = kWarpSize;
    d["CooperativeLaunch"] = 1;
    d["MultiProcessorCount"] = cpu_thread_count();
    d["Integrated"] = 1;
    d["CanMapHostMemory"] = 1;
    d["UnifiedAddressing"] = 1;
    d["ConcurrentKernels"] = 0;
    return d;
  });
  m.def("_kernel_cache_directory", &kernel_cache_directory);
  m.def("_kernel_cache_info", [] {
    KernelCacheInfo i = kernel_cache_info();
    nb::dict d;
    d["directory"] = i.directory;
    d["entries"] = i.entries;
    d["bytes"] = i.bytes;
    d["max_bytes"] = i.max_bytes;
    d["writable"] = i.writable;
    return d;
  });
  m.def("_clear_kernel_cache", &clear_kernel_cache);
  m.def("_trim_kernel_cache", &trim_kernel_cache);
  m.def("_host_compiler", [] {
    HostCompiler c = host_compiler();
    return nb::make_tuple(c.command, c.identity);
  });
#ifdef KILN_WITH_CUDA
  m.attr("_with_cuda") = true;
#else
  m.attr("_with_cuda") = false;
#endif
  m.def("_cuda_libraries", [] {
    CudaLibraries found = cuda_libraries();
    nb::dict d;
    d["driver"] = found.driver;
    d["nvrtc"] = found.nvrtc;
    d["nvrtc_version"] = found.nvrtc_version;
    d["cccl_include"] = found.cccl_include;
    d["problem"] = found.problem;
    return d;
  });
  m.def("_range_push", &range_push, "message"_a, "argb"_a = 0);
  m.def("_range_pop", &range_pop);
  m.def("_mark", &mark, "message"_a, "argb"_a = 0);
  m.def("_has_nvtx", &has_nvtx);

  bind_array(m);
  bind_functions(m);
  bind_io(m);
  bind_kernels(m);
  bind_fusion(m);
  bind_c_api(m);
  bind_dlpack(m);
#ifdef KILN_WITH_CUDA
  bind_cuda(m);
  bind_nccl(m);
#endif
}
