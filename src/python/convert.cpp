#include "convert.hpp"

#include <complex>
#include <iterator>
#include <string>

namespace kiln::python {

Hooks& hooks() {
  // Leaked on purpose: Python objects must not be released after finalization.
  static Hooks* h = new Hooks;
  return *h;
}

DType to_dtype(nb::handle h, const char* arg) {
  Hooks& hk = hooks();
  for (int i = 0; i < kNumDTypes; ++i)
    if (h.is(hk.dtypes[i])) return static_cast<DType>(i);
  for (const Hooks::KnownName& known : hk.known_names)
    if (known.name.is(h)) return known.dtype;
  nb::object norm = hk.normalize_dtype(h, arg);
  for (int i = 0; i < kNumDTypes; ++i) {
    if (!norm.is(hk.dtypes[i])) continue;
    PyObject* o = h.ptr();
    // Not a class of the user's: its attributes could change what it names.
    if (PyUnicode_CheckExact(o) || (PyType_Check(o) && !PyType_HasFeature(reinterpret_cast<PyTypeObject*>(o),
                                                                          Py_TPFLAGS_HEAPTYPE))) {
      hk.known_names[hk.next_known] = {nb::borrow(h), static_cast<DType>(i)};
      hk.next_known = (hk.next_known + 1) % static_cast<int>(std::size(hk.known_names));
    }
    return static_cast<DType>(i);
  }
  throw TypeError(std::string(arg) + ": not a dtype kiln supports");
}

std::optional<DType> to_optional_dtype(nb::handle h, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return to_dtype(h, arg);
}

nb::object dtype_object(DType dt) { return hooks().dtypes[static_cast<int>(dt)]; }

Device to_device(nb::handle h, const char* arg) {
  if (h.is_none()) return Device::cpu();
  if (nb::isinstance<Device>(h)) return nb::cast<Device>(h);
  if (nb::isinstance<nb::str>(h)) return Device::parse(nb::cast<std::string>(h));
  throw TypeError(std::string(arg) + " must be a kiln.Device or a string such as 'cpu', got " +
                  nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
}

bool to_scalar(nb::handle h, Scalar* out) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) {
    *out = Scalar::from_bool(o == Py_True);
    return true;
  }
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) {
      *out = Scalar::from_int(v);
      return true;
    }
    unsigned long long u = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      throw OverflowError("Python integer " + nb::cast<std::string>(nb::str(h)) +
                          " is too large for any kiln integer dtype");
    }
    *out = Scalar::from_uint(u);
    return true;
  }
  if (PyFloat_CheckExact(o)) {
    *out = Scalar::from_double(PyFloat_AS_DOUBLE(o));
    return true;
  }
  if (PyComplex_CheckExact(o)) {
    *out = Scalar::from_complex({PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)});
    return true;
  }
  // NumPy scalars (np.float32(1), np.int8(3), np.bool_(True)) are typed.
  if (nb::cast<std::string>(h.type().attr("__module__")) == "numpy" && nb::hasattr(h, "dtype") &&
      nb::len(nb::object(h.attr("shape"))) == 0) {
    DType dt = to_dtype(h.attr("dtype"));
    Scalar s;
    if (!to_scalar(h.attr("item")(), &s)) return false;
    *out = s.typed(dt);
    return true;
  }
  return false;
}

nb::object scalar_to_python(const Scalar& s) {
  switch (s.kind) {
    case ScalarKind::Bool: return nb::bool_(s.b);
    case ScalarKind::Int:
      if (s.is_unsigned_big) return nb::steal(PyLong_FromUnsignedLongLong(s.u));
      return nb::int_(s.i);
    case ScalarKind::Float: return nb::float_(s.f);
    case ScalarKind::Complex: return nb::steal(PyComplex_FromDoubles(s.c.real(), s.c.imag()));
  }
  return nb::none();
}

bool to_operand(nb::handle h, Operand* out) {
  // A Python float or int (a + 1.0: the commonest operand after arrays) is
  // cheaper to tell apart than a kiln array, so it skips that check.
  const bool python_number = PyFloat_CheckExact(h.ptr()) || PyLong_CheckExact(h.ptr());
  if (!python_number && nb::isinstance<Array>(h)) {
    *out = Operand::borrow(nb::cast<const Array&>(h));  // `h` outlives the call that uses it
    return true;
  }
  Scalar s;
  if (to_scalar(h, &s)) {
    *out = s;
    return true;
  }
  try {
    nb::object a = hooks().asarray(h);
    *out = nb::cast<const Array&>(a);
    return true;
  } catch (const nb::python_error& e) {
    if (e.matches(PyExc_TypeError) || e.matches(PyExc_ValueError)) return false;
    throw;
  }
}

Array to_array(nb::handle h, const char* arg) {
  if (nb::isinstance<Array>(h)) return nb::cast<const Array&>(h);
  nb::object a = hooks().asarray(h);
  if (!nb::isinstance<Array>(a)) throw TypeError(std::string(arg) + " must be array-like");
  return nb::cast<const Array&>(a);
}

namespace {

int64_t to_int(nb::handle h, const char* arg) {
  PyObject* idx = PyNumber_Index(h.ptr());
  if (!idx) {
    PyErr_Clear();
    throw TypeError(std::string(arg) + " must be an integer or a sequence of integers, got " +
                    nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  }
  nb::object o = nb::steal(idx);
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(o.ptr(), &overflow);
  if (overflow) throw ValueError(std::string(arg) + " value is too large");
  return v;
}

}  // namespace

Shape to_shape(nb::handle h, const char* arg) {
  if (PyLong_Check(h.ptr()) || nb::hasattr(h, "__index__")) return {to_int(h, arg)};
  if (!PySequence_Check(h.ptr()))
    throw TypeError(std::string(arg) + " must be an integer or a sequence of integers");
  Shape shape;
  for (nb::handle item : h) shape.push_back(to_int(item, arg));
  return shape;
}

Axes to_axes(nb::handle h, const char* arg) {
  if (h.is_none()) return std::nullopt;
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
    std::vector<int64_t> axes;
    for (nb::handle item : h) axes.push_back(to_int(item, arg));
    return axes;
  }
  return std::vector<int64_t>{to_int(h, arg)};
}

namespace {

std::optional<int64_t> slice_part(PyObject* o) {
  if (o == Py_None) return std::nullopt;
  return to_int(o, "slice index");
}

bool is_array_item(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return true;
  // The basic items first: an attribute lookup that misses costs an exception.
  if (PyLong_Check(o) || PySlice_Check(o) || o == Py_None || o == Py_Ellipsis) return false;
  return nb::isinstance<Array>(h) || PyList_Check(o) || nb::hasattr(h, "__array_interface__") ||
         nb::hasattr(h, "__cuda_array_interface__");
}

IndexItem to_index_item(nb::handle h) {
  PyObject* o = h.ptr();
  if (PySlice_Check(o)) {
    auto* s = reinterpret_cast<PySliceObject*>(o);
    return Slice{slice_part(s->start), slice_part(s->stop), slice_part(s->step)};
  }
  if (o == Py_Ellipsis) return Ellipsis{};
  if (o == Py_None) return NewAxis{};
  if (!nb::hasattr(h, "__index__"))
    throw IndexError("only integers, slices (`:`), ellipsis (`...`) and None (`newaxis`) are valid indices, got " +
                     nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  return to_int(h, "index");
}

}  // namespace

bool is_advanced_index(nb::handle key) {
  if (!PyTuple_Check(key.ptr())) return is_array_item(key);
  for (nb::handle item : key)
    if (is_array_item(item)) return true;
  return false;
}

std::vector<IndexItem> to_index(nb::handle key) {
  std::vector<IndexItem> items;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle item : key) items.push_back(to_index_item(item));
  } else {
    items.push_back(to_index_item(key));
  }
  return items;
}

}  // namespace kiln::python
