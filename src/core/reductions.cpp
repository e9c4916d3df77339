// Reductions and scans: axis normalisation, accumulation dtypes, output
// allocation; the kernels themselves come from the device's table.
#include "kiln/reductions.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kiln/creation.hpp"
#include "kiln/error.hpp"
#include "kiln/ops.hpp"
#include "kiln/registry.hpp"
#include "fused_kernel.hpp"

namespace kiln {
namespace {

constexpr const char* kReduceNames[] = {
#define KILN_REDUCE_NAME(name) #name,
    KILN_REDUCE_OPS(KILN_REDUCE_NAME)
#undef KILN_REDUCE_NAME
};

std::vector<bool> reduced_mask(const Axes& axes, int ndim) {
  std::vector<bool> mask(ndim, !axes.has_value());
  if (axes) {
    for (int64_t a : *axes) {
      int ax = normalize_axis(a, ndim);
      if (mask[ax]) throw ValueError("axis: duplicate value in 'axis'");
      mask[ax] = true;
    }
  }
  return mask;
}

Shape reduced_shape(const Shape& shape, const std::vector<bool>& mask, bool keepdims) {
  Shape out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!mask[i]) out.push_back(shape[i]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

// Appends the (kept or reduced) axes of x, merging neighbours that are one
// run in memory (and in `out`, for kept axes).
void collect_axes(const Array& x, const std::vector<bool>& mask, bool want_reduced,
                  const Strides* out_strides_full, Shape& shape, Strides& in_strides,
                  Strides* out_strides) {
  size_t start = shape.size();
  for (int i = 0; i < x.ndim(); ++i) {
    if (mask[i] != want_reduced || x.shape()[i] == 1) continue;
    int64_t len = x.shape()[i], st = x.strides()[i];
    int64_t ost = out_strides_full ? (*out_strides_full)[i] : 0;
    if (shape.size() > start && in_strides.back() == st * len &&
        (!out_strides || out_strides->back() == ost * len)) {
      shape.back() *= len;
      in_strides.back() = st;
      if (out_strides) out_strides->back() = ost;
    } else {
      shape.push_back(len);
      in_strides.push_back(st);
      if (out_strides) out_strides->push_back(ost);
    }
  }
}

bool has_identity(ReduceOp op) {
  return op == ReduceOp::sum || op == ReduceOp::prod || op == ReduceOp::any || op == ReduceOp::all;
}

Scalar identity_of(ReduceOp op) {
  return Scalar::from_int((op == ReduceOp::prod || op == ReduceOp::all) ? 1 : 0);
}

// Reduces x (already in the kernel's dtype, or the one `kernel` reads) over the axes in mask.
Array reduce(ReduceOp op, const Array& x, const std::vector<bool>& mask, bool keepdims, DType out_dtype,
             ReduceKernel kernel = nullptr) {
  Array out = Array::empty(reduced_shape(x.shape(), mask, keepdims), out_dtype, x.device());
  int64_t reduce_size = 1;
  for (int i = 0; i < x.ndim(); ++i)
    if (mask[i]) reduce_size *= x.shape()[i];
  if (out.size() == 0) return out;
  if (reduce_size == 0) {
    if (!has_identity(op))
      throw ValueError(std::string("zero-size array to reduction operation ") +
                       reduce_name(op) + " which has no identity");
    out.assign(identity_of(op));
    return out;
  }
  if (!kernel) kernel = kernel_table(x.device().kind).reduce[static_cast<int>(op)][static_cast<int>(x.dtype())];
  if (!kernel)
    throw TypeError(std::string("kiln.") + reduce_name(op) + " is not supported for dtype " +
                    std::string(name(x.dtype())) + " on " + x.device().str());
  // Output strides indexed like x's axes (reduced axes get 0).
  Strides out_full(x.ndim(), 0);
  {
    int j = 0;
    for (int i = 0; i < x.ndim(); ++i) {
      if (!mask[i]) out_full[i] = out.strides()[j++];
      else if (keepdims) ++j;
    }
  }
  Shape shape;
  Strides in_strides, out_strides;
  collect_axes(x, mask, false, &out_full, shape, in_strides, &out_strides);
  int kept_ndim = static_cast<int>(shape.size());
  collect_axes(x, mask, true, nullptr, shape, in_strides, nullptr);
  if (static_cast<int>(shape.size()) == kept_ndim) {
    // Every reduced axis has length 1 (or x is 0-d): kernels still get one axis.
    shape.push_back(1);
    in_strides.push_back(0);
  }
  ReduceArgs args;
  args.device = x.device().index;
  args.out = out.data();
  args.kept_ndim = kept_ndim;
  args.reduce_ndim = static_cast<int>(shape.size()) - kept_ndim;
  args.shape = shape.data();
  args.in_strides = in_strides.data();
  args.out_strides = out_strides.data();
  args.kept_size = out.size();
  args.reduce_size = reduce_size;
  // A pending expression's value is reduced as it is computed, never stored
  // (every reduction's kernel takes the backend's computed input).
  const bool widening = kernel == kernel_table(x.device().kind).widening_sum[static_cast<int>(x.dtype())];
  if (fusion::reduce_pending(x, widening ? fusion::kWideningSum : static_cast<int>(op), kernel, args)) return out;
  args.in = x.data();
  kernel(args);
  return out;
}

Array sum_like(ReduceOp op, const Array& x, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  DType dt = dtype.value_or(default_accumulation_dtype(x.dtype()));
  auto mask = reduced_mask(axis, x.ndim());
  if (op == ReduceOp::sum && dt != x.dtype() && dt == default_accumulation_dtype(x.dtype()))
    if (ReduceKernel wide = kernel_table(x.device().kind).widening_sum[static_cast<int>(x.dtype())])
      return reduce(op, x, mask, keepdims, dt, wide);
  return reduce(op, x.astype(dt, false), mask, keepdims, dt);
}

Array min_max(ReduceOp op, const Array& x, const Axes& axis, bool keepdims) {
  return reduce(op, x, reduced_mask(axis, x.ndim()), keepdims, x.dtype());
}

Array any_all(ReduceOp op, const Array& x, const Axes& axis, bool keepdims) {
  return reduce(op, x.astype(DType::Bool, false), reduced_mask(axis, x.ndim()), keepdims, DType::Bool);
}

Array arg_reduce(ReduceOp op, const Array& x, std::optional<int64_t> axis, bool keepdims) {
  if (!axis) {
    Array r = reduce(op, x.ravel(), {true}, false, DType::Int64);
    if (keepdims) return r.reshape(Shape(x.ndim(), 1));
    return r;
  }
  std::vector<bool> mask(x.ndim(), false);
  mask[normalize_axis(*axis, x.ndim())] = true;
  return reduce(op, x, mask, keepdims, DType::Int64);
}

int64_t count_reduced(const Array& x, const Axes& axis) {
  auto mask = reduced_mask(axis, x.ndim());
  int64_t n = 1;
  for (int i = 0; i < x.ndim(); ++i)
    if (mask[i]) n *= x.shape()[i];
  return n;
}

// The dtype mean/var compute in: float64 for integers, float32 for float16.
DType mean_compute_dtype(DType dt) {
  if (!is_inexact(dt)) return DType::Float64;
  if (dt == DType::Float16) return DType::Float32;
  return dt;
}

Array scan(ScanOp op, const Array& x, std::optional<int64_t> axis, std::optional<DType> dtype,
           bool include_initial) {
  const char* fname = op == ScanOp::cumulative_sum ? "cumulative_sum" : "cumulative_prod";
  if (x.ndim() == 0) throw ValueError(std::string(fname) + ": x must have at least one dimension");
  if (!axis && x.ndim() != 1)
    throw ValueError(std::string(fname) + ": axis must be given for arrays with more than one dimension");
  int ax = normalize_axis(axis.value_or(0), x.ndim());
  DType dt = dtype.value_or(default_accumulation_dtype(x.dtype()));
  Array in = x.astype(dt, false);
  Shape out_shape = x.shape();
  if (include_initial) out_shape[ax] += 1;
  Array out = Array::empty(out_shape, dt, x.device());
  Array body = out;
  if (include_initial) {
    std::vector<IndexItem> first(x.ndim(), Slice{}), rest(x.ndim(), Slice{});
    first[ax] = Slice{0, 1, 1};
    rest[ax] = Slice{1, std::nullopt, 1};
    out.index(first).assign(Scalar::from_int(op == ScanOp::cumulative_sum ? 0 : 1));
    body = out.index(rest);
  }
  if (in.size() == 0) return out;
  ScanKernel kernel = kernel_table(x.device().kind).scan[static_cast<int>(op)][static_cast<int>(dt)];
  if (!kernel)
    throw TypeError(std::string("kiln.") + fname + " is not supported for dtype " + std::string(name(dt)));
  Shape outer_shape;
  Strides in_outer, out_outer;
  for (int i = 0; i < x.ndim(); ++i) {
    if (i == ax) continue;
    outer_shape.push_back(in.shape()[i]);
    in_outer.push_back(in.strides()[i]);
    out_outer.push_back(body.strides()[i]);
  }
  ScanArgs args;
  args.device = x.device().index;
  args.in = in.data();
  args.out = body.data();
  args.length = in.shape()[ax];
  args.in_axis_stride = in.strides()[ax];
  args.out_axis_stride = body.strides()[ax];
  args.outer_ndim = static_cast<int>(outer_shape.size());
  args.outer_size = shape_size(outer_shape);
  args.outer_shape = outer_shape.data();
  args.in_outer_strides = in_outer.data();
  args.out_outer_strides = out_outer.data();
  kernel(args);
  return out;
}

}  // namespace

const char* reduce_name(ReduceOp op) { return kReduceNames[static_cast<int>(op)]; }

Array sum(const Array& x, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  return sum_like(ReduceOp::sum, x, axis, keepdims, dtype);
}
Array prod(const Array& x, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  return sum_like(ReduceOp::prod, x, axis, keepdims, dtype);
}
Array min(const Array& x, const Axes& axis, bool keepdims) { return min_max(ReduceOp::min, x, axis, keepdims); }
Array max(const Array& x, const Axes& axis, bool keepdims) { return min_max(ReduceOp::max, x, axis, keepdims); }
Array any(const Array& x, const Axes& axis, bool keepdims) { return any_all(ReduceOp::any, x, axis, keepdims); }
Array all(const Array& x, const Axes& axis, bool keepdims) { return any_all(ReduceOp::all, x, axis, keepdims); }
Array argmin(const Array& x, std::optional<int64_t> axis, bool keepdims) {
  return arg_reduce(ReduceOp::argmin, x, axis, keepdims);
}
Array argmax(const Array& x, std::optional<int64_t> axis, bool keepdims) {
  return arg_reduce(ReduceOp::argmax, x, axis, keepdims);
}

Array mean(const Array& x, const Axes& axis, bool keepdims, std::optional<DType> dtype) {
  DType result = dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : kDefaultFloat);
  DType compute = mean_compute_dtype(result);
  int64_t n = count_reduced(x, axis);
  Array total = sum(x, axis, keepdims, compute);
  // 0/0 gives NaN for an empty reduction, as NumPy's mean does.
  Array m = divide(total, static_cast<double>(n));
  return m.dtype() == result ? m : m.astype(result);
}

Array var(const Array& x, const Axes& axis, double correction, bool keepdims, std::optional<DType> dtype) {
  DType result = real_dtype(dtype.value_or(is_inexact(x.dtype()) ? x.dtype() : kDefaultFloat));
  DType compute = mean_compute_dtype(dtype.value_or(x.dtype()));
  int64_t n = count_reduced(x, axis);
  double dof = std::max(static_cast<double>(n) - correction, 0.0);
  Array squared_deviations;
  // A backend with the one-pass accumulator reads x once; it computes in
  // mean_compute_dtype(x.dtype()), so a dtype= asking for another goes the two-pass way.
  ReduceKernel one_pass =
      kernel_table(x.device().kind).reduce[static_cast<int>(ReduceOp::squared_deviations)][static_cast<int>(x.dtype())];
  if (one_pass && n > 0 && mean_compute_dtype(x.dtype()) == compute) {
    squared_deviations = reduce(ReduceOp::squared_deviations, x, reduced_mask(axis, x.ndim()), keepdims,
                                real_dtype(compute), one_pass);
  } else {
    Array xc = x.astype(compute, false);
    Array centred = subtract(xc, mean(xc, axis, true));
    squared_deviations = sum(is_complex(compute) ? add(square(centred.real()), square(centred.imag()))
                                                 : multiply(centred, centred),
                             axis, keepdims);
  }
  Array v = divide(squared_deviations, dof);
  return v.dtype() == result ? v : v.astype(result);
}

Array std(const Array& x, const Axes& axis, double correction, bool keepdims, std::optional<DType> dtype) {
  Array v = var(x, axis, correction, keepdims, dtype);
  return sqrt(v);
}

Array cumulative_sum(const Array& x, std::optional<int64_t> axis, std::optional<DType> dtype,
                     bool include_initial) {
  return scan(ScanOp::cumulative_sum, x, axis, dtype, include_initial);
}
Array cumulative_prod(const Array& x, std::optional<int64_t> axis, std::optional<DType> dtype,
                      bool include_initial) {
  return scan(ScanOp::cumulative_prod, x, axis, dtype, include_initial);
}

}  // namespace kiln
