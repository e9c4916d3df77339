// Copies and casts: astype, copy, assignment into views, device moves.
#include <algorithm>
#include <complex>
#include <cstring>
#include <string>

#include "kiln/array.hpp"
#include "kiln/error.hpp"
#include "fusion_graph.hpp"
#include "kiln/float16.hpp"
#include "kiln/registry.hpp"
#include "strided_plan.hpp"

namespace kiln {
namespace {

void cast_into(const Array& dst, const Array& src);

// The bytes [lo, hi) a non-empty view touches, relative to its data pointer.
void byte_span(const Array& a, int64_t* lo, int64_t* hi) {
  *lo = 0;
  *hi = a.itemsize();
  for (int d = 0; d < a.ndim(); ++d) {
    int64_t extent = (a.shape()[d] - 1) * a.strides()[d];
    (extent < 0 ? *lo : *hi) += extent;
  }
}

TransferFn transfer_between(Device a, Device b) {
  Device gpu = a.kind != DeviceKind::CPU ? a : b;
  TransferFn fn = kernel_table(gpu.kind).transfer;
  if (!fn) throw ValueError("no backend is available for device " + gpu.str());
  return fn;
}

// A host array with the bytes of `a`'s span (read from its device when
// `read`), viewed in a's own layout.
Array host_image(const Array& a, bool read) {
  int64_t lo, hi;
  byte_span(a, &lo, &hi);
  Array bytes = Array::empty({hi - lo}, DType::UInt8, Device::cpu());
  if (read) transfer_between(a.device(), Device::cpu())(bytes.data(), Device::cpu(), a.data() + lo, a.device(), hi - lo);
  return Array(bytes.buffer(), a.dtype(), a.shape(), a.strides(), -lo);
}

// dst = src across devices.
void cast_across_devices(const Array& dst, const Array& src) {
  // The same bytes in the same order on both sides: one block moves.
  if (src.dtype() == dst.dtype() && src.is_c_contiguous() && dst.is_c_contiguous() && src.shape() == dst.shape()) {
    transfer_between(src.device(), dst.device())(dst.data(), dst.device(), src.data(), src.device(), dst.nbytes());
    return;
  }
  // Between two GPUs: into a dense dst in one pass by src's GPU where it
  // can write dst's memory (a strided or scattered write across the link
  // would waste it); otherwise packed in dst's dtype where the data is,
  // moved as one block (peer to peer where the devices allow) straight into
  // dst when dst is one block too, else laid out where it lands.
  if (src.device().kind != DeviceKind::CPU && dst.device().kind != DeviceKind::CPU) {
    const CastAcrossFn across = kernel_table(src.device().kind).cast_across;
    if (across && dst.is_c_contiguous()) {
      detail::StridedPlan plan({&src, &dst}, dst.shape());
      if (across(plan.args(), src.dtype(), dst.dtype(), dst.device().index)) return;
    }
    Array packed = Array::empty(src.shape(), dst.dtype(), src.device());
    cast_into(packed, src);
    if (dst.is_c_contiguous())
      transfer_between(src.device(), dst.device())(dst.data(), dst.device(), packed.data(), src.device(),
                                                   dst.nbytes());
    else
      cast_into(dst, packed.to(dst.device()));
    return;
  }
  // To or from the host: layout and dtype work happens on the host; the bytes
  // each view spans move as one block, so any strides are handled.
  const Array host_src = src.device() == Device::cpu() ? src : host_image(src, true);
  if (dst.device() == Device::cpu()) {
    cast_into(dst, host_src);
    return;
  }
  int64_t lo, hi;
  byte_span(dst, &lo, &hi);
  // A view with gaps keeps the bytes between its elements: read them first.
  const bool gaps = hi - lo != dst.nbytes();
  Array image = host_image(dst, gaps);
  cast_into(image, host_src);
  transfer_between(Device::cpu(), dst.device())(dst.data() + lo, dst.device(), image.data() + lo, Device::cpu(),
                                                hi - lo);
}

// dst[...] = src with src already broadcastable to dst; casts unsafely.
void cast_into(const Array& dst, const Array& src) {
  if (dst.size() == 0) return;
  if (src.device() != dst.device()) {
    cast_across_devices(dst, src);
    return;
  }
  ElementwiseKernel k = kernel_table(dst.device().kind)
                            .cast[static_cast<int>(src.dtype())][static_cast<int>(dst.dtype())];
  if (!k)
    throw TypeError("no cast from " + std::string(name(src.dtype())) + " to " +
                    std::string(name(dst.dtype())) + " on " + dst.device().str());
  Array source = src;
  // A source that overlaps the destination in another layout is read first.
  if (src.shares_buffer_with(dst) && !(src.offset() == dst.offset() && src.strides() == dst.strides() &&
                                       src.dtype() == dst.dtype()))
    source = src.copy();
  detail::StridedPlan plan({&source, &dst}, dst.shape());
  k(plan.args());
}

}  // namespace

Array Array::copy() const {
  Array out = Array::empty(shape_, dtype_, device());
  cast_into(out, *this);
  return out;
}

Array Array::astype(DType dtype, bool copy) const {
  if (!copy && dtype == dtype_) return *this;
  if (auto pending = fusion::record_cast(*this, dtype)) return std::move(*pending);
  Array out = Array::empty(shape_, dtype, device());
  cast_into(out, *this);
  return out;
}

Array Array::as_contiguous(DType dtype) const {
  return dtype == dtype_ && is_c_contiguous() ? *this : astype(dtype);
}

Array Array::to(Device device) const {
  if (device == this->device()) return *this;
  // A column-major array arrives column-major (as NumPy's order='K' keeps
  // it), so a Fortran-ordered host array keeps its layout on the GPU.
  bool column_major = is_f_contiguous() && !is_c_contiguous();
  Shape reversed(shape_.begin(), shape_.end());
  std::reverse(reversed.begin(), reversed.end());
  Array out = column_major ? Array::empty(reversed, dtype_, device).transpose() : Array::empty(shape_, dtype_, device);
  cast_into(out, *this);
  return out;
}

void Array::assign(const Array& src) const {
  if (!writeable()) throw ValueError("assignment destination is read-only");
  Array s = src;
  // NumPy's assignment drops the value's leading unit dimensions beyond the
  // destination's (a[0] = b of shape (1, 1, n) fills a row).
  if (s.shape().size() > shape_.size()) {
    const size_t extra = s.shape().size() - shape_.size();
    bool unit = true;
    for (size_t i = 0; i < extra; ++i) unit = unit && s.shape()[i] == 1;
    if (unit) s = s.reshape(Shape(s.shape().begin() + extra, s.shape().end()));
  }
  if (s.shape() != shape_) s = s.broadcast_to(shape_);
  cast_into(*this, s);
}

void Array::assign(const Scalar& value) const {
  if (!writeable()) throw ValueError("assignment destination is read-only");
  if (size_ == 0) return;
  FillKernel k = kernel_table(device().kind).fill[static_cast<int>(dtype_)];
  if (!k) throw TypeError("no fill kernel for " + std::string(name(dtype_)) + " on " + device().str());
  alignas(16) unsigned char value_bytes[16];
  value.store(dtype_, value_bytes);
  detail::StridedPlan plan({this}, shape_);
  k(plan.args(), value_bytes);
}

Scalar Array::item() const {
  if (size_ != 1)
    throw ValueError("can only convert an array of size 1 to a Python scalar, got size " +
                     std::to_string(size_));
  Array host = device() == Device::cpu() ? *this : to(Device::cpu());
  const char* p = host.data();
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  Scalar s;
  switch (dtype_) {
    case DType::Bool: s = Scalar::from_bool(get(bool{})); break;
    case DType::Int8: s = Scalar::from_int(get(int8_t{})); break;
    case DType::UInt8: s = Scalar::from_int(get(uint8_t{})); break;
    case DType::Int16: s = Scalar::from_int(get(int16_t{})); break;
    case DType::UInt16: s = Scalar::from_int(get(uint16_t{})); break;
    case DType::Int32: s = Scalar::from_int(get(int32_t{})); break;
    case DType::UInt32: s = Scalar::from_int(get(uint32_t{})); break;
    case DType::Int64: s = Scalar::from_int(get(int64_t{})); break;
    case DType::UInt64: s = Scalar::from_uint(get(uint64_t{})); break;
    case DType::Float16: s = Scalar::from_double(static_cast<float>(get(float16{}))); break;
    case DType::Float32: s = Scalar::from_double(get(float{})); break;
    case DType::Float64: s = Scalar::from_double(get(double{})); break;
    case DType::Complex64: s = Scalar::from_complex(std::complex<double>(get(std::complex<float>{}))); break;
    case DType::Complex128: s = Scalar::from_complex(get(std::complex<double>{})); break;
  }
  return s.typed(dtype_);
}

}  // namespace kiln
