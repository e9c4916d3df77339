// kiln.ndarray: the C++ Array with Python's protocols and operators.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.hpp"
#include "fused_function.hpp"
#include "without_gil.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {
namespace {

nb::tuple to_tuple(const SmallVector<int64_t, 6>& v) {
  nb::list l;
  for (int64_t x : v) l.append(x);
  return nb::tuple(l);
}

const Array& single_element(const Array& a, const char* what) {
  if (a.size() != 1)
    throw TypeError(std::string("only size-1 arrays can be converted to Python ") + what +
                    ", got an array of size " + std::to_string(a.size()));
  return a;
}

// The operands borrow `a` (and `b` where it is an array): both outlive the call.
template <OpId Op>
nb::object forward(const Array& a, nb::handle b) {
  Operand o(0);
  if (!to_operand(b, &o)) return nb::borrow(Py_NotImplemented);
  return nb::cast(apply(Op, {Operand::borrow(a), std::move(o)}));
}
// a == obj, a != obj: an object that is no operand (None, Ellipsis, any
// object) is compared with each element as NumPy's object loop does
// (python/kiln/_object_comparison.py), not left to Python's identity test.
template <OpId Op>
nb::object compare(nb::handle self, nb::handle b) {
  nb::object result = forward<Op>(nb::cast<const Array&>(self), b);  // NotImplemented: b is no operand
  const nb::object& hook = hooks().compare_with_object;               // gone at interpreter exit
  if (!result.is(nb::handle(Py_NotImplemented)) || !hook) return result;
  return hook(self, b, Op == OpId::equal);
}
template <OpId Op>
nb::object reflected(const Array& a, nb::handle b) {
  Operand o(0);
  if (!to_operand(b, &o)) return nb::borrow(Py_NotImplemented);
  return nb::cast(apply(Op, {std::move(o), Operand::borrow(a)}));
}
template <OpId Op>
nb::object in_place(nb::handle self, nb::handle b) {
  const Array& a = nb::cast<const Array&>(self);
  Operand o(0);
  if (!to_operand(b, &o)) return nb::borrow(Py_NotImplemented);
  apply(Op, {Operand::borrow(a), std::move(o)}, &a);
  return nb::borrow(self);
}

template <OpId Op>
void bind_operator(nb::class_<Array>& cls, const char* forward_name, const char* reflected_name,
                   const char* in_place_name) {
  if (forward_name) cls.def(forward_name, &forward<Op>, nb::is_operator());
  if (reflected_name) cls.def(reflected_name, &reflected<Op>, nb::is_operator());
  if (in_place_name) cls.def(in_place_name, &in_place<Op>, nb::is_operator());
}

// NumPy's ndarray.base: a view remembers the array that owns the memory it
// shows (the first owner up a chain of views), in the instance's __dict__;
// an array with fresh memory has none. The core's arrays share a buffer, not
// a Python owner, so the binding records it where a view is made.
nb::object view_of(nb::handle self, Array&& view) {
  bool shares = view.shares_buffer_with(nb::cast<const Array&>(self));
  nb::object out = nb::cast(std::move(view));
  if (shares) {
    nb::object root = nb::getattr(self, "_base", nb::none());
    nb::setattr(out, "_base", root.is_none() ? nb::borrow(self) : root);
  }
  return out;
}

const Array& array_of(nb::handle self) { return nb::cast<const Array&>(self); }

// view[...] = value, for a Python scalar or anything that converts to an array.
void assign_into(const Array& view, nb::handle value) {
  Scalar s;
  if (to_scalar(value, &s)) view.assign(s);
  else view.assign(to_array(value, "value"));
}

}  // namespace

void bind_array(nb::module_& m) {
  nb::class_<Array> cls(m, "ndarray", nb::dynamic_attr());
  // CuPy's constructor: new memory, or a view of a MemoryPointer's (the
  // Python layer reads the pointer and makes the array; it is moved in here).
  cls.def("__init__", [](Array* self, nb::handle shape, nb::handle dtype, nb::handle memptr, nb::handle strides,
                         nb::handle order) {
        Array made = nb::cast<Array>(hooks().construct(shape, dtype, memptr, strides, order));
        new (self) Array(std::move(made));
      }, "shape"_a, "dtype"_a = nb::none(), "memptr"_a = nb::none(), "strides"_a = nb::none(), "order"_a = "C");
  // NumPy's shape setter: a reshape in place, refused where it would need a copy.
  cls.def_prop_rw("shape", [](const Array& a) { return to_tuple(a.shape()); },
                  [](Array& a, nb::handle shape) {
                    Array reshaped = a.reshape(to_shape(shape));
                    if (!reshaped.shares_buffer_with(a) && a.size() > 0)
                      throw nb::attribute_error("Incompatible shape for in-place modification. Use `.reshape()` "
                                                "to make a copy with the desired shape.");
                    a = std::move(reshaped);
                  });
  cls
      .def_prop_ro("strides", [](const Array& a) { return to_tuple(a.strides()); })
      .def_prop_ro("ndim", &Array::ndim)
      .def_prop_ro("size", &Array::size)
      .def_prop_ro("itemsize", &Array::itemsize)
      .def_prop_ro("nbytes", &Array::nbytes)
      .def_prop_ro("dtype", [](const Array& a) { return dtype_object(a.dtype()); })
      .def_prop_ro("device", &Array::device)
      .def_prop_ro("T", [](nb::handle self) { return view_of(self, array_of(self).transpose()); })
      .def_prop_ro("mT", [](nb::handle self) { return view_of(self, array_of(self).matrix_transpose()); })
      .def_prop_rw("real", [](nb::handle self) {
                     // NumPy: a real array is its own real part (the same object).
                     if (!is_complex(array_of(self).dtype())) return nb::borrow(self);
                     return view_of(self, array_of(self).real());
                   },
                   [](const Array& a, nb::handle value) { assign_into(a.real(), value); })
      .def_prop_rw("imag", [](nb::handle self) { return view_of(self, array_of(self).imag()); },
                   [](const Array& a, nb::handle value) {
                     if (!is_complex(a.dtype())) throw TypeError("array does not have imaginary part to set");
                     assign_into(a.imag(), value);
                   })
      .def_prop_ro("_data_ptr", [](const Array& a) {
        if (!a.buffer()) return uintptr_t{0};
        a.buffer()->mark_shared();  // whoever holds the pointer may write through it
        return reinterpret_cast<uintptr_t>(a.buffer()->data()) + a.offset();
      })
      .def_prop_ro("_c_contiguous", &Array::is_c_contiguous)
      .def_prop_ro("_f_contiguous", &Array::is_f_contiguous)
      .def_prop_ro("_writeable", &Array::writeable)
      .def("_shares_memory_buffer", &Array::shares_buffer_with)
      .def("_reshape", [](nb::handle self, nb::handle shape) { return view_of(self, array_of(self).reshape(to_shape(shape))); })
      .def("_permute_dims", [](nb::handle self, nb::handle axes) {
        std::vector<int> ax;
        for (int64_t v : to_shape(axes, "axes")) ax.push_back(static_cast<int>(v));
        return view_of(self, array_of(self).permute_dims(ax));
      })
      .def("_broadcast_to", [](nb::handle self, nb::handle shape) {
        return view_of(self, array_of(self).broadcast_to(to_shape(shape)));
      })
      .def("_squeeze", [](nb::handle self, nb::handle axis) {
        Axes axes = to_axes(axis);
        const Array& a = array_of(self);
        return view_of(self, axes ? a.squeeze(std::vector<int>(axes->begin(), axes->end())) : a.squeeze());
      }, "axis"_a.none())
      .def("_expand_dims", [](nb::handle self, nb::handle axis) {
        Axes axes = to_axes(axis);
        return view_of(self, array_of(self).expand_dims(std::vector<int>(axes->begin(), axes->end())));
      })
      .def("_swapaxes", [](nb::handle self, int a, int b) { return view_of(self, array_of(self).swapaxes(a, b)); })
      .def("_diagonal", [](nb::handle self, int64_t offset) { return view_of(self, array_of(self).diagonal(offset)); },
           "offset"_a = 0)
      .def("ravel", [](nb::handle self) { return view_of(self, array_of(self).ravel()); })
      .def("flatten", &Array::flatten)
      .def("copy", &Array::copy)
      .def("_astype", [](const Array& a, nb::handle dtype, bool copy) { return a.astype(to_dtype(dtype), copy); })
      // Waits for the GPU, so the GIL is let go (see bind_cuda.cpp's wait_for_gpu),
      // after a pending value has run: fusion's graphs are touched under the GIL only.
      .def("_to", [](const Array& a, Device device) {
        if (a.buffer() && a.size()) a.buffer()->data();
        nb::gil_scoped_release released;
        return a.to(device);
      })
      .def("_view", [](nb::handle self, nb::handle dtype) { return view_of(self, array_of(self).view(to_dtype(dtype))); })
      .def("item", [](const Array& a) {
        refuse_scalar_read_in_fused_function("item()");
        return scalar_to_python(a.item());
      })
      .def("__getitem__", [](nb::handle self, nb::handle key) -> nb::object {
        if (is_advanced_index(key)) return hooks().advanced_index(self, key);
        return view_of(self, array_of(self).index(to_index(key)));
      }, "key"_a.none())  // x[None] is a new axis
      .def("__setitem__", [](nb::handle self, nb::handle key, nb::handle value) {
        if (is_advanced_index(key)) {
          hooks().advanced_assign(self, key, value);
          return;
        }
        assign_into(nb::cast<const Array&>(self).index(to_index(key)), value);
      }, "key"_a.none(), "value"_a)
      .def("__len__", [](const Array& a) {
        if (a.ndim() == 0) throw TypeError("len() of unsized object");
        return a.shape()[0];
      })
      .def("__bool__", [](const Array& a) {
        refuse_scalar_read_in_fused_function("bool()");
        if (a.size() != 1)
          throw ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
        Scalar s = a.item();
        switch (s.kind) {
          case ScalarKind::Bool: return s.b;
          case ScalarKind::Int: return s.i != 0;
          case ScalarKind::Float: return s.f != 0.0;
          case ScalarKind::Complex: return s.c != std::complex<double>(0);
        }
        return false;
      })
      .def("__int__", [](const Array& a) {
        refuse_scalar_read_in_fused_function("int()");
        Scalar s = single_element(a, "scalars").item();
        if (s.kind == ScalarKind::Complex) throw TypeError("int() argument must not be a complex array");
        return nb::int_(scalar_to_python(s));
      })
      .def("__float__", [](const Array& a) {
        refuse_scalar_read_in_fused_function("float()");
        Scalar s = single_element(a, "scalars").item();
        if (s.kind == ScalarKind::Complex) throw TypeError("float() argument must not be a complex array");
        return nb::float_(scalar_to_python(s));
      })
      .def("__complex__", [](const Array& a) {
        refuse_scalar_read_in_fused_function("complex()");
        Scalar s = single_element(a, "scalars").item();
        std::complex<double> c = s.kind == ScalarKind::Complex ? s.c
                                 : s.kind == ScalarKind::Float ? std::complex<double>(s.f)
                                 : s.kind == ScalarKind::Bool ? std::complex<double>(s.b)
                                 : std::complex<double>(static_cast<double>(s.is_unsigned_big ? s.u : s.i));
        return nb::steal(PyComplex_FromDoubles(c.real(), c.imag()));
      })
      .def("__index__", [](const Array& a) {
        if (a.ndim() != 0 || !(is_integer(a.dtype()) || a.dtype() == DType::Bool))
          throw TypeError("only integer scalar arrays can be converted to a scalar index");
        return scalar_to_python(a.item());
      })
      .def("__neg__", [](const Array& a) { return negative(a); })
      .def("__pos__", [](const Array& a) { return positive(a); })
      .def("__abs__", [](const Array& a) { return abs(a); })
      .def("__invert__", [](const Array& a) { return bitwise_invert(a); });

  // kiln arrays only, as in CuPy; anything else gets NotImplemented (NumPy's
  // arrays then hand the product to kiln through __array_ufunc__).
  cls.def("__matmul__", [](const Array& a, const Array& b) { return without_gil({a, b}, [&] { return matmul(a, b); }); },
          nb::is_operator());
  cls.def("__rmatmul__", [](const Array& a, const Array& b) { return without_gil({a, b}, [&] { return matmul(b, a); }); },
          nb::is_operator());
  bind_operator<OpId::add>(cls, "__add__", "__radd__", "__iadd__");
  bind_operator<OpId::subtract>(cls, "__sub__", "__rsub__", "__isub__");
  bind_operator<OpId::multiply>(cls, "__mul__", "__rmul__", "__imul__");
  bind_operator<OpId::divide>(cls, "__truediv__", "__rtruediv__", "__itruediv__");
  bind_operator<OpId::floor_divide>(cls, "__floordiv__", "__rfloordiv__", "__ifloordiv__");
  bind_operator<OpId::remainder>(cls, "__mod__", "__rmod__", "__imod__");
  // a ** b takes NumPy's fast paths (kiln::power_operator); b ** a does not.
  bind_operator<OpId::power>(cls, nullptr, "__rpow__", nullptr);
  cls.def("__pow__", [](const Array& a, nb::handle b) -> nb::object {
    Operand o(0);
    if (!to_operand(b, &o)) return nb::borrow(Py_NotImplemented);
    return nb::cast(power_operator(a, o));
  }, nb::is_operator());
  cls.def("__ipow__", [](nb::handle self, nb::handle b) -> nb::object {
    const Array& a = nb::cast<const Array&>(self);
    Operand o(0);
    if (!to_operand(b, &o)) return nb::borrow(Py_NotImplemented);
    power_operator(a, o, &a);
    return nb::borrow(self);
  }, nb::is_operator());
  bind_operator<OpId::bitwise_and>(cls, "__and__", "__rand__", "__iand__");
  bind_operator<OpId::bitwise_or>(cls, "__or__", "__ror__", "__ior__");
  bind_operator<OpId::bitwise_xor>(cls, "__xor__", "__rxor__", "__ixor__");
  bind_operator<OpId::bitwise_left_shift>(cls, "__lshift__", "__rlshift__", "__ilshift__");
  bind_operator<OpId::bitwise_right_shift>(cls, "__rshift__", "__rrshift__", "__irshift__");
  cls.def("__eq__", &compare<OpId::equal>, nb::is_operator(), nb::arg("other").none());
  cls.def("__ne__", &compare<OpId::not_equal>, nb::is_operator(), nb::arg("other").none());
  bind_operator<OpId::less>(cls, "__lt__", nullptr, nullptr);
  bind_operator<OpId::less_equal>(cls, "__le__", nullptr, nullptr);
  bind_operator<OpId::greater>(cls, "__gt__", nullptr, nullptr);
  bind_operator<OpId::greater_equal>(cls, "__ge__", nullptr, nullptr);
}

}  // namespace kiln::python
