"""kiln.scipy.fftpack: SciPy's legacy FFT module for code ported from
``cupyx.scipy.fftpack``: the complex transforms are kiln.scipy.fft's (which
keep single precision, as fftpack does), with fftpack's ``shape=`` and
``overwrite_x``; rfft/irfft use fftpack's packed real format
[y(0), Re y(1), Im y(1), ..., Re y(n/2)]."""
from .._numpy.creation import asarray as _asarray
from .._numpy.manipulation.joining import concatenate as _concatenate, stack as _stack
from .._numpy.manipulation.shape import moveaxis as _moveaxis
from . import fft as _fft


def fft(x, n=None, axis=-1, overwrite_x=False):
    return _fft.fft(x, n, axis)


def ifft(x, n=None, axis=-1, overwrite_x=False):
    return _fft.ifft(x, n, axis)


def fftn(x, shape=None, axes=None, overwrite_x=False):
    return _fft.fftn(x, shape, axes)


def ifftn(x, shape=None, axes=None, overwrite_x=False):
    return _fft.ifftn(x, shape, axes)


def fft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    return _fft.fftn(x, shape, axes)


def ifft2(x, shape=None, axes=(-2, -1), overwrite_x=False):
    return _fft.ifftn(x, shape, axes)


def rfft(x, n=None, axis=-1, overwrite_x=False):
    """The real transform in fftpack's packed order (real output, length n)."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    n = x.shape[axis] if n is None else n
    y = _moveaxis(_fft.rfft(x, n, axis), axis, -1)
    pairs = _stack([y[..., 1:].real, y[..., 1:].imag], axis=-1).reshape(y.shape[:-1] + (-1,))
    packed = _concatenate([y[..., :1].real, pairs[..., :n - 1]], axis=-1)
    return _moveaxis(packed, -1, axis)


def irfft(x, n=None, axis=-1, overwrite_x=False):
    """The inverse of rfft, from fftpack's packed order."""
    x = _asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("x must be a real sequence")
    n = x.shape[axis] if n is None else n
    x = _moveaxis(x, axis, -1)
    if x.shape[-1] < n:  # zero-padded, as fftpack pads its input
        from .._numpy.manipulation.padding import pad

        x = pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])
    x = x[..., :n]
    rest = x[..., 1:]
    if n % 2 == 0:
        rest = _concatenate([rest, rest[..., :1] * 0], axis=-1)  # the Nyquist term has no imaginary part
    pairs = rest.reshape(rest.shape[:-1] + (-1, 2))
    spectrum = _concatenate([x[..., :1] + 0j, pairs[..., 0] + 1j * pairs[..., 1]], axis=-1)
    return _moveaxis(_fft.irfft(spectrum, n, -1), -1, axis)


__all__ = ["fft", "fft2", "fftn", "ifft", "ifft2", "ifftn", "irfft", "rfft"]
