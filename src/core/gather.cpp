// take and put: the shapes, the index checks, then the device's gather or
// scatter kernel. take's gather checks the indices as it reads them; put
// checks their extremes on the host before it writes anything.
#include "kiln/gather.hpp"

#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"

namespace kiln {
namespace {

// NumPy's message, the same for take, put and indexing (so no function name).
IndexError out_of_bounds(const std::string& index, int64_t n, int axis) {
  return IndexError("index " + index + " is out of bounds for axis " + std::to_string(axis) + " with size " +
                    std::to_string(n));
}

// `indices` as contiguous int64 (IndexError for a uint64 beyond int64's range).
Array int64_indices(const Array& indices, int64_t n, int axis) {
  if (indices.dtype() == DType::UInt64) {
    const uint64_t highest = max(indices).item().u;
    if (highest > static_cast<uint64_t>(INT64_MAX)) throw out_of_bounds(std::to_string(highest), n, axis);
  }
  return indices.as_contiguous(DType::Int64);
}

// `indices` as contiguous int64, each in [-n, n) (IndexError otherwise).
Array checked_indices(const Array& indices, int64_t n, int axis) {
  const Array idx = int64_indices(indices, n, axis);
  const int64_t lowest = min(idx).item().i, highest = max(idx).item().i;
  if (lowest < -n || highest >= n) throw out_of_bounds(std::to_string(lowest < -n ? lowest : highest), n, axis);
  return idx;
}

void check_integer_indices(const char* fn, const Array& a, const Array& indices) {
  if (kind(indices.dtype()) != DTypeKind::SignedInt && kind(indices.dtype()) != DTypeKind::UnsignedInt)
    throw TypeError(std::string(fn) + ": indices must be integers, got " + std::string(name(indices.dtype())));
  if (indices.device() != a.device())
    throw TypeError(std::string(fn) + ": indices are on " + indices.device().str() + " but the array is on " +
                    a.device().str());
}

}  // namespace

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis) {
  check_integer_indices("kiln.take", a, indices);
  Array src = a.as_contiguous(a.dtype());
  int ax = 0;
  if (axis) {
    if (src.ndim() == 0) throw ValueError("kiln.take: axis must be None for a 0-d array");
    ax = normalize_axis(*axis, src.ndim());
  } else {
    src = src.reshape({src.size()});
  }
  const int64_t n = src.shape()[ax];
  Shape out_shape;
  for (int d = 0; d < ax; ++d) out_shape.push_back(src.shape()[d]);
  for (int64_t s : indices.shape()) out_shape.push_back(s);
  for (int d = ax + 1; d < src.ndim(); ++d) out_shape.push_back(src.shape()[d]);
  Array out = Array::empty(out_shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  const Array idx = int64_indices(indices, n, ax);
  GatherKernel kernel = kernel_table(a.device().kind).gather;
  if (!kernel) throw TypeError("kiln.take is not supported on " + a.device().str());
  GatherArgs args;
  args.device = a.device().index;
  args.src = src.data();
  args.dst = out.data();
  args.indices = reinterpret_cast<const int64_t*>(idx.data());
  args.count = idx.size();
  args.axis_length = n;
  args.itemsize = src.itemsize();
  args.outer = 1;
  for (int d = 0; d < ax; ++d) args.outer *= src.shape()[d];
  args.inner = 1;
  for (int d = ax + 1; d < src.ndim(); ++d) args.inner *= src.shape()[d];
  args.check_bounds = true;
  const int64_t bad = kernel(args);
  if (bad >= 0)  // the first index out of range, as NumPy reports it
    throw out_of_bounds(std::to_string(idx.reshape({idx.size()}).index({IndexItem(bad)}).item().i), n, ax);
  return out;
}

void put(const Array& a, const Array& indices, const Array& values) {
  check_integer_indices("kiln.put", a, indices);
  if (!a.writeable()) throw ValueError("kiln.put: the array is read-only");
  if (values.device() != a.device())
    throw TypeError("kiln.put: values are on " + values.device().str() + " but the array is on " + a.device().str());
  if (indices.size() == 0) return;
  if (values.size() == 0) return;  // NumPy's put places nothing then
  const Array idx = checked_indices(indices, a.size(), 0);
  const Array vals = values.as_contiguous(a.dtype());
  // The scatter writes a C-contiguous array; any other layout goes through a copy.
  const Array target = a.as_contiguous(a.dtype());
  ScatterKernel kernel = kernel_table(a.device().kind).scatter;
  if (!kernel) throw TypeError("kiln.put is not supported on " + a.device().str());
  ScatterArgs args;
  args.device = a.device().index;
  args.dst = target.data();
  args.values = vals.data();
  args.indices = reinterpret_cast<const int64_t*>(idx.data());
  args.count = idx.size();
  args.value_count = vals.size();
  args.length = a.size();
  args.itemsize = a.itemsize();
  kernel(args);
  if (!a.is_c_contiguous()) a.assign(target);
}

}  // namespace kiln
