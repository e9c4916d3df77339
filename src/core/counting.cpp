// bincount: argument checks, the output's length (which needs max(x) on the
// host, as in NumPy and CuPy), then the device's counting kernel.
// flatnonzero: the backend compacts the mask (counts its true bytes, then writes their positions).
#include "kiln/counting.hpp"

#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/reductions.hpp"
#include "kiln/registry.hpp"

namespace kiln {

Array bincount(const Array& x, const std::optional<Array>& weights, int64_t minlength) {
  if (x.ndim() != 1)
    throw ValueError("kiln.bincount: x must be 1-D, got " + std::to_string(x.ndim()) + " dimensions");
  if (!can_cast(x.dtype(), DType::Int64, Casting::Safe))
    throw TypeError("kiln.bincount: x must hold integers that fit int64, got " + std::string(name(x.dtype())));
  if (minlength < 0) throw ValueError("kiln.bincount: minlength must not be negative, got " + std::to_string(minlength));
  if (weights) {
    if (weights->shape() != x.shape())
      throw ValueError("kiln.bincount: weights must have x's shape (" + std::to_string(x.size()) + ",), got " +
                       shape_str(weights->shape()));
    if (!can_cast(weights->dtype(), DType::Float64, Casting::Safe))
      throw TypeError("kiln.bincount: weights must cast safely to float64, got " + std::string(name(weights->dtype())));
    if (weights->device() != x.device())
      throw TypeError("kiln.bincount: weights are on " + weights->device().str() + " but x is on " + x.device().str());
  }
  const DType out_dtype = weights ? DType::Float64 : DType::Int64;
  const Array index = x.as_contiguous(DType::Int64);
  int64_t length = minlength;
  if (x.size() > 0) {
    if (min(index).item().i < 0) throw ValueError("kiln.bincount: x must not hold negative values");
    length = std::max(length, max(index).item().i + 1);
  }
  Array out = zeros({length}, out_dtype, x.device());
  if (x.size() == 0) return out;
  const Array w = weights ? weights->as_contiguous(DType::Float64) : Array();
  BincountKernel kernel = kernel_table(x.device().kind).bincount[weights ? 1 : 0];
  if (!kernel) throw TypeError("kiln.bincount is not supported on " + x.device().str());
  BincountArgs args;
  args.device = x.device().index;
  args.x = reinterpret_cast<const int64_t*>(index.data());
  args.weights = weights ? reinterpret_cast<const double*>(w.data()) : nullptr;
  args.n = x.size();
  args.out = out.data();
  args.bins = length;
  kernel(args);
  return out;
}

Array flatnonzero(const Array& x) {
  if (x.size() == 0) return zeros({0}, DType::Int64, x.device());
  MaskCompactKernel kernel = kernel_table(x.device().kind).compact_mask;
  if (!kernel) throw TypeError("kiln.flatnonzero is not supported on " + x.device().str());
  const Array mask = x.as_contiguous(DType::Bool);  // nonzero is true, NaN too, as NumPy's
  MaskCompactArgs args;
  args.device = x.device().index;
  args.mask = reinterpret_cast<const uint8_t*>(mask.data());
  args.n = x.size();
  kernel(args);  // the count
  Array out = Array::empty({args.count}, DType::Int64, x.device());
  if (args.count == 0) return out;
  args.out = reinterpret_cast<int64_t*>(out.data());
  kernel(args);
  return out;
}

}  // namespace kiln
