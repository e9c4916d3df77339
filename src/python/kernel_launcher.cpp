// A user's kernel called from Python: every argument converted to its
// parameter's bytes, the device found from the arrays, the compiled kernel
// looked up and launched, all in one C++ call. This is the whole per-launch
// cost of kiln.RawKernel, the PyCUDA face and the generated kernels, so it
// allocates nothing and touches no Python attribute for the common arguments
// (kiln arrays, NumPy arrays and scalars, Python numbers, bytes).
#include "kernel_launcher.hpp"


#include <complex>
#include <cstring>

#include "kiln/array.hpp"
#include "kiln/error.hpp"
#include "kiln/float16.hpp"
#include "kiln/small_vector.hpp"
#ifdef KILN_WITH_CUDA
#include "kiln/cuda.hpp"
#endif

namespace kiln::python {
namespace {

// NumPy's ndarray and generic (scalar) types, looked up once.
struct NumpyTypes {
  nb::object ndarray, generic;
};
const NumpyTypes& numpy_types() {
  static NumpyTypes* types = [] {
    nb::module_ np = nb::module_::import_("numpy");
    return new NumpyTypes{np.attr("ndarray"), np.attr("generic")};
  }();
  return *types;
}

// Room for one argument passed by value: an array view ({data, shape[n],
// strides[n]} of up to 8 dimensions, see kArrayView), or a NumPy scalar of
// that size at most (complex128, a structured scalar for a struct or a
// vector type: float4...).
constexpr int kMaxViewDims = 8;
struct alignas(16) ArgumentSlot {
  unsigned char bytes[8 + 2 * 8 * kMaxViewDims];
};
constexpr size_t kMaxScalarBytes = sizeof(ArgumentSlot::bytes);
constexpr const char* kTooManyDims = "arrays of more than 8 dimensions are not supported";

// An array passed by value as {data, shape[ndim], strides[ndim]} (int64 shape
// and byte strides), the layout kiln.cuda.jit's kernels take arrays in.
void store_view(ArgumentSlot& slot, void* data, int ndim, const int64_t* shape, const int64_t* strides) {
  std::memcpy(slot.bytes, &data, sizeof data);
  std::memcpy(slot.bytes + 8, shape, 8 * ndim);
  std::memcpy(slot.bytes + 8 + 8 * ndim, strides, 8 * ndim);
}

template <class T> void store(ArgumentSlot& slot, T value) { std::memcpy(slot.bytes, &value, sizeof(T)); }

[[noreturn]] void argument_error(const KernelLauncher& k, size_t i, const std::string& why) {
  throw TypeError("argument " + std::to_string(i) + " of " + k.name + " ('" + k.declarations[i] + "'): " + why);
}

// A Python int/float/bool/complex as the parameter's declared type.
void store_python_number(const KernelLauncher& k, size_t i, PyObject* o, ArgumentSlot& slot) {
  const char kind = k.kinds[i];
  const bool is_complex = PyComplex_Check(o), is_float = PyFloat_Check(o);
  if (kind == 0) {
    // A parameter of a type kiln does not read (a typedef, a template
    // parameter, a struct): CuPy's rule, whatever the declaration: bool as
    // bool, int as int64, float as float64, complex as complex128. The
    // kernel reads as many of those bytes as its parameter has.
    if (PyBool_Check(o)) {
      store(slot, static_cast<bool>(o == Py_True));
    } else if (PyLong_Check(o)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow > 0) {
        store(slot, static_cast<uint64_t>(PyLong_AsUnsignedLongLong(o)));
      } else if (overflow < 0) {
        throw OverflowError("argument " + std::to_string(i) + " of " + k.name + " ('" + k.declarations[i] +
                            "'): Python int out of int64's range");
      } else {
        store(slot, static_cast<int64_t>(v));
      }
    } else if (is_complex) {
      Py_complex c = PyComplex_AsCComplex(o);
      store(slot, std::complex<double>(c.real, c.imag));
    } else {
      store(slot, PyFloat_AsDouble(o));
    }
    if (PyErr_Occurred()) throw nb::python_error();
    return;
  }
  if (kind == 'p') {  // an address given as a Python int (x.data.ptr), as CuPy passes it
    if (!PyLong_Check(o) || PyBool_Check(o))
      argument_error(k, i, std::string("cannot pass a Python ") + Py_TYPE(o)->tp_name +
                               " to a pointer parameter; pass an array or an address as an int");
    store(slot, reinterpret_cast<void*>(static_cast<uintptr_t>(PyLong_AsUnsignedLongLongMask(o))));
    if (PyErr_Occurred()) throw nb::python_error();
    return;
  }
  if (is_complex && kind != 'F' && kind != 'D') argument_error(k, i, "cannot pass a complex number");
  if (is_float && std::strchr("bBhHiIlLqQ?", kind)) argument_error(k, i, "cannot pass a float to an integer parameter");
  auto integer = [&](long long lo, unsigned long long hi) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow > 0 && hi == ~0ull) {
      unsigned long long u = PyLong_AsUnsignedLongLong(o);
      if (!PyErr_Occurred()) return static_cast<long long>(u);
      PyErr_Clear();
    }
    if (PyErr_Occurred()) throw nb::python_error();
    if (overflow || v < lo || (v > 0 && static_cast<unsigned long long>(v) > hi))
      throw OverflowError("argument " + std::to_string(i) + " of " + k.name + " ('" + k.declarations[i] +
                          "'): Python int out of the parameter type's range");
    return v;
  };
  switch (kind) {
    case '?': store(slot, static_cast<bool>(PyObject_IsTrue(o))); break;
    case 'b': store(slot, static_cast<int8_t>(integer(INT8_MIN, INT8_MAX))); break;
    case 'B': store(slot, static_cast<uint8_t>(integer(0, UINT8_MAX))); break;
    case 'h': store(slot, static_cast<int16_t>(integer(INT16_MIN, INT16_MAX))); break;
    case 'H': store(slot, static_cast<uint16_t>(integer(0, UINT16_MAX))); break;
    case 'i': store(slot, static_cast<int32_t>(integer(INT32_MIN, INT32_MAX))); break;
    case 'I': store(slot, static_cast<uint32_t>(integer(0, UINT32_MAX))); break;
    case 'l': case 'q': store(slot, static_cast<int64_t>(integer(INT64_MIN, INT64_MAX))); break;
    case 'L': case 'Q': store(slot, static_cast<uint64_t>(integer(0, ~0ull))); break;
    case 'e': store(slot, static_cast<float16>(PyFloat_AsDouble(o))); break;
    case 'f': store(slot, static_cast<float>(PyFloat_AsDouble(o))); break;
    case 'd': store(slot, PyFloat_AsDouble(o)); break;
    case 'F': {
      Py_complex c = PyComplex_AsCComplex(o);
      store(slot, std::complex<float>(static_cast<float>(c.real), static_cast<float>(c.imag)));
      break;
    }
    case 'D': {
      Py_complex c = PyComplex_AsCComplex(o);
      store(slot, std::complex<double>(c.real, c.imag));
      break;
    }
    default: argument_error(k, i, "unsupported parameter type");
  }
  if (PyErr_Occurred()) throw nb::python_error();
}

// A Python bool/int/float/complex that is not a NumPy scalar: numpy.float64
// and numpy.complex128 subclass float and complex but pass as their exact
// type, so they work where the parameter's type is unknown too.
bool is_python_number(PyObject* o) {
  if (PyBool_Check(o) || PyLong_Check(o) || PyFloat_CheckExact(o) || PyComplex_CheckExact(o)) return true;
  return (PyFloat_Check(o) || PyComplex_Check(o)) && PyObject_IsInstance(o, numpy_types().generic.ptr()) != 1;
}

Device cuda_array_interface_device() {
#ifdef KILN_WITH_CUDA
  return Device::cuda(cuda::current_device());
#else
  throw TypeError("an argument has __cuda_array_interface__ but kiln was built without CUDA");
#endif
}

// The device an argument lives on is merged into `found`.
void merge_device(const KernelLauncher& k, size_t i, Device d, bool& have, Device& found) {
  if (have && d != found)
    argument_error(k, i, "is on " + d.str() + " but an earlier array argument is on " + found.str());
  have = true;
  found = d;
}

std::array<unsigned, 3> launch_dims(nb::handle value, const char* what) {
  std::array<unsigned, 3> dims{1, 1, 1};
  auto one = [&](nb::handle v) -> unsigned {
    if (!PyLong_Check(v.ptr())) throw TypeError(std::string(what) + ": expected an int or a tuple of 1 to 3 ints");
    long long d = PyLong_AsLongLong(v.ptr());
    if (PyErr_Occurred() || d < 1 || d > 0xffffffffLL)
      throw ValueError(std::string(what) + ": every dimension must be between 1 and 2**32-1, got " +
                       nb::cast<std::string>(nb::str(v)));
    return static_cast<unsigned>(d);
  };
  if (PyTuple_Check(value.ptr()) || PyList_Check(value.ptr())) {
    size_t n = nb::len(value);
    if (n < 1 || n > 3) throw ValueError(std::string(what) + ": expected 1 to 3 dimensions, got " + std::to_string(n));
    for (size_t d = 0; d < n; ++d) dims[d] = one(value[d]);
  } else {
    dims[0] = one(value);
  }
  return dims;
}

}  // namespace

void KernelLauncher::launch(nb::handle grid, nb::handle block, nb::handle args, size_t shared_bytes,
                            nb::handle stream) {
  const std::array<unsigned, 3> g = launch_dims(grid, "grid"), b = launch_dims(block, "block");
  if (!PyTuple_Check(args.ptr()) && !PyList_Check(args.ptr()))
    throw TypeError("args: expected a tuple of kernel arguments, got " + std::string(Py_TYPE(args.ptr())->tp_name));
  nb::sequence seq = nb::borrow<nb::sequence>(args);
  const size_t count = nb::len(seq);
  if (known_signature && count != kinds.size())
    throw TypeError(name + " takes " + std::to_string(kinds.size()) + " arguments, got " + std::to_string(count));
  if (!known_signature) {
    kinds.assign(count, 0);
    declarations.assign(count, "?");
  }
  SmallVector<ArgumentSlot, 16> slots(count);
  SmallVector<void*, 16> pointers(count);
  bool have_device = false;
  Device device = Device::cpu();
  for (size_t i = 0; i < count; ++i) {
    nb::handle a = seq[i];
    PyObject* o = a.ptr();
    pointers[i] = slots[i].bytes;
    const bool as_view = known_signature && kinds[i] == kArrayView;
    if (nb::isinstance<Array>(a)) {
      const Array& array = nb::cast<const Array&>(a);
      void* p = array.buffer() ? static_cast<char*>(array.buffer()->data()) + array.offset() : nullptr;
      if (as_view) {
        if (array.ndim() > kMaxViewDims) argument_error(*this, i, kTooManyDims);
        store_view(slots[i], p, array.ndim(), array.shape().data(), array.strides().data());
      } else {
        store(slots[i], p);
      }
      merge_device(*this, i, array.device(), have_device, device);
    } else if (PyBytes_Check(o)) {
      pointers[i] = PyBytes_AS_STRING(o);  // a struct passed by value, packed by the caller
    } else if (is_python_number(o)) {
      store_python_number(*this, i, o, slots[i]);
    } else if (PyObject_IsInstance(o, numpy_types().generic.ptr()) == 1) {
      Py_buffer view;  // a NumPy scalar passes as its exact type
      if (PyObject_GetBuffer(o, &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
      const size_t size = static_cast<size_t>(view.len);
      if (size <= kMaxScalarBytes) std::memcpy(slots[i].bytes, view.buf, size);
      PyBuffer_Release(&view);
      if (size > kMaxScalarBytes)
        argument_error(*this, i, "a NumPy scalar larger than " + std::to_string(kMaxScalarBytes) +
                                     " bytes (pass a larger struct as bytes)");
    } else if (PyObject_IsInstance(o, numpy_types().ndarray.ptr()) == 1) {
      Py_buffer view;
      if (known_signature && kinds[i] != 'p' && !as_view) {
        // A NumPy array given for a parameter passed by value (a struct,
        // double3, Matrix<T>): its bytes are the value, as CuPy passes them.
        // They stay where they are: the array is referenced by `args` until
        // the launch has read them.
        if (PyObject_GetBuffer(o, &view, PyBUF_C_CONTIGUOUS) != 0) {
          PyErr_Clear();
          argument_error(*this, i, "a NumPy array passed by value must be C-contiguous");
        }
        pointers[i] = view.buf;
        PyBuffer_Release(&view);
        continue;
      }
      if (PyObject_GetBuffer(o, &view, PyBUF_RECORDS_RO) != 0) throw nb::python_error();
      if (as_view && view.ndim > kMaxViewDims) {
        PyBuffer_Release(&view);
        argument_error(*this, i, kTooManyDims);
      }
      if (as_view) {
        int64_t shape[kMaxViewDims], strides[kMaxViewDims];
        for (int d = 0; d < view.ndim; ++d) shape[d] = view.shape[d], strides[d] = view.strides[d];
        store_view(slots[i], view.buf, view.ndim, shape, strides);
      } else {
        store(slots[i], view.buf);
      }
      PyBuffer_Release(&view);
      merge_device(*this, i, Device::cpu(), have_device, device);
    } else if (nb::hasattr(a, "__cuda_array_interface__")) {
      nb::object data = a.attr("__cuda_array_interface__")["data"];
      store(slots[i], reinterpret_cast<void*>(nb::cast<uintptr_t>(data[0])));
      merge_device(*this, i, cuda_array_interface_device(), have_device, device);
    } else {
      argument_error(*this, i, std::string("unsupported type ") + Py_TYPE(o)->tp_name +
                                   " (expected an array, a scalar or bytes)");
    }
  }
  if (!have_device) device = nb::cast<Device>(nb::module_::import_("kiln._ndarray.device").attr("default_device")());
  if (!kernel) throw TypeError(name + ": the kernel has no source (_configure was not called)");
  const Dim3 grid_dims(g[0], g[1], g[2]), block_dims(b[0], b[1], b[2]);
  if (device.kind == DeviceKind::CPU) {
    nb::gil_scoped_release release;  // the grid runs on all cores
    kernel->launch(device, grid_dims, block_dims, pointers.data(), shared_bytes, 0);
    return;
  }
  std::optional<uintptr_t> stream_handle;  // none: the device's current stream
  if (PyLong_Check(stream.ptr()))
    stream_handle = nb::cast<uintptr_t>(stream);
  else if (!stream.is_none())
    stream_handle = nb::cast<uintptr_t>(stream.attr("ptr"));
  kernel->launch(device, grid_dims, block_dims, pointers.data(), shared_bytes, stream_handle);
}

}  // namespace kiln::python
