"""``supported_ufuncs``: the NumPy ufuncs Numba 0.68.1 compiles, in its
order (aliases included), read from Numba itself. test_ufuncs.py generates
a test per ufunc and loop from it; the same list as Numba's makes kiln's run
the same tests as the baseline's."""
import numpy as _np

_NAMES = ("add subtract multiply logaddexp logaddexp2 divide floor_divide negative positive power float_power "
          "remainder fmod absolute rint sign conjugate exp exp2 log log2 log10 expm1 log1p sqrt square cbrt "
          "reciprocal divide remainder divmod absolute fabs gcd lcm sin cos tan arcsin arccos arctan arctan2 hypot "
          "sinh cosh tanh arcsinh arccosh arctanh deg2rad rad2deg degrees radians bitwise_and bitwise_or "
          "bitwise_xor invert left_shift right_shift invert greater greater_equal less less_equal not_equal equal "
          "logical_and logical_or logical_xor logical_not maximum minimum fmax fmin isfinite isinf isnan signbit "
          "copysign nextafter ldexp floor ceil trunc spacing isnat")
supported_ufuncs = [getattr(_np, name) for name in _NAMES.split()]
