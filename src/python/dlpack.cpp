// DLPack capsules for kiln._core: an Array exported as a DLManagedTensor
// ("dltensor") or DLManagedTensorVersioned ("dltensor_versioned"), and either
// capsule taken in as an Array viewing the producer's memory. The structs
// follow dlpack.h (v1.0); stream ordering is the Python layer's (_dlpack.py).
#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>

#include "convert.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace kiln::python {
namespace {

// ---- dlpack.h ----------------------------------------------------------
enum DLDeviceType : int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum DLDataTypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null for C-contiguous
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
constexpr uint64_t kReadOnly = 1ull << 0;
constexpr uint64_t kIsCopied = 1ull << 1;
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  uint64_t flags;
  DLTensor dl_tensor;
};
// -------------------------------------------------------------------------

DLDataType to_dl(DType dt) {
  const uint8_t bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (kind(dt)) {
    case DTypeKind::Bool: return {kDLBool, 8, 1};
    case DTypeKind::UnsignedInt: return {kDLUInt, bits, 1};
    case DTypeKind::SignedInt: return {kDLInt, bits, 1};
    case DTypeKind::Float: return {kDLFloat, bits, 1};
    case DTypeKind::Complex: return {kDLComplex, bits, 1};
  }
  throw TypeError("unreachable dtype");
}

DType from_dl(DLDataType t) {
  if (t.lanes != 1) throw TypeError("from_dlpack: vector dtypes (lanes > 1) are not supported");
  auto pick = [&](std::initializer_list<std::pair<int, DType>> options) {
    for (auto [bits, dt] : options)
      if (bits == t.bits) return dt;
    throw TypeError("from_dlpack: " + std::to_string(t.bits) + "-bit values of DLPack type code " +
                    std::to_string(t.code) + " are not supported");
  };
  switch (t.code) {
    case kDLBool: return pick({{8, DType::Bool}});
    case kDLInt: return pick({{8, DType::Int8}, {16, DType::Int16}, {32, DType::Int32}, {64, DType::Int64}});
    case kDLUInt: return pick({{8, DType::UInt8}, {16, DType::UInt16}, {32, DType::UInt32}, {64, DType::UInt64}});
    case kDLFloat: return pick({{16, DType::Float16}, {32, DType::Float32}, {64, DType::Float64}});
    case kDLComplex: return pick({{64, DType::Complex64}, {128, DType::Complex128}});
    case kDLBfloat: throw TypeError("from_dlpack: bfloat16 is not a kiln dtype");
    default: throw TypeError("from_dlpack: DLPack type code " + std::to_string(t.code) + " is not supported");
  }
}

// What an exported tensor owns: the array (keeping its memory alive) and
// the shape and strides the DLTensor points at.
struct Export {
  Array array;
  std::vector<int64_t> shape, strides;
};

template <class Managed>
void fill(Managed* m, Export* e) {
  const Array& a = e->array;
  DLTensor& t = m->dl_tensor;
  if (a.buffer()) a.buffer()->mark_shared();  // the consumer may write through it
  t.data = a.data();
  t.device = a.device().kind == DeviceKind::CPU ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, a.device().index};
  t.ndim = static_cast<int32_t>(a.ndim());
  t.dtype = to_dl(a.dtype());
  e->shape.assign(a.shape().begin(), a.shape().end());
  for (int64_t s : a.strides()) e->strides.push_back(s / a.itemsize());  // bytes -> elements
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  m->manager_ctx = e;
}

template <class Managed>
void delete_managed(Managed* m) {
  // The consumer may call this from any thread, with or without the GIL; the
  // Array's memory release does not need Python.
  delete static_cast<Export*>(m->manager_ctx);
  delete m;
}

constexpr char kLegacyName[] = "dltensor";
constexpr char kVersionedName[] = "dltensor_versioned";

// A capsule named `Name` holding `m`. A consumer renames it "used_..." and
// owns the tensor from then on; a capsule nobody consumed frees it itself.
template <class Managed, const char* Name>
nb::object new_capsule(Managed* m) {
  PyObject* c = PyCapsule_New(m, Name, [](PyObject* capsule) {
    if (!PyCapsule_IsValid(capsule, Name)) return;
    auto* unconsumed = static_cast<Managed*>(PyCapsule_GetPointer(capsule, Name));
    if (unconsumed && unconsumed->deleter) unconsumed->deleter(unconsumed);
  });
  if (!c) {
    delete_managed(m);
    throw nb::python_error();
  }
  return nb::steal(c);
}

nb::object export_capsule(const Array& array, bool versioned, bool copied) {
  if (array.size() > 0)
    for (int64_t s : array.strides())
      if (s % array.itemsize() != 0) throw BufferError("__dlpack__: strides that are not whole elements");
  auto* e = new Export{array, {}, {}};
  if (versioned) {
    auto* m = new DLManagedTensorVersioned{};
    m->version = {1, 0};
    m->flags = (array.writeable() ? 0 : kReadOnly) | (copied ? kIsCopied : 0);
    m->deleter = &delete_managed<DLManagedTensorVersioned>;
    fill(m, e);
    return new_capsule<DLManagedTensorVersioned, kVersionedName>(m);
  }
  auto* m = new DLManagedTensor{};
  m->deleter = &delete_managed<DLManagedTensor>;
  fill(m, e);
  return new_capsule<DLManagedTensor, kLegacyName>(m);
}

// An Array viewing the capsule's tensor; the producer's deleter runs when the
// Array's memory is released.
template <class Managed>
Array import_tensor(Managed* m, bool writeable) {
  const DLTensor& t = m->dl_tensor;
  Device device = Device::cpu();
  if (t.device.device_type == kDLCUDA || t.device.device_type == kDLCUDAManaged) device = Device::cuda(t.device.device_id);
  else if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDAHost)
    throw TypeError("from_dlpack: DLPack device type " + std::to_string(t.device.device_type) +
                    " is not supported (kiln takes CPU and CUDA memory)");
  const DType dt = from_dl(t.dtype);
  const int64_t item = static_cast<int64_t>(itemsize(dt));
  Shape shape(t.shape, t.shape + t.ndim);
  Strides strides;
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i] * item);
  } else {
    strides = contiguous_strides(shape, item);
  }
  char* origin = static_cast<char*>(t.data) + t.byte_offset;
  auto release = [m](void*) {
    if (!m->deleter) return;
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire gil;  // producers' deleters (NumPy's, PyTorch's) touch Python objects
    m->deleter(m);
  };
  Array a = view_memory(origin, dt, shape, strides, device, release, writeable);
  a.buffer()->mark_shared();  // the producer still holds it
  return a;
}

Array import_capsule(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, kVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
    if (m->version.major > 1)
      throw BufferError("from_dlpack: DLPack " + std::to_string(m->version.major) + ".x is newer than kiln's 1.0");
    Array a = import_tensor(m, !(m->flags & kReadOnly));
    PyCapsule_SetName(c, "used_dltensor_versioned");
    return a;
  }
  if (PyCapsule_IsValid(c, kLegacyName)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacyName));
    Array a = import_tensor(m, true);
    PyCapsule_SetName(c, "used_dltensor");
    return a;
  }
  throw TypeError("from_dlpack: expected a DLPack capsule (\"dltensor\" or \"dltensor_versioned\") not yet consumed");
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  m.def("_dlpack_export", &export_capsule, "array"_a, "versioned"_a, "copied"_a);
  m.def("_dlpack_import", &import_capsule, "capsule"_a);
}

}  // namespace kiln::python
