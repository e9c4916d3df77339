#pragma once
// Array: a view (dtype, shape, byte strides, byte offset) of a shared Buffer.
// Every method here that returns an Array without "copy" in its name returns a
// view that shares memory with *this.
#include <optional>
#include <variant>
#include <vector>

#include "kiln/buffer.hpp"
#include "kiln/dtype.hpp"
#include "kiln/scalar.hpp"
#include "kiln/shape.hpp"

namespace kiln {

struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct Ellipsis {};
struct NewAxis {};
// One item of a basic index: an integer, a slice, `...` or None.
using IndexItem = std::variant<int64_t, Slice, Ellipsis, NewAxis>;

class Array {
 public:
  Array() = default;
  Array(BufferPtr buffer, DType dtype, Shape shape, Strides strides, int64_t offset = 0);
  // A new C-contiguous array with uninitialised contents.
  static Array empty(const Shape& shape, DType dtype, Device device = Device::cpu());

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return size_; }
  int64_t itemsize() const { return static_cast<int64_t>(kiln::itemsize(dtype_)); }
  int64_t nbytes() const { return size_ * itemsize(); }
  Device device() const { return buffer_ ? buffer_->device() : Device::cpu(); }
  const BufferPtr& buffer() const { return buffer_; }
  char* data() const { return static_cast<char*>(buffer_->data()) + offset_; }
  bool writeable() const { return buffer_ && buffer_->writeable(); }
  bool is_c_contiguous() const { return kiln::is_c_contiguous(shape_, strides_, itemsize()); }
  bool is_f_contiguous() const { return kiln::is_f_contiguous(shape_, strides_, itemsize()); }
  bool shares_buffer_with(const Array& o) const { return buffer_ == o.buffer_; }

  // Views.
  Array index(const std::vector<IndexItem>& items) const;
  Array reshape(const Shape& shape) const;  // a view when possible, else a copy; -1 allowed
  Array permute_dims(const std::vector<int>& axes) const;
  Array transpose() const;       // all axes reversed (.T)
  Array matrix_transpose() const;  // last two axes swapped (.mT)
  Array swapaxes(int a, int b) const;
  Array broadcast_to(const Shape& shape) const;
  Array squeeze(const std::vector<int>& axes) const;  // all length-1 axes when empty
  Array squeeze() const;
  Array expand_dims(const std::vector<int>& axes) const;
  Array ravel() const;    // a view when contiguous, else a copy
  Array flatten() const;  // always a copy
  Array diagonal(int64_t offset = 0) const;
  Array real() const;     // a view for complex arrays
  Array imag() const;     // a view for complex arrays, zeros otherwise
  // A view of the same memory with another dtype of equal itemsize.
  Array view(DType dtype) const;

  // Copies.
  Array copy() const;
  Array astype(DType dtype, bool copy = true) const;
  // A C-contiguous array of `dtype` with these values: *this when it already
  // is one, else a copy (what kernels that walk raw memory take).
  Array as_contiguous(DType dtype) const;
  Array to(Device device) const;
  // Writes `src` (broadcast, cast unsafely as NumPy's assignment does) into *this.
  void assign(const Array& src) const;
  void assign(const Scalar& value) const;
  Scalar item() const;  // a size-1 array as a typed scalar

 private:
  BufferPtr buffer_;
  DType dtype_ = DType::Float64;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  int64_t size_ = 0;
};

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);

// An Array viewing memory someone else owns: element (0, ..., 0) at `origin`,
// byte strides of any sign. `release` runs when the last view is gone.
Array view_memory(void* origin, DType dtype, const Shape& shape, const Strides& strides, Device device,
                  Buffer::Release release, bool writeable = true);

}  // namespace kiln
