#pragma once
// The elementwise ops, each listed once. Core, backends and bindings expand
// these lists so that adding an op is one line here plus its kernel.
// X(name, arity)
#define KILN_ELEMENTWISE_OPS(X) \
  X(negative, 1) X(positive, 1) X(abs, 1) X(sign, 1) X(reciprocal, 1) X(square, 1) \
  X(sqrt, 1) X(cbrt, 1) X(exp, 1) X(exp2, 1) X(expm1, 1) X(log, 1) X(log1p, 1) X(log2, 1) \
  X(log10, 1) X(sin, 1) X(cos, 1) X(tan, 1) X(asin, 1) X(acos, 1) X(atan, 1) X(sinh, 1) \
  X(cosh, 1) X(tanh, 1) X(asinh, 1) X(acosh, 1) X(atanh, 1) X(deg2rad, 1) X(rad2deg, 1) \
  X(floor, 1) X(ceil, 1) X(trunc, 1) X(rint, 1) X(isnan, 1) X(isinf, 1) X(isfinite, 1) \
  X(signbit, 1) X(logical_not, 1) X(bitwise_invert, 1) X(conj, 1) \
  X(erf, 1) X(erfc, 1) X(erfinv, 1) X(erfcinv, 1) X(gammaln, 1) X(gamma, 1) X(j0, 1) X(j1, 1) \
  X(y0, 1) X(y1, 1) \
  X(add, 2) X(subtract, 2) X(multiply, 2) X(divide, 2) X(floor_divide, 2) X(remainder, 2) \
  X(fmod, 2) X(power, 2) X(equal, 2) X(not_equal, 2) X(less, 2) X(less_equal, 2) \
  X(greater, 2) X(greater_equal, 2) X(logical_and, 2) X(logical_or, 2) X(logical_xor, 2) \
  X(bitwise_and, 2) X(bitwise_or, 2) X(bitwise_xor, 2) X(bitwise_left_shift, 2) \
  X(bitwise_right_shift, 2) X(minimum, 2) X(maximum, 2) X(fmin, 2) X(fmax, 2) X(atan2, 2) \
  X(hypot, 2) X(logaddexp, 2) X(copysign, 2) X(nextafter, 2) \
  X(clip, 3) X(where, 3)

#define KILN_REDUCE_OPS(X) X(sum) X(prod) X(min) X(max) X(any) X(all) X(argmin) X(argmax) \
  X(squared_deviations)
#define KILN_SCAN_OPS(X) X(cumulative_sum) X(cumulative_prod)
