// kiln._core._C_API: the table of kiln/python/c_api.hpp, through which users'
// extension modules receive and return kiln arrays.
#include <nanobind/nanobind.h>

#include "convert.hpp"
#include "kiln/python/c_api.hpp"

namespace nb = nanobind;

namespace kiln::python {
namespace {

const Array* array_of(PyObject* obj) {
  nb::handle h(obj);
  return nb::isinstance<Array>(h) ? nb::inst_ptr<Array>(h) : nullptr;
}

PyObject* as_ndarray(PyObject* obj) {
  try {
    nb::handle h(obj);
    if (nb::isinstance<Array>(h)) return nb::borrow(h).release().ptr();
    // DLPack producers that are not NumPy (PyTorch's CPU tensors, JAX) are
    // viewed through DLPack; asarray views NumPy arrays and CUDA array
    // interface objects itself and copies nested sequences and scalars.
    if (nb::hasattr(h, "__dlpack__") && !nb::hasattr(h, "__array_interface__") &&
        !nb::hasattr(h, "__cuda_array_interface__"))
      return nb::module_::import_("kiln").attr("from_dlpack")(h).release().ptr();
    return hooks().asarray(h).release().ptr();
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  }
  return nullptr;
}

PyObject* to_python(const Array& a) {
  try {
    return nb::cast(a).release().ptr();
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

const CApi table{kCApiVersion, &array_of, &as_ndarray, &to_python};

}  // namespace

void bind_c_api(nb::module_& m) {
  m.attr("_C_API") = nb::steal(PyCapsule_New(const_cast<CApi*>(&table), "kiln._core._C_API", nullptr));
}

}  // namespace kiln::python
