"""scipy.fft's discrete cosine and sine transforms, types 2 and 3 (what
cupyx.scipy.fft offers; types 1 and 4 raise NotImplementedError, as CuPy's
do), built on kiln.fft so that they run on every device.

Unnormalised, with N points along the axis:
    DCT-II   y[k] = 2 sum_n x[n] cos(pi k (2n+1) / 2N)
    DCT-III  y[k] = x[0] + 2 sum_{n>0} x[n] cos(pi (2k+1) n / 2N)
    DST-II   y[k] = 2 sum_n x[n] sin(pi (k+1)(2n+1) / 2N)
    DST-III  y[k] = (-1)^k x[N-1] + 2 sum_{n<N-1} x[n] sin(pi (2k+1)(n+1) / 2N)
DCT-II is the real part of e^(-i pi k / 2N) times the FFT of x followed by
x reversed (2N points); DCT-III an inverse FFT of 2N points of the weighted,
phase-shifted input; the sine transforms are cosine transforms of
(-1)^n x read backwards, and of x reversed with (-1)^k applied. Complex
input is transformed as its real and imaginary parts (SciPy ignores
``orthogonalize`` for complex input unless norm is "ortho"; kiln applies it
to both parts alike)."""
import math
import operator

from .. import _core
from .. import fft as _fft
from .._numpy.creation import arange, asarray, full
from .._ndarray.errors import axis_error
from .._numpy.math.elementwise import imag, real
from .._numpy.manipulation.joining import concatenate
from .._numpy.manipulation.shape import moveaxis
from ..fft._transforms import _resize

_NORMS = (None, "backward", "ortho", "forward")
_INVERSE_NORM = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _real_dtype(dtype):
    """The float type SciPy transforms in: float32 for float16/32 and complex64, else float64."""
    return "float32" if str(dtype) in ("float16", "float32", "complex64") else "float64"


def _check(type, norm):
    if type in (1, 4):
        raise NotImplementedError(f"kiln.scipy.fft implements DCT and DST types 2 and 3 (as CuPy), not type {type}")
    if type not in (2, 3):
        raise ValueError(f"invalid type {type!r}: the transform types are 1, 2, 3 and 4")
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".')


def _phase(n, points, sign, like):
    """e^(sign i pi k / 2N) for k < n, on the device of `like`, of the complex type of its real type."""
    k = arange(n, dtype="float64", device=like.device) * (sign * math.pi / (2 * points))
    return _core.exp(k * 1j).astype("complex64" if str(like.dtype) == "float32" else "complex128")


def _dct2(x):
    n = x.shape[-1]
    doubled = concatenate([x, x[..., ::-1]], axis=-1)
    return real(_fft.rfft(doubled)[..., :n] * _phase(n, n, -1, x)).astype(x.dtype)


def _dct3(x):
    n = x.shape[-1]
    weights = full(n, 2.0, dtype=x.dtype, device=x.device)
    weights[0] = 1.0
    shifted = (x * weights) * _phase(n, n, 1, x)
    return (real(_fft.ifft(shifted, n=2 * n)[..., :n]) * (2 * n)).astype(x.dtype)


def _alternating(n, like):
    """(-1)^k for k < n, of the type and on the device of `like`."""
    return 1 - 2 * (arange(n, device=like.device) % 2).astype(like.dtype)


def _raw(kind, type, x):
    """The unnormalised transform of real x along its last axis."""
    if kind == "dct":
        return _dct2(x) if type == 2 else _dct3(x)
    n = x.shape[-1]
    if type == 2:
        return _dct2(x * _alternating(n, x))[..., ::-1]
    return _dct3(x[..., ::-1]) * _alternating(n, x)


def _forward(kind, type, x, norm, orthogonalize):
    """The forward transform of real x along its last axis, scaled as `norm` asks."""
    n = x.shape[-1]
    special = 0 if kind == "dct" else n - 1  # the element ortho's orthogonalisation treats apart
    if type == 3 and (norm == "ortho" or orthogonalize):
        x = x * (1 / math.sqrt(2 * n) if norm == "ortho" else 1.0)
        if orthogonalize:
            x[..., special] *= math.sqrt(2)
    y = _raw(kind, type, x)
    if norm == "forward":
        y = y * (1 / (2 * n))
    elif norm == "ortho" and type == 2:
        y = y * (1 / math.sqrt(2 * n))
    if type == 2 and orthogonalize:
        y[..., special] *= 1 / math.sqrt(2)
    return y


def _along(kind, x, type, n, axis, norm, inverse, orthogonalize):
    """One transform of x along `axis` (cropped or zero-padded to n)."""
    _check(type, norm)
    x = asarray(x)
    if orthogonalize is None:
        orthogonalize = norm == "ortho"
    if inverse:  # the inverse of type 2 is type 3 and back, scaled the other way
        type, norm = 5 - type, _INVERSE_NORM[norm]
    float_type = _real_dtype(x.dtype)
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise axis_error(f"axis {axis} is out of bounds for array of dimension {x.ndim}")
    if n is not None:
        n = operator.index(n)
        if n < 1:
            raise ValueError(f"invalid number of data points ({n}) specified")
        x = _resize(x, axis % x.ndim, n)
    elif x.shape[axis] < 1:
        raise ValueError(f"invalid number of data points ({x.shape[axis]}) specified")
    x = moveaxis(x, axis, -1)
    if x.dtype.kind == "c":
        parts = [_forward(kind, type, real(x).astype(float_type), norm, orthogonalize),
                 _forward(kind, type, imag(x).astype(float_type), norm, orthogonalize)]
        y = parts[0] + parts[1] * 1j
    else:
        y = _forward(kind, type, x.astype(float_type), norm, orthogonalize)
    return moveaxis(y, -1, axis)


def _shape_and_axes(x, s, axes):
    """SciPy's rules for the n-dimensional transforms' s and axes."""
    if s is not None:
        s = list(s) if isinstance(s, (tuple, list)) else [s]
        try:
            s = [operator.index(v) for v in s]
        except TypeError:
            raise ValueError("shape must be a scalar or iterable of integers") from None
    if axes is None:
        if s is not None and len(s) > x.ndim:
            raise ValueError("shape requires more axes than are present")
        axes = list(range(x.ndim - len(s), x.ndim)) if s is not None else list(range(x.ndim))
    else:
        axes = [operator.index(a) for a in axes] if isinstance(axes, (tuple, list)) else [operator.index(axes)]
        for a in axes:
            if not -x.ndim <= a < x.ndim:
                raise axis_error(f"axis {a} is out of bounds for array of dimension {x.ndim}")
        axes = [a % x.ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if s is None:
        s = [x.shape[a] for a in axes]
    elif len(s) != len(axes):
        raise ValueError("when given, axes and shape arguments have to be of the same length")
    s = [x.shape[a] if v == -1 else int(v) for v, a in zip(s, axes)]
    for v in s:
        if v < 1:
            raise ValueError(f"invalid number of data points ({v}) specified")
    return s, axes


def _along_all(kind, x, type, s, axes, norm, inverse, orthogonalize):
    _check(type, norm)
    x = asarray(x)
    s, axes = _shape_and_axes(x, s, axes)
    for n, axis in zip(s, axes):
        x = _along(kind, x, type, n, axis, norm, inverse, orthogonalize)
    if not axes:  # nothing to transform: still SciPy's result type
        x = x.astype(x.dtype if x.dtype.kind == "c" else _real_dtype(x.dtype))
    return x


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete cosine transform of x along `axis` (scipy.fft.dct)."""
    return _along("dct", x, type, n, axis, norm, False, orthogonalize)


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse discrete cosine transform (scipy.fft.idct)."""
    return _along("dct", x, type, n, axis, norm, True, orthogonalize)


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete sine transform of x along `axis` (scipy.fft.dst)."""
    return _along("dst", x, type, n, axis, norm, False, orthogonalize)


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse discrete sine transform (scipy.fft.idst)."""
    return _along("dst", x, type, n, axis, norm, True, orthogonalize)


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete cosine transform over several axes (scipy.fft.dctn)."""
    return _along_all("dct", x, type, s, axes, norm, False, orthogonalize)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse of dctn (scipy.fft.idctn)."""
    return _along_all("dct", x, type, s, axes, norm, True, orthogonalize)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The discrete sine transform over several axes (scipy.fft.dstn)."""
    return _along_all("dst", x, type, s, axes, norm, False, orthogonalize)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None):
    """The inverse of dstn (scipy.fft.idstn)."""
    return _along_all("dst", x, type, s, axes, norm, True, orthogonalize)
