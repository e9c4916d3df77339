// bincount: argument checks, the output's length (which needs max(x) on the
// host, as in NumPy and CuPy), then the device's counting kernel.
// flatnonzero and extract: the backend compacts the mask (counts its true
// bytes, then writes their positions or the elements there).
#include "kiln/counting.hpp"

#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/gather.hpp"
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

namespace {

// The mask's true elements: their positions (values null) or those elements
// of the contiguous `values`.
Array compact(const Array& mask_source, const Array* values, const char* fn) {
  const DType out_dtype = values ? values->dtype() : DType::Int64;
  const Device device = mask_source.device();
  if (mask_source.size() == 0) return zeros({0}, out_dtype, device);
  MaskCompactKernel kernel = kernel_table(device.kind).compact_mask;
  if (!kernel) throw TypeError(std::string(fn) + " is not supported on " + device.str());
  const Array mask = mask_source.as_contiguous(DType::Bool);  // nonzero is true, NaN too, as NumPy's
  MaskCompactArgs args;
  args.device = device.index;
  args.mask = reinterpret_cast<const uint8_t*>(mask.data());
  args.n = mask.size();
  kernel(args);  // the count
  Array out = Array::empty({args.count}, out_dtype, device);
  if (args.count == 0) return out;
  if (values) {
    args.values = values->data();
    args.itemsize = values->itemsize();
  }
  args.out = out.data();
  kernel(args);
  return out;
}

}  // namespace

Array flatnonzero(const Array& x) { return compact(x, nullptr, "kiln.flatnonzero"); }

Array extract(const Array& condition, const Array& x) {
  if (condition.device() != x.device())
    throw TypeError("kiln.extract: condition is on " + condition.device().str() + " but arr is on " +
                    x.device().str());
  if (condition.size() != x.size())
    throw ValueError("kiln.extract: condition has " + std::to_string(condition.size()) + " elements, arr " +
                     std::to_string(x.size()));
  // The backends copy each element as one value of its size: contiguous
  // elements not aligned to it (a reinterpreting view) go through the positions.
  const Array values = x.as_contiguous(x.dtype());
  if (reinterpret_cast<uintptr_t>(values.data()) % static_cast<uintptr_t>(values.itemsize()) != 0)
    return take(values.reshape({values.size()}), flatnonzero(condition));
  return compact(condition, &values, "kiln.extract");
}

}  // namespace kiln
