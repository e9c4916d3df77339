"""NumPy's elementwise functions that kiln builds from its own elementwise
operations (so they run on every device): gcd/lcm, bitwise_count, frexp/ldexp, modf,
divmod, heaviside, float_power, logaddexp2, sinc, i0, fix, angle,
nan_to_num, and the real/complex predicates."""
import builtins
import numbers

from ... import _core
from ..._core import ndarray
from ..creation import asarray, operands
from ..manipulation.shape import broadcast_arrays
from ..._ndarray.outputs import into


def _outs(results, out):
    if out is None:
        return results
    for o, r in zip(out, results):
        if o is not None:
            o[...] = r
    return tuple(o if o is not None else r for o, r in zip(out, results))


def fabs(x, /, *, out=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("fabs: complex input is not supported (use abs)")
    if x.dtype.kind in "biu":
        x = x.astype(_core.result_type(x.dtype, "float16") if x.itemsize < 2 else
                     _core.result_type(x.dtype, "float32"))
    return _core.abs(x, out=out)


def gcd(x1, x2, /, *, out=None):
    """The greatest common divisor of integers (Euclid's algorithm, all
    elements at once; as many steps as the slowest pair needs)."""
    a, b = operands(x1, x2)
    if a.dtype.kind not in "biu" or b.dtype.kind not in "biu":
        raise TypeError("gcd: the arguments must be integers")
    dtype = _core.result_type(a, b)
    a, b = broadcast_arrays(_core.abs(a.astype(dtype)), _core.abs(b.astype(dtype)))
    a, b = a.copy(), b.copy()
    while builtins.bool(_core.any(b != 0)):
        nonzero = b != 0
        safe = _core._where(nonzero, b, 1)
        a, b = _core._where(nonzero, b, a), _core._where(nonzero, a % safe, 0)
    return into(a.astype(dtype), out)


def lcm(x1, x2, /, *, out=None):
    a, b = operands(x1, x2)
    divisor = gcd(a, b)
    result = _core.abs((a // _core._where(divisor == 0, 1, divisor)) * b)
    return into(_core._where(divisor == 0, 0, result).astype(divisor.dtype), out)


def bitwise_count(x, /, *, out=None):
    """The number of 1 bits in each integer's magnitude (NumPy 2's
    bitwise_count), as uint8: the SWAR population count on 64-bit words."""
    x = asarray(x)
    if x.dtype.kind not in "biu":
        raise TypeError(f"bitwise_count: the input must be integers, got {x.dtype}")
    # Signed magnitudes in int64, where even the smallest int64's wraps to 2**63 as uint64.
    v = (_core.abs(x.astype("int64")) if x.dtype.kind == "i" else x).astype("uint64")
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    return into(((v * 0x0101010101010101) >> 56).astype("uint8"), out)


def heaviside(x1, x2, /, *, out=None):
    """0 where x1 < 0, x2 where x1 == 0, 1 where x1 > 0 (NaN stays NaN)."""
    x, h0 = operands(x1, x2)
    # integers: NumPy's loop is the smallest float each input fits (int8 with uint8: float16)
    dtype = _core.result_type(_core.result_type(x, "float16"), _core.result_type(h0, "float16")) \
        if x.dtype.kind in "biu" and h0.dtype.kind in "biu" else _core.result_type(x, h0)
    x, h0 = x.astype(dtype, copy=False), h0.astype(dtype, copy=False)
    result = _core._where(x < 0, 0, _core._where(x > 0, 1, h0)).astype(dtype, copy=False)
    return into(_core._where(_core.isnan(x), x, result), out)


def float_power(x1, x2, /, *, out=None):
    """``x1 ** x2`` computed in float64 (complex128 for complex input)."""
    a, b = operands(x1, x2)
    dtype = "complex128" if "c" in (a.dtype.kind, b.dtype.kind) else "float64"
    return _core.power(a.astype(dtype), b.astype(dtype), out=out)


def logaddexp2(x1, x2, /, *, out=None):
    """``log2(2**x1 + 2**x2)`` without overflow."""
    a, b = operands(x1, x2)
    dtype = _core.result_type(a, b)
    if dtype.kind in "biu":
        dtype = _core.result_type(dtype, "float16") if dtype.itemsize == 1 else \
            _core.result_type(dtype, "float32") if dtype.itemsize == 2 else "float64"
    a, b = a.astype(dtype), b.astype(dtype)
    high = _core.maximum(a, b)
    result = high + _core.log1p(_core.exp2(-_core.abs(a - b))) / 0.6931471805599453
    return into(_core._where(a == b, a + 1, result).astype(dtype, copy=False), out)


# For each float type: the exponents whose power of two is a normal number,
# and the signed integer type and shift that build that power from its bits.
_POWERS_OF_TWO = {"float16": (-14, 15, "int16", 10), "float32": (-126, 127, "int32", 23),
                  "float64": (-1022, 1023, "int64", 52)}


def ldexp(x1, x2, /, *, out=None):
    """``x1 * 2**x2``, rounded once as C's ldexp where the power of two is
    a normal number: one multiplication by it, the power built from its bits
    (exact on every device, where exp2 need not be). Exponents beyond that
    range take a second multiplication first, so that neither power
    overflows where the product does not."""
    m, e = operands(x1, x2)
    if e.dtype.kind not in "biu":
        raise TypeError("ldexp: the exponent must be an integer")
    if m.dtype.kind not in "fc":
        m = m.astype("float16" if m.itemsize == 1 else "float32" if m.itemsize == 2 else "float64")
    real = {"complex64": "float32", "complex128": "float64"}.get(str(m.dtype), str(m.dtype))
    low, high, bits, shift = _POWERS_OF_TWO[real]
    last = _core.minimum(_core.maximum(e.astype("int64"), low), high)
    power = ((last - (low - 1)).astype(bits) << shift).view(real)
    scaled = (m * _core.exp2((e - last).astype(real))) * power
    # Zero, infinities and NaN are their own ldexp (inf * 2**-1100 is not 0 * inf).
    return into(_core._where(_core.isfinite(m) & (m != 0), scaled, m), out)


def frexp(x, /, out1=None, out2=None, *, out=None):
    """(mantissa, exponent) with ``x == mantissa * 2**exponent`` and
    ``0.5 <= |mantissa| < 1`` (0, inf and NaN give themselves and exponent 0)."""
    x = asarray(x)
    if x.dtype.kind not in "f":
        x = x.astype("float16" if x.itemsize == 1 else "float32" if x.itemsize == 2 else "float64")
    finite = _core.isfinite(x) & (x != 0)
    magnitude = _core._where(finite, _core.abs(x), 1)
    exponent = _core.floor(_core.log2(magnitude)).astype("int32") + 1
    mantissa = ldexp(_core._where(finite, x, 1), -exponent)
    # log2 rounds: move by one where the mantissa left [0.5, 1).
    too_big = _core.abs(mantissa) >= 1
    too_small = _core.abs(mantissa) < 0.5
    exponent = exponent + too_big.astype("int32") - too_small.astype("int32")
    mantissa = ldexp(_core._where(finite, x, 1), -exponent)
    mantissa = _core._where(finite, mantissa, x).astype(x.dtype, copy=False)
    exponent = _core._where(finite, exponent, 0).astype("int32", copy=False)
    return _outs((mantissa, exponent), out if out is not None else None if out1 is None and out2 is None
                 else (out1, out2))


def modf(x, /, out1=None, out2=None, *, out=None):
    """(fractional part, integral part), both with the sign of x."""
    x = asarray(x)
    if x.dtype.kind not in "f":
        x = x.astype("float16" if x.itemsize == 1 else "float32" if x.itemsize == 2 else "float64")
    whole = _core.trunc(x)
    fraction = _core._where(_core.isinf(x), _core.copysign(0, x), x - whole).astype(x.dtype, copy=False)
    return _outs((fraction, whole), out if out is not None else None if out1 is None and out2 is None
                 else (out1, out2))


def divmod(x1, x2, /, out1=None, out2=None, *, out=None):
    """(x1 // x2, x1 % x2)."""
    a, b = operands(x1, x2)
    return _outs((_core.floor_divide(a, b), _core.remainder(a, b)),
                 out if out is not None else None if out1 is None and out2 is None else (out1, out2))


def sinc(x, /):
    """``sin(pi x) / (pi x)``, 1 at 0."""
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype("float64")
    y = 3.141592653589793 * _core._where(x == 0, 1.0e-20, x).astype(x.dtype, copy=False)
    return _core._where(x == 0, 1, _core.sin(y) / y).astype(x.dtype, copy=False)


def i0(x, /):
    """The modified Bessel function of the first kind, order 0: its power
    series ``sum((x/2)**(2k) / (k!)**2)`` up to ``|x| = 20``, and above it
    Hankel's asymptotic series ``exp(x) / sqrt(2 pi x) * sum(((2k-1)!!)**2 / (k! (8x)**k))``
    (both summed to below double precision)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0: complex input is not supported")
    x = _core.abs(x.astype("float64") if x.dtype.kind != "f" else x)
    small = _core._where(x <= 20, x, 0)
    quarter_square = small * small / 4
    term = small * 0 + 1
    series = term
    for k in range(1, 60):
        term = term * quarter_square / (k * k)
        series = series + term
    large = _core._where(x > 20, x, 20.0)
    term = large * 0 + 1
    asymptotic = term
    for k in range(1, 25):
        term = term * ((2 * k - 1) ** 2) / (k * 8 * large)
        asymptotic = asymptotic + term
    asymptotic = asymptotic * _core.exp(large) / _core.sqrt(2 * 3.141592653589793 * large)
    return _core._where(x <= 20, series, asymptotic).astype(x.dtype, copy=False)


def fix(x, /, out=None):
    """Round toward zero, keeping the dtype of float input."""
    x = asarray(x)
    whole = _core.trunc(x)
    return into(whole if x.dtype.kind == "f" else whole.astype(x.dtype), out)


def angle(z, deg=False):
    """The argument of complex numbers (degrees when ``deg``)."""
    z = asarray(z)
    if z.dtype.kind == "c":
        result = _core.atan2(z.imag, z.real)
    else:
        # NumPy's: atan2 of a weak 0 (so +0 above negative reals: 180
        # degrees, and 0 at +inf) in the loop NumPy picks for z's dtype.
        result = _core.atan2(0, z)
    return result * (180.0 / 3.141592653589793) if deg else result


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN to ``nan``, infinities to ``posinf``/``neginf`` (the dtype's
    largest and smallest values by default); in place when ``copy=False``."""
    x = asarray(x)
    for name, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        # The replacements broadcast into x's shape, never beyond (NumPy's
        # result is x-shaped too).
        shape = getattr(value, "shape", ())
        if tuple(_core._broadcast_shapes(x.shape, tuple(shape))) != x.shape:
            raise ValueError(f"nan_to_num: {name} of shape {tuple(shape)} does not broadcast to x's shape {x.shape}")
    if x.dtype.kind not in "fc":
        return x.copy() if copy else x
    if x.dtype.kind == "c":
        real, imag = nan_to_num(x.real, True, nan, posinf, neginf), nan_to_num(x.imag, True, nan, posinf, neginf)
        result = real + 1j * imag.astype(x.dtype)
        result = result.astype(x.dtype, copy=False)
    else:
        import numpy as np

        info = np.finfo(x.dtype.name)
        high = info.max if posinf is None else posinf
        low = info.min if neginf is None else neginf
        result = _core._where(_core.isnan(x), nan, x).astype(x.dtype, copy=False)
        result = _core._where(result == float("inf"), high, result).astype(x.dtype, copy=False)
        result = _core._where(result == float("-inf"), low, result).astype(x.dtype, copy=False)
    if copy:
        return result
    x[...] = result
    return x


def isposinf(x, /, out=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("isposinf: complex input is not supported")
    return into(_core.isinf(x) & ~_core.signbit(x) if x.dtype.kind == "f" else _core.isinf(x), out)


def isneginf(x, /, out=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("isneginf: complex input is not supported")
    return into(_core.isinf(x) & _core.signbit(x) if x.dtype.kind == "f" else _core.isinf(x), out)


def iscomplex(x, /):
    """True where the imaginary part is not zero."""
    x = asarray(x)
    return x.imag != 0 if x.dtype.kind == "c" else _core._full(x.shape, False, "bool", x.device)


def isreal(x, /):
    """True where the imaginary part is zero."""
    x = asarray(x)
    return x.imag == 0 if x.dtype.kind == "c" else _core._full(x.shape, True, "bool", x.device)


def iscomplexobj(x, /):
    """Whether the dtype of x is complex (its values are not looked at)."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        import numpy as np

        dtype = np.asarray(x).dtype
    return dtype.kind == "c"


def isrealobj(x, /):
    return not iscomplexobj(x)


def isscalar(element, /):
    """NumPy's rule: Python and NumPy scalars, strings and bytes, not 0-d arrays."""
    import numpy as np

    return isinstance(element, (numbers.Number, np.generic, str, bytes)) and not isinstance(element, ndarray)


def real_if_close(a, tol=100):
    """``a.real`` when every imaginary part is within ``tol`` machine
    epsilons of zero (``tol`` below 1 is an absolute tolerance), else ``a``."""
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        import numpy as np

        tol = tol * np.finfo(a.dtype.name).eps
    return a.real if builtins.bool(_core.all(_core.abs(a.imag) < tol)) else a
