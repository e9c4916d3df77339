"""Elementwise functions: the C++ ops as NumPy ufunc objects under their
array API and NumPy names (``kiln.acos is kiln.arccos``), and the ones kiln
composes from them (_elementwise_composed)."""
from ... import _core
from . import elementwise_composed as _composed
from ..._core import round  # noqa: F401  (NumPy's round is a function, not a ufunc)
from ..creation import asarray
from .elementwise_composed import (  # noqa: F401  (functions, not ufuncs, in NumPy too)
    angle, fix, i0, iscomplex, iscomplexobj, isneginf, isposinf, isreal, isrealobj, isscalar, nan_to_num,
    real_if_close, sinc,
)
from .ufunc import ufunc

_UNARY = ("abs acos acosh asin asinh atan atanh bitwise_invert cbrt ceil conj cos cosh deg2rad exp exp2 expm1 floor "
          "isfinite isinf isnan log log1p log2 log10 logical_not negative positive rad2deg reciprocal rint sign "
          "signbit sin sinh sqrt square tan tanh trunc").split()
_BINARY = ("add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor copysign divide "
           "equal floor_divide fmax fmin fmod greater greater_equal hypot less less_equal logaddexp logical_and "
           "logical_or logical_xor maximum minimum multiply nextafter not_equal power remainder subtract").split()
_COMPOSED = {"fabs": 1, "bitwise_count": 1, "gcd": 2, "lcm": 2, "heaviside": 2, "float_power": 2, "logaddexp2": 2, "ldexp": 2}
_COMPOSED_TWO_OUTPUTS = {"frexp": 1, "modf": 1, "divmod": 2}


# NumPy's own names of the ufuncs whose array API name differs.
_NUMPY_NAMES = {"abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
                "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "bitwise_invert": "invert",
                "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift", "conj": "conjugate"}


def _numpy_name(name):
    return _NUMPY_NAMES.get(name, name)


for _name in _UNARY + _BINARY:
    globals()[_name] = ufunc(_numpy_name(_name), getattr(_core, _name), 1 if _name in _UNARY else 2)
for _name, _nin in _COMPOSED.items():
    globals()[_name] = ufunc(_name, getattr(_composed, _name), _nin)
for _name, _nin in _COMPOSED_TWO_OUTPUTS.items():
    globals()[_name] = ufunc(_name, getattr(_composed, _name), _nin, nout=2)

# NumPy's spellings of the same ufuncs (the same objects, as in NumPy).
absolute = abs  # noqa: F821
arccos, arccosh, arcsin, arcsinh = acos, acosh, asin, asinh  # noqa: F821
arctan, arctan2, arctanh = atan, atan2, atanh  # noqa: F821
pow = power  # noqa: F821
true_divide = divide  # noqa: F821
mod = remainder  # noqa: F821
bitwise_not = invert = bitwise_invert  # noqa: F821
left_shift, right_shift = bitwise_left_shift, bitwise_right_shift  # noqa: F821
conjugate = conj  # noqa: F821
around = round
radians, degrees = deg2rad, rad2deg  # noqa: F821


def clip(x, /, min=None, max=None, *, out=None):
    """Limit ``x`` to [min, max]; either bound may be None. NaN propagates."""
    x = asarray(x)
    if min is None and max is None:
        return _core.positive(x, out=out) if x.dtype.kind != "b" else x.copy()
    if min is None:
        return _core.minimum(x, max, out=out)
    if max is None:
        return _core.maximum(x, min, out=out)
    return _core._clip(x, min, max, out=out)


_NOT_GIVEN = object()


def where(condition, x1=_NOT_GIVEN, x2=_NOT_GIVEN, /):
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (all
    broadcast); with ``condition`` alone, NumPy's ``condition.nonzero()``."""
    if x1 is _NOT_GIVEN and x2 is _NOT_GIVEN:
        return asarray(condition).nonzero()
    if x1 is _NOT_GIVEN or x2 is _NOT_GIVEN:
        raise ValueError("either both or neither of x and y should be given")
    return _core._where(condition, x1, x2)


def real(x, /):
    """The real part (a view for complex arrays)."""
    return asarray(x).real


def imag(x, /):
    """The imaginary part (a view for complex arrays, zeros otherwise)."""
    return asarray(x).imag
