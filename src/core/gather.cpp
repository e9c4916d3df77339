// take: the output's shape, the index checks (which need the indices' extremes
// on the host, as NumPy's mode "raise" does), then the device's gather kernel.
#include "kiln/gather.hpp"

#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"

namespace kiln {

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis) {
  if (kind(indices.dtype()) != DTypeKind::SignedInt && kind(indices.dtype()) != DTypeKind::UnsignedInt)
    throw TypeError("kiln.take: indices must be integers, got " + std::string(name(indices.dtype())));
  if (indices.device() != a.device())
    throw TypeError("kiln.take: indices are on " + indices.device().str() + " but the array is on " + a.device().str());
  Array src = a.is_c_contiguous() ? a : a.copy();
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
  if (indices.dtype() == DType::UInt64 && max(indices).item().u > static_cast<uint64_t>(INT64_MAX))
    throw IndexError("kiln.take: an index is out of bounds for axis " + std::to_string(ax) + " with size " +
                     std::to_string(n));
  const Array idx = indices.dtype() == DType::Int64 && indices.is_c_contiguous() ? indices : indices.astype(DType::Int64);
  const int64_t lowest = min(idx).item().i, highest = max(idx).item().i;
  if (lowest < -n || highest >= n)
    throw IndexError("kiln.take: index " + std::to_string(lowest < -n ? lowest : highest) +
                     " is out of bounds for axis " + std::to_string(ax) + " with size " + std::to_string(n));
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
  kernel(args);
  return out;
}

}  // namespace kiln
