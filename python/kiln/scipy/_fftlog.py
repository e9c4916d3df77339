"""scipy.fft's fast Hankel transform (Hamilton's FFTLog): fht, ifht and
fhtoffset, as SciPy computes them. The transform is an rfft, a product
with the coefficients of the kernel's Mellin transform, an irfft and a
reversal, on the array's device; the n/2 + 1 coefficients are ratios of
complex Gamma functions, computed once a call on the host by SciPy's
loggamma (as kiln's filter designs come from SciPy), then moved over."""
import math

from .. import _core
from .. import fft as _fft
from .._numpy.creation import arange, asarray

_LN_2 = math.log(2)


def _scipy_special():
    import scipy.special

    return scipy.special


def _coefficients(n, dln, mu, offset, bias, inverse):
    """SciPy's fhtcoeff: exp(loggamma((mu+1+q)/2 + iy) - conj(loggamma((mu+1-q)/2 + iy)) + ...)."""
    import numpy as np
    import warnings

    special = _scipy_special()
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = np.linspace(0, np.pi * (n // 2) / (n * dln), n // 2 + 1)
    v = special.loggamma(xm + 1j * y)
    u = special.loggamma(xp + 1j * y)
    y = y * 2 * (_LN_2 - offset)
    u = np.exp((u.real - v.real + _LN_2 * bias) + 1j * (u.imag + v.imag + y))
    if n % 2 == 0:
        u.imag[-1] = 0
    if not np.isfinite(u[0]):
        u[0] = 2 ** bias * special.poch(xm, xp - xm)
    if np.isinf(u[0]) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=4)
        u[0] = 0
    elif u[0] == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias", stacklevel=4)
        u[0] = np.inf
    return u


def _transform(a, u, inverse):
    n = a.shape[-1]
    A = _fft.rfft(a, axis=-1)
    # SciPy multiplies in place, so the product keeps rfft's type (complex64 for float32)
    A = (A * u if not inverse else A / _core.conj(u)).astype(A.dtype, copy=False)
    return _fft.irfft(A, n, axis=-1)[..., ::-1]


def _centred_positions(a, dln):
    n = a.shape[-1]
    return (arange(n, dtype="float64", device=a.device) - (n - 1) / 2) * dln


def fht(a, dln, mu, offset=0.0, bias=0.0):
    """The fast Hankel transform of `a` (logarithmically spaced samples)
    along its last axis, SciPy's fht."""
    a = asarray(a)
    dln = float(dln)
    if bias != 0:
        a = a * _core.exp(-bias * _centred_positions(a, dln))
    u = asarray(_coefficients(a.shape[-1], dln, mu, offset, bias, False), device=a.device)
    A = _transform(a, u, False)
    if bias != 0:
        A = A * _core.exp(-bias * (_centred_positions(a, dln) + offset))
    return A


def ifht(A, dln, mu, offset=0.0, bias=0.0):
    """The inverse fast Hankel transform, SciPy's ifht."""
    A = asarray(A)
    dln = float(dln)
    if bias != 0:
        A = A * _core.exp(bias * (_centred_positions(A, dln) + offset))
    u = asarray(_coefficients(A.shape[-1], dln, mu, offset, bias, True), device=A.device)
    a = _transform(A, u, True)
    if bias != 0:
        a = a / _core.exp(-bias * _centred_positions(A, dln))
    return a


def fhtoffset(dln, mu, initial=0.0, bias=0.0):
    """The offset that makes the transform's kernel ringing least (SciPy's)."""
    special = _scipy_special()
    dln = float(dln)
    xp, xm = (mu + 1 + bias) / 2, (mu + 1 - bias) / 2
    y = math.pi / (2 * dln)
    arg = (_LN_2 - initial) / dln + (special.loggamma(xp + 1j * y).imag + special.loggamma(xm + 1j * y).imag) / math.pi
    return initial + (arg - round(arg)) * dln
