"""kiln.fft: numpy.fft's functions, cuFFT on the GPU (plans cached per shape)
and the FFTW3 interface on the CPU. float16/float32/complex64 input computes
in single precision, everything else in double, as NumPy 2's do."""
from .. import _core
from .._numpy.creation import arange, asarray
from .._numpy.manipulation.rearranging import _axes, roll
from ._transforms import c2cn, c2rn, r2cn, swap_direction


def fft(a, n=None, axis=-1, norm=None, out=None):
    return c2cn(a, None if n is None else [n], [axis], norm, False, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return c2cn(a, None if n is None else [n], [axis], norm, True, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return c2cn(a, s, axes, norm, False, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return c2cn(a, s, axes, norm, True, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    return c2cn(a, s, axes, norm, False, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    return c2cn(a, s, axes, norm, True, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    return r2cn(a, None if n is None else [n], [axis], norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    return c2rn(a, None if n is None else [n], [axis], norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return r2cn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return c2rn(a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    return r2cn(a, s, axes, norm, out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    return c2rn(a, s, axes, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of a signal with Hermitian symmetry (a real spectrum)."""
    return c2rn(_core.conj(asarray(a)), None if n is None else [n], [axis], swap_direction(norm), out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    result = _core.conj(r2cn(a, None if n is None else [n], [axis], swap_direction(norm)))
    if out is None:
        return result
    out[...] = result
    return out


def fftfreq(n, d=1.0, *, device=None, dtype=None):
    """The sample frequencies of an n-point transform: 0, 1, ..., then the negative ones, over n * d."""
    positive = (n - 1) // 2 + 1
    k = roll(arange(-(n // 2), n - n // 2, dtype="int64", device=device), positive)
    result = k * (1.0 / (n * d))
    return result if dtype is None else result.astype(dtype)


def rfftfreq(n, d=1.0, *, device=None, dtype=None):
    """The sample frequencies of rfft's n // 2 + 1 outputs."""
    result = arange(0, n // 2 + 1, dtype="int64", device=device) * (1.0 / (n * d))
    return result if dtype is None else result.astype(dtype)


def fftshift(x, axes=None):
    """The zero frequency moved to the middle of each axis."""
    x = asarray(x)
    axes = _axes(axes, x.ndim, "fftshift")
    return roll(x, [x.shape[a] // 2 for a in axes], axes) if axes else x


def ifftshift(x, axes=None):
    """fftshift undone."""
    x = asarray(x)
    axes = _axes(axes, x.ndim, "ifftshift")
    return roll(x, [-(x.shape[a] // 2) for a in axes], axes) if axes else x
