"""Elementwise functions: the C++ ops under their array API and NumPy names."""
from . import _core
from ._core import (  # noqa: F401  (re-exported)
    abs, acos, acosh, add, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_invert,
    bitwise_left_shift, bitwise_or, bitwise_right_shift, bitwise_xor, cbrt, ceil, conj, copysign,
    cos, cosh, deg2rad, divide, equal, exp, exp2, expm1, floor, floor_divide, fmax, fmin, fmod,
    greater, greater_equal, hypot, isfinite, isinf, isnan, less, less_equal, log, log1p, log2,
    log10, logaddexp, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
    multiply, negative, nextafter, not_equal, positive, power, rad2deg, reciprocal, remainder,
    rint, round, sign, signbit, sin, sinh, sqrt, square, subtract, tan, tanh, trunc,
)

from ._creation import asarray

# NumPy's spellings of the same functions.
absolute = abs
arccos, arccosh, arcsin, arcsinh = acos, acosh, asin, asinh
arctan, arctan2, arctanh = atan, atan2, atanh
pow = power
true_divide = divide
mod = remainder
bitwise_not = invert = bitwise_invert
left_shift, right_shift = bitwise_left_shift, bitwise_right_shift
conjugate = conj
around = round
radians, degrees = deg2rad, rad2deg


def clip(x, /, min=None, max=None, *, out=None):
    """Limit ``x`` to [min, max]; either bound may be None. NaN propagates."""
    if min is None and max is None:
        return _core.positive(x, out=out) if x.dtype.kind != "b" else x.copy()
    if min is None:
        return _core.minimum(x, max, out=out)
    if max is None:
        return _core.maximum(x, min, out=out)
    return _core._clip(x, min, max, out=out)


def where(condition, x1, x2, /):
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (all broadcast)."""
    return _core._where(condition, x1, x2)


def real(x, /):
    """The real part (a view for complex arrays)."""
    return asarray(x).real


def imag(x, /):
    """The imaginary part (a view for complex arrays, zeros otherwise)."""
    return asarray(x).imag
