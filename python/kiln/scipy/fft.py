"""kiln.scipy.fft: scipy.fft's (and cupyx.scipy.fft's) functions on kiln.fft,
the cosine and sine transforms of types 2 and 3 (_realtransforms.py), and
SciPy's backend protocol, so that ``scipy.fft.set_backend(kiln.scipy.fft)``
sends SciPy's calls on kiln arrays here. ``overwrite_x`` and ``workers`` are
accepted and change nothing (kiln never overwrites the input, and the
libraries choose their threads); kiln keeps its own cuFFT plans, so ``plan``
must be None."""
import functools
import math
import operator

from .. import fft as _fft
from .._core import conj as _conj
from .._numpy.creation import asarray as _asarray
from ..fft import fftfreq, fftshift, ifftshift, rfftfreq  # noqa: F401
from ..fft._transforms import c2rn as _c2rn, r2cn as _r2cn, swap_direction as _swap_direction
from ._fftlog import fht, fhtoffset, ifht  # noqa: F401
from ._realtransforms import dct, dctn, dst, dstn, idct, idctn, idst, idstn  # noqa: F401


def _no_plan(plan):
    if plan is not None:
        raise NotImplementedError("kiln.scipy.fft keeps its own cuFFT plans: plan= must be None")


def _one(transform):
    def function(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _no_plan(plan)
        return transform(x, n, axis, norm)
    function.__name__ = transform.__name__
    function.__doc__ = f"scipy.fft.{transform.__name__} on kiln.fft.{transform.__name__}."
    return function


def _many(transform, default_axes):
    def function(x, s=None, axes=default_axes, norm=None, overwrite_x=False, workers=None, *, plan=None):
        _no_plan(plan)
        return transform(x, s, axes, norm)
    function.__name__ = transform.__name__
    function.__doc__ = f"scipy.fft.{transform.__name__} on kiln.fft.{transform.__name__}."
    return function


fft, ifft, rfft, irfft, hfft, ihfft = (_one(f) for f in (_fft.fft, _fft.ifft, _fft.rfft, _fft.irfft, _fft.hfft,
                                                          _fft.ihfft))
fft2, ifft2, rfft2, irfft2 = (_many(f, (-2, -1)) for f in (_fft.fft2, _fft.ifft2, _fft.rfft2, _fft.irfft2))
fftn, ifftn, rfftn, irfftn = (_many(f, None) for f in (_fft.fftn, _fft.ifftn, _fft.rfftn, _fft.irfftn))


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    """The n-dimensional transform of a Hermitian-symmetric signal (a real spectrum)."""
    _no_plan(plan)
    return _c2rn(_conj(_asarray(x)), s, axes, _swap_direction(norm))


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None):
    _no_plan(plan)
    return _conj(_r2cn(x, s, axes, _swap_direction(norm)))


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return hfftn(x, s, axes, norm, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None):
    return ihfftn(x, s, axes, norm, plan=plan)


def next_fast_len(target, real=False):
    """The smallest n >= target whose only prime factors are 2, 3, 5 and 7,
    the lengths cuFFT and FFTW transform fastest (cupyx.scipy.fft's answer;
    ``real`` is there for SciPy's signature and changes nothing)."""
    return _next_fast_len(operator.index(target))


@functools.lru_cache(maxsize=256)
def _next_fast_len(target):
    """next_fast_len's search (tens of microseconds for millions), kept per
    length, as fftconvolve asks for the same lengths call after call."""
    if target < 0:
        raise ValueError("Target cannot be negative.")
    if target <= 6:
        return max(target, 1) if target else 0
    best = 2 ** math.ceil(math.log2(target))
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                n = p3
                while n < target:
                    n *= 2
                best = min(best, n)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


# scipy.fft's backend protocol (uarray): `with scipy.fft.set_backend(kiln.scipy.fft):`
# runs SciPy's calls on kiln arrays with kiln's functions of the same names.
__ua_domain__ = "numpy.scipy.fft"
_BACKEND_FUNCTIONS = frozenset({
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn",
    "idstn", "fht", "ifht",
})


def __ua_function__(method, args, kwargs):
    """SciPy's `method`, called with kiln arrays, as kiln's function of its name."""
    if method.__name__ not in _BACKEND_FUNCTIONS:
        return NotImplemented
    return globals()[method.__name__](*args, **kwargs)


def __ua_convert__(dispatchables, coerce):
    """Kiln arrays are taken as they are; other arrays only when SciPy asks to
    coerce them (then they are copied to kiln's default device)."""
    import numpy as np

    from .._ndarray.methods import ndarray

    converted = []
    for d in dispatchables:
        value = d.value
        if d.type is np.ndarray and not isinstance(value, ndarray):
            if not (coerce and d.coercible):
                return NotImplemented
            try:
                value = _asarray(value)
            except TypeError:
                return NotImplemented
        converted.append(value)
    return converted
