"""The chirp z-transform (scipy.signal's czt, zoom_fft, CZT, ZoomFFT):
the transform at m points a w^-k of the z-plane by Bluestein's algorithm,
as one FFT convolution with a chirp. The chirps are O(n + m) host vectors
(with SciPy's exact-phase form for the default spiral); the transforms run
batched on the signal's device."""
import cmath
import math
import numbers

import numpy as np

import kiln

from .. import fft as _fft


def _sizes(n, m):
    if not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"Invalid number of CZT data points ({n}) specified. n must be positive and integer type.")
    if m is None:
        return n
    if not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"Invalid number of CZT output points ({m}) specified. m must be positive and integer type.")
    return m


def czt_points(m, w=None, a=1 + 0j):
    """The m points of the z-plane a CZT evaluates: a w^-k."""
    m = _sizes(1, m)
    k = np.arange(m)
    a = 1.0 * a
    return kiln.asarray(a * np.exp(2j * math.pi * k / m) if w is None else a * (1.0 * w) ** -k)


class CZT:
    """A chirp z-transform for signals of length n, reusable: calling it
    transforms `x` along `axis`."""

    def __init__(self, n, m=None, w=None, a=1 + 0j):
        m = _sizes(n, m)
        k = np.arange(max(m, n), dtype=np.min_scalar_type(-max(m, n) ** 2))
        if w is None:
            w = cmath.exp(-2j * math.pi / m)
            # the phase reduced modulo 2 pi before the exponential: exact for large k
            chirp = np.exp(-(1j * math.pi * ((k ** 2) % (2 * m))) / m)
        else:
            chirp = w ** (k ** 2 / 2.0)
        self.w, self.a, self.m, self.n = w, 1.0 * a, m, n
        self._setup(self.a ** -k[:n] * chirp[:n], chirp)

    def _setup(self, pre, chirp):
        n, m = self.n, self.m
        self._nfft = _fft.next_fast_len(n + m - 1)
        self._pre = pre
        self._kernel = np.fft.fft(1 / np.hstack((chirp[n - 1:0:-1], chirp[:m])), self._nfft)
        self._post = chirp[:m]

    def __call__(self, x, *, axis=-1):
        x = kiln.asarray(x)
        if x.shape[axis] != self.n:
            raise ValueError(f"CZT defined for length {self.n}, not {x.shape[axis]}")
        lines = kiln.moveaxis(x, axis, -1)
        pre, kernel, post = (kiln.asarray(v, device=x.device) for v in (self._pre, self._kernel, self._post))
        y = kiln.fft.ifft(kernel * kiln.fft.fft(lines * pre, self._nfft))
        y = y[..., self.n - 1:self.n + self.m - 1] * post
        return kiln.moveaxis(y, -1, axis)

    def points(self):
        return czt_points(self.m, self.w, self.a)


class ZoomFFT(CZT):
    """The DFT of length-n signals at m frequencies spread over `fn` (a
    band [f1, f2], or [0, fn]) for sampling frequency `fs`."""

    def __init__(self, n, fn, m=None, *, fs=2, endpoint=False):
        m = _sizes(n, m)
        k = np.arange(max(m, n), dtype=np.min_scalar_type(-max(m, n) ** 2))
        if np.size(fn) == 2:
            f1, f2 = fn
        elif np.size(fn) == 1:
            f1, f2 = 0.0, fn
        else:
            raise ValueError("fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        scale = (f2 - f1) * m / (fs * (m - 1)) if endpoint else (f2 - f1) / fs
        chirp = np.exp(-(1j * math.pi * scale * k ** 2) / m)
        self.w, self.a = cmath.exp(-2j * math.pi / m * scale), cmath.exp(2j * math.pi * f1 / fs)
        self.m, self.n = m, n
        self._setup(np.exp(-2j * math.pi * f1 / fs * k[:n]) * chirp[:n], chirp)


def czt(x, m=None, w=None, a=1 + 0j, *, axis=-1):
    """The chirp z-transform of `x` along `axis` at m points a w^-k."""
    x = kiln.asarray(x)
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x, fn, m=None, *, fs=2, endpoint=False, axis=-1):
    """The DFT of `x` along `axis` over the frequency band `fn` only."""
    x = kiln.asarray(x)
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)
