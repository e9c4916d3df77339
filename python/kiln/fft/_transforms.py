"""numpy.fft's transforms on kiln::fft (cuFFT on the GPU, the FFTW3
interface on the CPU): the axes are moved last, each cropped or zero-padded
to its length, then transformed up to three at a time (the transforms are
separable), and scaled as ``norm`` asks."""
import builtins
import math
import operator

from .._ndarray.errors import axis_error
from .. import _core
from .._numpy.creation import asarray, zeros
from .._numpy.manipulation.shape import moveaxis

_C2C, _R2C, _C2R = 0, 1, 2
_NORMS = (None, "backward", "ortho", "forward")


def _scale(norm, points, inverse):
    """The factor NumPy's ``norm`` puts on a transform of ``points`` points."""
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    if norm == "ortho":
        return 1 / math.sqrt(points)
    if (norm == "forward") != inverse:  # "backward" scales the inverse, "forward" the forward one
        return 1 / points
    return 1.0


def swap_direction(norm):
    """hfft's norm: the opposite direction's (NumPy's _swap_direction)."""
    return {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}.get(norm, norm)


def _resize(x, axis, n):
    """x cropped or zero-padded at the end of ``axis`` to length ``n``."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    have = x.shape[axis]
    if have > n:
        return x[(builtins.slice(None),) * axis + (builtins.slice(0, n),)]
    if have < n:  # zeros and one copy: pad's general path costs several launches more
        shape = list(x.shape)
        shape[axis] = n
        out = zeros(tuple(shape), dtype=x.dtype, device=x.device)
        out[(builtins.slice(None),) * axis + (builtins.slice(0, have),)] = x
        return out
    return x


def _axes_and_lengths(a, s, axes, real_inverse=False):
    """NumPy's rules for ``s`` and ``axes``: all axes (or the last len(s))
    by default, each length the axis's own; for irfftn the last one
    2 * (m - 1)."""
    if axes is None:
        axes = builtins.range(-len(s), 0) if s is not None else builtins.range(a.ndim)
    axes = [operator.index(x) for x in axes]
    for x in axes:
        if not -a.ndim <= x < a.ndim:
            raise axis_error(f"axis {x} is out of bounds for array of dimension {a.ndim}")
    axes = [x % a.ndim for x in axes]
    if s is None:
        s = [a.shape[x] for x in axes]
        if real_inverse and axes:
            s[-1] = 2 * (a.shape[axes[-1]] - 1)
    else:
        s = [operator.index(n) for n in s]
        if len(s) != len(axes):
            raise ValueError("Shape and axes have different lengths.")
    if len(set(axes)) != len(axes):
        raise ValueError("fft: repeated axes are not supported")
    return axes, s


def _c2c(x, k, inverse):
    """Complex transforms of the last k axes, three at a time."""
    while k > 0:
        rank = min(k, 3)
        if k > rank:  # the axes k .. k - rank from the end: bring them last
            x = moveaxis(x, builtins.range(-k, -k + rank), builtins.range(-rank, 0))
            x = _core._fft(x, rank, _C2C, inverse, 0)
            x = moveaxis(x, builtins.range(-rank, 0), builtins.range(-k, -k + rank))
        else:
            x = _core._fft(x, rank, _C2C, inverse, 0)
        k -= rank
    return x


def _c2c_leading(x, k, rank, inverse):
    """Complex transforms of the first k - rank of the last k axes (the last
    rank axes are left alone)."""
    if k == rank:
        return x
    x = moveaxis(x, builtins.range(-rank, 0), builtins.range(-k, -k + rank))
    x = _c2c(x, k - rank, inverse)
    return moveaxis(x, builtins.range(-k, -k + rank), builtins.range(-rank, 0))


def _finish(result, axes, out):
    k = len(axes)
    result = moveaxis(result, builtins.range(-k, 0), axes) if k else result
    if out is None:
        return result
    out[...] = result
    return out


def c2cn(a, s, axes, norm, inverse, out=None):
    a = asarray(a)
    axes, s = _axes_and_lengths(a, s, axes)
    for axis, n in zip(axes, s):
        a = _resize(a, axis, n)
    x = moveaxis(a, axes, builtins.range(-len(axes), 0)) if axes else a
    result = _c2c(x, len(axes), inverse) if axes else a.astype(_complex_of(a.dtype))
    factor = _scale(norm, math.prod(s), inverse)
    return _finish(result * factor if factor != 1.0 else result, axes, out)


def r2cn(a, s, axes, norm, out=None):
    a = asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    axes, s = _axes_and_lengths(a, s, axes)
    if not axes:
        raise ValueError("rfftn: at least one axis must be transformed")
    for axis, n in zip(axes, s):
        a = _resize(a, axis, n)
    k = len(axes)
    x = moveaxis(a, axes, builtins.range(-k, 0))
    rank = min(k, 3)
    result = _c2c_leading(_core._fft(x, rank, _R2C, False, 0), k, rank, False)
    factor = _scale(norm, math.prod(s), False)
    return _finish(result * factor if factor != 1.0 else result, axes, out)


def c2rn(a, s, axes, norm, out=None):
    a = asarray(a)
    axes, s = _axes_and_lengths(a, s, axes, real_inverse=True)
    if not axes:
        raise ValueError("irfftn: at least one axis must be transformed")
    for axis, n in zip(axes[:-1], s[:-1]):
        a = _resize(a, axis, n)
    if s[-1] < 1:
        raise ValueError(f"Invalid number of FFT data points ({s[-1]}) specified.")
    a = _resize(a, axes[-1], s[-1] // 2 + 1)
    k = len(axes)
    x = moveaxis(a, axes, builtins.range(-k, 0))
    rank = min(k, 3)
    # The complex inverse over the leading axes, then complex-to-real over the last three.
    result = _core._fft(_c2c_leading(x, k, rank, True), rank, _C2R, True, s[-1])
    if a.dtype == "float16":  # NumPy gives float16 back for float16 input
        result = result.astype("float16")
    factor = _scale(norm, math.prod(s), True)
    return _finish(result * factor if factor != 1.0 else result, axes, out)


def _complex_of(dtype):
    return "complex64" if dtype.name in ("float16", "float32", "complex64") else "complex128"
