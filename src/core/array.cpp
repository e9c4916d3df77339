#include "kiln/array.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "kiln/error.hpp"

namespace kiln {

Array::Array(BufferPtr buffer, DType dtype, Shape shape, Strides strides, int64_t offset)
    : buffer_(std::move(buffer)), dtype_(dtype), shape_(std::move(shape)),
      strides_(std::move(strides)), offset_(offset), size_(shape_size(shape_)) {
  if (shape_.size() > static_cast<size_t>(kMaxDims))
    throw ValueError("arrays may have at most " + std::to_string(kMaxDims) + " dimensions");
}

Array Array::empty(const Shape& shape, DType dtype, Device device) {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("negative dimensions are not allowed, got shape " + shape_str(shape));
  // Refuse sizes whose byte count overflows before asking any allocator.
  int64_t n = 1;
  const int64_t limit = INT64_MAX / static_cast<int64_t>(kiln::itemsize(dtype));
  for (int64_t d : shape) {
    if (d != 0 && n > limit / d)
      throw ValueError("array is too big: shape " + shape_str(shape) + " of " + std::string(name(dtype)) +
                       " exceeds the addressable size");
    n *= d;
  }
  auto buffer = allocate(static_cast<size_t>(n) * kiln::itemsize(dtype), device);
  return Array(std::move(buffer), dtype, shape, contiguous_strides(shape, kiln::itemsize(dtype)));
}

Array Array::reshape(const Shape& requested) const {
  Shape shape = requested;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0) throw ValueError("reshape: shape can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw ValueError("reshape: shape " + shape_str(requested) + " has a negative dimension");
    } else {
      known *= shape[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size_ % known != 0)
      throw ValueError("cannot reshape array of size " + std::to_string(size_) + " into shape " +
                       shape_str(requested));
    shape[unknown] = size_ / known;
  }
  if (shape_size(shape) != size_)
    throw ValueError("cannot reshape array of size " + std::to_string(size_) + " into shape " +
                     shape_str(requested));
  Strides strides;
  if (size_ == 0) return Array(buffer_, dtype_, shape, contiguous_strides(shape, itemsize()), offset_);
  if (reshape_strides(shape_, strides_, shape, &strides))
    return Array(buffer_, dtype_, shape, strides, offset_);
  return copy().reshape(shape);
}

Array Array::permute_dims(const std::vector<int>& axes) const {
  if (static_cast<int>(axes.size()) != ndim())
    throw ValueError("axes: expected " + std::to_string(ndim()) + " axes for permute_dims, got " +
                     std::to_string(axes.size()));
  std::vector<bool> seen(ndim(), false);
  Shape shape(ndim());
  Strides strides(ndim());
  for (int i = 0; i < ndim(); ++i) {
    int a = normalize_axis(axes[i], ndim(), "axes");
    if (seen[a]) throw ValueError("axes: repeated axis in permutation");
    seen[a] = true;
    shape[i] = shape_[a];
    strides[i] = strides_[a];
  }
  return Array(buffer_, dtype_, shape, strides, offset_);
}

Array Array::transpose() const {
  std::vector<int> axes(ndim());
  std::iota(axes.rbegin(), axes.rend(), 0);
  return permute_dims(axes);
}

Array Array::swapaxes(int a, int b) const {
  std::vector<int> axes(ndim());
  std::iota(axes.begin(), axes.end(), 0);
  std::swap(axes[normalize_axis(a, ndim(), "axis1")], axes[normalize_axis(b, ndim(), "axis2")]);
  return permute_dims(axes);
}

Array Array::matrix_transpose() const {
  if (ndim() < 2)
    throw ValueError("matrix_transpose: x must have at least 2 dimensions, got " +
                     std::to_string(ndim()));
  return swapaxes(-1, -2);
}

Array Array::broadcast_to(const Shape& shape) const {
  for (int64_t d : shape)
    if (d < 0) throw ValueError("broadcast_to: shape " + shape_str(shape) + " has a negative dimension");
  return Array(buffer_, dtype_, shape, broadcast_strides(shape_, strides_, shape), offset_);
}

Array Array::squeeze(const std::vector<int>& axes) const {
  std::vector<bool> drop(ndim(), false);
  for (int a : axes) {
    int ax = normalize_axis(a, ndim());
    if (shape_[ax] != 1)
      throw ValueError("squeeze: cannot select an axis to squeeze out which has size not equal to one (axis " +
                       std::to_string(a) + " has size " + std::to_string(shape_[ax]) + ")");
    drop[ax] = true;
  }
  Shape shape;
  Strides strides;
  for (int i = 0; i < ndim(); ++i) {
    if (!drop[i]) {
      shape.push_back(shape_[i]);
      strides.push_back(strides_[i]);
    }
  }
  return Array(buffer_, dtype_, shape, strides, offset_);
}

Array Array::squeeze() const {
  std::vector<int> axes;
  for (int i = 0; i < ndim(); ++i)
    if (shape_[i] == 1) axes.push_back(i);
  return squeeze(axes);
}

Array Array::expand_dims(const std::vector<int>& axes) const {
  int out_ndim = ndim() + static_cast<int>(axes.size());
  std::vector<bool> is_new(out_ndim, false);
  for (int a : axes) {
    int ax = normalize_axis(a, out_ndim);
    if (is_new[ax]) throw ValueError("expand_dims: repeated axis");
    is_new[ax] = true;
  }
  Shape shape;
  Strides strides;
  int src = 0;
  for (int i = 0; i < out_ndim; ++i) {
    if (is_new[i]) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(shape_[src]);
      strides.push_back(strides_[src]);
      ++src;
    }
  }
  return Array(buffer_, dtype_, shape, strides, offset_);
}

Array Array::ravel() const { return reshape({size_}); }

Array Array::flatten() const { return copy().reshape({size_}); }

Array Array::diagonal(int64_t offset) const {
  if (ndim() < 2) throw ValueError("diagonal: x must have at least 2 dimensions");
  int64_t rows = shape_[ndim() - 2], cols = shape_[ndim() - 1];
  int64_t start_row = offset < 0 ? -offset : 0, start_col = offset > 0 ? offset : 0;
  int64_t n = std::max<int64_t>(0, std::min(rows - start_row, cols - start_col));
  Shape shape(shape_.begin(), shape_.end() - 2);
  Strides strides(strides_.begin(), strides_.end() - 2);
  shape.push_back(n);
  strides.push_back(strides_[ndim() - 2] + strides_[ndim() - 1]);
  int64_t off = offset_;
  if (n > 0) off += start_row * strides_[ndim() - 2] + start_col * strides_[ndim() - 1];
  return Array(buffer_, dtype_, shape, strides, off);
}

Array Array::real() const {
  if (!is_complex(dtype_)) return *this;
  return Array(buffer_, real_dtype(dtype_), shape_, strides_, offset_);
}

Array Array::imag() const {
  if (!is_complex(dtype_)) {
    Array zeros = Array::empty(shape_, dtype_, device());
    zeros.assign(Scalar::from_int(0));
    return zeros;
  }
  DType rd = real_dtype(dtype_);
  return Array(buffer_, rd, shape_, strides_, offset_ + static_cast<int64_t>(kiln::itemsize(rd)));
}

Array Array::view(DType dtype) const {
  if (kiln::itemsize(dtype) != kiln::itemsize(dtype_))
    throw ValueError("view: dtype must have the same itemsize as the array's (" +
                     std::string(name(dtype_)) + "), got " + std::string(name(dtype)));
  return Array(buffer_, dtype, shape_, strides_, offset_);
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  Shape shape;
  for (const Array& a : arrays) shape = broadcast_shapes(shape, a.shape());
  std::vector<Array> out;
  out.reserve(arrays.size());
  for (const Array& a : arrays) out.push_back(a.broadcast_to(shape));
  return out;
}

Array view_memory(void* origin, DType dtype, const Shape& shape, const Strides& strides, Device device,
                  Buffer::Release release, bool writeable) {
  if (strides.size() != shape.size())
    throw ValueError("strides: " + std::to_string(strides.size()) + " strides for " + std::to_string(shape.size()) +
                     " dimensions");
  // The bytes the view spans, from its lowest element to past its highest.
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  int64_t low = 0, high = 0;
  if (shape_size(shape) > 0) {
    high = item;
    for (size_t i = 0; i < shape.size(); ++i) (strides[i] < 0 ? low : high) += (shape[i] - 1) * strides[i];
  }
  char* start = static_cast<char*>(origin) + low;
  BufferPtr buffer = wrap_memory(start, static_cast<size_t>(high - low), device, std::move(release), writeable);
  return Array(std::move(buffer), dtype, shape, strides, -low);
}

}  // namespace kiln
