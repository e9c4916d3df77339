// kiln._core's CUDA part: devices, streams, events, memory pools.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "kiln/cuda.hpp"
#include "kiln/error.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {

namespace {

// A Stream.launch_host_func callback: (callable, argument), run once.
void run_host_callback(void* data) {
  nb::gil_scoped_acquire gil;
  auto* pending = static_cast<std::pair<nb::object, nb::object>*>(data);
  try {
    pending->first(pending->second);
  } catch (nb::python_error& e) {
    e.discard_as_unraisable("kiln.cuda.Stream.launch_host_func callback");
  }
  delete pending;
}

// A wait for the GPU asked for from Python: refused where allow_synchronize
// is off, and with the GIL let go, so that a launch_host_func callback queued
// before it can take the GIL on the driver's thread (the wait ends only after
// the callback has run).
template <class Wait>
void wait_for_gpu(const char* what, Wait wait) {
  kiln::cuda::check_synchronize_allowed(what);
  nb::gil_scoped_release released;
  wait();
}

// A block of pinned host memory, or a view of one from `offset` on.
struct PinnedBlock {
  std::shared_ptr<void> memory;
  size_t offset, size;
  char* data() const { return static_cast<char*>(memory.get()) + offset; }
};

// Page-aligned host memory, the stand-in for pinned memory without a GPU.
std::shared_ptr<void> host_block(size_t nbytes) {
  constexpr size_t kPage = 4096;
  void* p = std::aligned_alloc(kPage, std::max(kPage, (nbytes + kPage - 1) / kPage * kPage));
  if (p == nullptr) throw std::bad_alloc();
  return std::shared_ptr<void>(p, std::free);
}

int pinned_block_buffer(PyObject* self, Py_buffer* view, int flags) {
  const PinnedBlock* b = nb::inst_ptr<PinnedBlock>(self);
  return PyBuffer_FillInfo(view, self, b->data(), static_cast<Py_ssize_t>(b->size), 0, flags);
}
PyType_Slot kPinnedBlockSlots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(pinned_block_buffer)}, {0, nullptr}};

}  // namespace

void bind_cuda(nb::module_& m) {
  using namespace kiln::cuda;
  m.def("_cuda_device_count", &device_count);
  m.def("_cuda_unavailable_reason", &unavailable_reason);
  m.def("_cuda_driver_version", &driver_version);
  m.def("_cusolver_version", &cusolver_version);
  m.def("_cuda_device_info", [](int device) {
    DeviceInfo info = device_info(device);
    nb::dict d;
    d["name"] = info.name;
    d["major"] = info.major;
    d["minor"] = info.minor;
    d["total_memory"] = info.total_memory;
    d["multiprocessors"] = info.multiprocessors;
    d["pci_domain"] = info.pci_domain;
    d["pci_bus"] = info.pci_bus;
    d["pci_device"] = info.pci_device;
    d["uuid"] = info.uuid;
    d["kernel_timeout"] = info.kernel_timeout;
    d["fp32_per_fp64"] = info.fp32_per_fp64;
    return d;
  });
  m.def("_cuda_device_attribute", &device_attribute);
  m.def("_cuda_mem_info", [](int device) {
    size_t free_bytes = 0, total = 0;
    mem_info(device, &free_bytes, &total);
    return std::make_pair(free_bytes, total);
  });
  m.def("_cuda_can_access_peer", &can_access_peer);
  m.def("_cuda_enable_peer_access", &enable_peer_access);
  m.def("_cuda_synchronize", [](int device) { wait_for_gpu("synchronizing the device", [&] { synchronize(device); }); });
  m.def("_cuda_ptx", &kiln::cuda::ptx, "source"_a, "arch"_a, "options"_a);
  m.def("_cuda_kernel_resources", [](const std::string& source, int arch, const std::vector<std::string>& options,
                                     const std::string& kernel) {
    const kiln::cuda::KernelResources r = kiln::cuda::kernel_resources(source, arch, options, kernel);
    nb::dict d;
    d["num_regs"] = r.num_regs;
    d["local_size_bytes"] = r.local_bytes;
    d["shared_size_bytes"] = r.shared_bytes;
    d["const_size_bytes"] = r.const_bytes;
    return d;
  }, "source"_a, "arch"_a, "options"_a, "kernel"_a);
  m.def("_profiler_start", &profiler_start);
  m.def("_profiler_stop", &profiler_stop);
  m.def("_set_synchronize_allowed", &set_synchronize_allowed);
  m.def("_synchronize_allowed", &synchronize_allowed);
  m.def("_cuda_pointer_device", &pointer_device);
  m.def("_cuda_ipc_export", [](uintptr_t address) {
    IpcExport e = ipc_export(address);
    return nb::make_tuple(nb::bytes(e.handle.data(), e.handle.size()), e.offset, e.allocation_bytes, e.device);
  });
  m.def("_cuda_ipc_open", [](nb::bytes handle, int device) {
    return ipc_open(std::string(handle.c_str(), handle.size()), device);
  });
  m.def("_cuda_ipc_close", &ipc_close);
  m.def("_cuda_current_device", &current_device);
  m.def("_cuda_set_current_device", &set_current_device);

  nb::class_<Stream>(m, "_Stream")
      .def_static("null", &Stream::null)
      .def_static("create", &Stream::create)
      .def_static("external", &Stream::external)
      .def_prop_ro("handle", &Stream::handle)
      .def_prop_ro("device", &Stream::device)
      .def("synchronize", [](const Stream& s) { wait_for_gpu("synchronizing a stream", [&] { s.synchronize(); }); })
      .def("done", &Stream::done)
      .def("wait", &Stream::wait)
      .def("launch_host_func", [](const Stream& s, nb::callable callback, nb::object arg) {
        // The driver calls back on its own thread: the pair is owned by the
        // call until it has run, and the GIL is taken to run it.
        auto* pending = new std::pair<nb::object, nb::object>(std::move(callback), std::move(arg));
        try {
          s.launch_host_func(run_host_callback, pending);
        } catch (...) {
          delete pending;
          throw;
        }
      }, "callback"_a, "arg"_a)
      .def("__eq__", &Stream::operator==);
  m.def("_current_stream", &current_stream);
  m.def("_set_current_stream", &set_current_stream);

  nb::class_<Event>(m, "_Event")
      .def_static("create", &Event::create, "device"_a, "timing"_a, "blocking"_a)
      .def("record", &Event::record)
      .def("synchronize", [](const Event& e) { wait_for_gpu("synchronizing an event", [&] { e.synchronize(); }); })
      .def("done", &Event::done)
      .def("elapsed_ms_since", &Event::elapsed_ms_since)
      .def_prop_ro("handle", &Event::handle)
      .def_prop_ro("device", &Event::device);


  // Pinned host memory: the Python object owns the block until it goes
  // away, and shows it through the buffer protocol (numpy.frombuffer(mem)).
  // Where no GPU works, page locking would mean nothing: plain host memory.
  nb::class_<PinnedBlock>(m, "_PinnedBlock", nb::type_slots(kPinnedBlockSlots))
      .def("__init__", [](PinnedBlock* b, size_t nbytes) {
        new (b) PinnedBlock{is_available() ? alloc_pinned(nbytes) : host_block(nbytes), 0, nbytes};
      }, "nbytes"_a)
      .def("__init__", [](PinnedBlock* b, const PinnedBlock& of, size_t offset) {
        if (offset > of.size)
          throw ValueError("offset: " + std::to_string(offset) + " is beyond the block's " + std::to_string(of.size) +
                           " bytes");
        new (b) PinnedBlock{of.memory, of.offset + offset, of.size - offset};
      }, "block"_a, "offset"_a)
      .def_prop_ro("ptr", [](const PinnedBlock& b) { return reinterpret_cast<uintptr_t>(b.data()); })
      .def_prop_ro("size", [](const PinnedBlock& b) { return b.size; });
  m.def("_pinned_pool_bytes", &pinned_pool_bytes);
  m.def("_cuda_copy_bytes", &copy_bytes);
  m.def("_cuda_fill_bytes", &fill_bytes);
  m.def("_function_attribute", &function_attribute);
  m.def("_set_function_attribute", &set_function_attribute);
  m.def("_set_function_cache_config", &set_function_cache_config);
}

}  // namespace kiln::python
