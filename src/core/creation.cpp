#include "kiln/creation.hpp"

#include <cmath>
#include <string>

#include "kiln/error.hpp"
#include "kiln/ops.hpp"
#include "kiln/registry.hpp"
#include "strided_plan.hpp"

namespace kiln {

Array empty(const Shape& shape, DType dtype, Device device) { return Array::empty(shape, dtype, device); }

Array zeros(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar::from_int(0), dtype, device);
}

Array ones(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar::from_int(1), dtype, device);
}

Array full(const Shape& shape, const Scalar& value, std::optional<DType> dtype, Device device) {
  Array a = Array::empty(shape, dtype.value_or(value.own_dtype()), device);
  a.assign(value);
  return a;
}

namespace {

double as_double(const Scalar& s) {
  switch (s.kind) {
    case ScalarKind::Bool: return s.b ? 1.0 : 0.0;
    case ScalarKind::Int: return s.is_unsigned_big ? static_cast<double>(s.u) : static_cast<double>(s.i);
    case ScalarKind::Float: return s.f;
    case ScalarKind::Complex: return s.c.real();
  }
  return 0.0;
}

}  // namespace

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step, std::optional<DType> dtype,
             Device device) {
  DType natural = result_type({}, {start, stop, step});
  if (natural == DType::Bool) natural = kDefaultInt;
  DType dt = dtype.value_or(natural);
  if (is_complex(natural)) throw TypeError("arange: complex start, stop or step is not supported");
  double b = as_double(start), e = as_double(stop), s = as_double(step);
  if (s == 0) throw ValueError("arange: step must not be zero");
  if (!std::isfinite(b) || !std::isfinite(e) || !std::isfinite(s))
    throw ValueError("arange: start, stop and step must be finite");
  int64_t n;
  if (is_integer(natural)) {
    // Exact integer length: ceil((stop - start) / step).
    int64_t bi = start.i, ei = stop.i, si = step.i;
    if (start.kind == ScalarKind::Bool) bi = start.b;
    if (stop.kind == ScalarKind::Bool) ei = stop.b;
    if (step.kind == ScalarKind::Bool) si = step.b;
    if (si == INT64_MIN) si = -INT64_MAX;
    if ((ei > 0 && bi < 0 && ei > INT64_MAX + bi) || (ei < 0 && bi > 0 && ei < INT64_MIN + bi))
      throw ValueError("arange: the requested array is too big");
    int64_t span = ei - bi;
    n = si > 0 ? (span > 0 ? (span + si - 1) / si : 0) : (span < 0 ? (span + si + 1) / si : 0);
  } else {
    double len = std::ceil((e - b) / s);
    if (len > 9.0e18) throw ValueError("arange: the requested array is too big");
    n = len > 0 ? static_cast<int64_t>(len) : 0;
  }
  Array out = Array::empty({n}, dt, device);
  if (n == 0) return out;
  IotaKernel k = kernel_table(device.kind).iota[static_cast<int>(dt)];
  if (!k) throw TypeError("arange: dtype " + std::string(name(dt)) + " is not supported on " + device.str());
  // NumPy computes the step as (start + step) - start in the output dtype.
  alignas(16) unsigned char vstart[16], vstep[16];
  start.store(dt, vstart);
  if (is_integer(dt) || dt == DType::Bool) {
    step.store(dt, vstep);
  } else {
    Scalar delta = Scalar::from_double((b + s) - b);
    delta.store(dt, vstep);
  }
  detail::StridedPlan plan({&out}, out.shape());
  k(plan.args(), vstart, vstep);
  return out;
}

Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint,
               std::optional<DType> dtype, Device device) {
  if (num < 0) throw ValueError("linspace: num must be non-negative, got " + std::to_string(num));
  DType natural = result_type({kDefaultFloat}, {start, stop});
  DType dt = dtype.value_or(natural);
  int64_t div = endpoint ? num - 1 : num;
  double b = as_double(start), e = as_double(stop);
  double step = div > 0 ? (e - b) / static_cast<double>(div) : 0.0;
  // NumPy: start + arange(num) * step, with the last sample pinned to stop;
  // a step that underflows to zero (a range of subnormals) scales
  // arange(num) / div by the range instead, as NumPy does.
  Array idx = arange(Scalar::from_int(0), Scalar::from_int(num), Scalar::from_int(1), DType::Float64, device);
  Array y = div <= 0      ? add(multiply(idx, e - b), b)
            : step == 0.0 ? add(multiply(divide(idx, static_cast<double>(div)), e - b), b)
                          : add(multiply(idx, step), b);
  if (endpoint && num > 1) y.index({int64_t{num - 1}}).assign(Scalar::from_double(e));
  return y.astype(dt, false);
}

Array eye(int64_t n_rows, std::optional<int64_t> n_cols, int64_t k, DType dtype, Device device) {
  if (n_rows < 0 || n_cols.value_or(0) < 0) throw ValueError("eye: the number of rows and columns must be non-negative");
  Array a = zeros({n_rows, n_cols.value_or(n_rows)}, dtype, device);
  a.diagonal(k).assign(Scalar::from_int(1));
  return a;
}

}  // namespace kiln
