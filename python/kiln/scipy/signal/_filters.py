"""Nonlinear and adaptive filters, analytic signals and detrending
(scipy.signal's medfilt, medfilt2d, order_filter, wiener, hilbert, hilbert2,
detrend), composed from kiln.scipy.ndimage's rank filters, kiln.fft and
kiln's reductions."""
import math

import numpy as np

import kiln

from .. import ndimage
from ._convolve import correlate


def _rank_filter_input(a, name):
    a = kiln.asarray(a)
    if not (a.dtype.kind in "iu" or a.dtype in (kiln.float32, kiln.float64)):
        raise ValueError(f"dtype={a.dtype} is not supported by {name}")
    return a


def order_filter(a, domain, rank):
    """The `rank`-th smallest value (from 0) in the window `domain` (a
    mask of odd sides) around each element; outside `a` counts as 0."""
    domain = kiln.asarray(domain)
    if any(side % 2 != 1 for side in domain.shape):
        raise ValueError("Each dimension of domain argument should have an odd number of elements.")
    a = _rank_filter_input(a, "order_filter")
    return ndimage.rank_filter(a, rank, footprint=domain, mode="constant")


def _kernel_size(kernel_size, ndim):
    size = [3] * ndim if kernel_size is None else list(np.broadcast_to(np.asarray(kernel_size), (ndim,)))
    if any(k % 2 != 1 for k in size):
        raise ValueError("Each element of kernel_size should be odd.")
    return [int(k) for k in size]


def medfilt(volume, kernel_size=None):
    """The median of each `kernel_size` window (odd sides, 3 by default);
    outside the array counts as 0."""
    volume = _rank_filter_input(volume, "medfilt")
    size = _kernel_size(kernel_size, volume.ndim)
    return ndimage.median_filter(volume, size=size, mode="constant")


def medfilt2d(input, kernel_size=3):
    """medfilt of a 2-d array."""
    input = kiln.asarray(input)
    if input.ndim != 2:
        raise ValueError("medfilt2d: input must be 2-d")
    return medfilt(input, kernel_size)


def wiener(im, mysize=None, noise=None):
    """Wiener filter: each value pulled towards its local mean by how far
    the local variance exceeds the noise power (estimated as the mean local
    variance unless given); windows of `mysize`, zero outside."""
    im = kiln.asarray(im)
    size = [3] * im.ndim if mysize is None else list(np.broadcast_to(np.asarray(mysize), (im.ndim,)))
    window = kiln.ones(size, device=im.device)
    count = float(math.prod(size))
    local_mean = correlate(im, window, "same") / count
    local_var = correlate(im ** 2, window, "same") / count - local_mean ** 2
    if noise is None:
        noise = kiln.mean(local_var.reshape(-1), axis=0)
    with kiln.errstate(divide="ignore", invalid="ignore"):
        res = (im - local_mean) * (1 - noise / local_var) + local_mean
    return kiln.where(local_var < noise, local_mean, res)


def _analytic_multiplier(n, device):
    """1 at 0 (and at n/2 for even n), 2 on the positive frequencies, 0 on
    the negative ones."""
    h = np.zeros(n)
    if n % 2 == 0:
        h[0] = h[n // 2] = 1
        h[1:n // 2] = 2
    else:
        h[0] = 1
        h[1:(n + 1) // 2] = 2
    return kiln.asarray(h, device=device)


def _real_signal(x):
    x = kiln.asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if x.dtype not in (kiln.float32, kiln.float64):
        x = x.astype(kiln.float32 if x.dtype == kiln.float16 else kiln.float64)
    return x


def hilbert(x, N=None, axis=-1):
    """The analytic signal x + i H(x) along `axis`, through an FFT of
    length `N` (the axis length by default)."""
    x = _real_signal(x)
    n = x.shape[axis] if N is None else N
    if n <= 0:
        raise ValueError("N must be positive.")
    spectrum = kiln.fft.fft(x, n, axis=axis)
    shape = [1] * x.ndim
    shape[axis] = n
    h = _analytic_multiplier(n, x.device).reshape(shape)
    return kiln.fft.ifft(spectrum * h, axis=axis).astype(spectrum.dtype, copy=False)


def hilbert2(x, N=None, axes=(-2, -1)):
    """The 2-d analytic signal along `axes`, through a 2-d FFT of shape `N`
    (the array's by default): positive frequencies of both axes doubled,
    the negative ones and (as SciPy 1.17) even lengths' Nyquist bins zeroed."""
    x = _real_signal(x)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    axes = tuple(a % x.ndim for a in axes)
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif np.ndim(N) == 0:
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or any(n <= 0 for n in N):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    spectrum = kiln.fft.fft2(x, N, axes=axes)
    h = 1.0
    for axis, n in zip(axes, N):
        weights = np.zeros(n)
        weights[0], weights[1:(n + 1) // 2] = 1, 2
        shape = [1] * x.ndim
        shape[axis] = n
        h = h * kiln.asarray(weights.reshape(shape), device=x.device)
    return kiln.fft.ifft2(spectrum * h, axes=axes).astype(spectrum.dtype, copy=False)


def detrend(data, axis=-1, type="linear", bp=0, overwrite_data=False):
    """`data` less its mean ('constant') or less its least-squares line
    ('linear', one line per piece between the break points `bp`), along
    `axis`."""
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    data = kiln.asarray(data)
    dtype = data.dtype if data.dtype in (kiln.float32, kiln.float64, kiln.complex64, kiln.complex128) \
        else kiln.dtype("float64")
    data = data.astype(dtype)
    if type in ("constant", "c"):
        return data - kiln.mean(data, axis=axis, keepdims=True)
    axis = axis % data.ndim if data.ndim else 0
    n = data.shape[axis]
    points = np.unique(np.concatenate([[0], np.atleast_1d(np.asarray(bp, dtype=np.int64)), [n]]))
    if points[0] < 0 or points[-1] > n:
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    lines = kiln.moveaxis(data, axis, 0)
    pieces = []
    for start, stop in zip(points[:-1], points[1:]):
        piece = lines[start:stop]
        m = stop - start
        # the fit against t = 1..m, centred so the two unknowns separate
        t = kiln.arange(1, m + 1, dtype=dtype.name if dtype.kind == "f" else "float64", device=data.device)
        t = (t - (m + 1) / 2.0).reshape((m,) + (1,) * (lines.ndim - 1))
        mean = kiln.mean(piece, axis=0, keepdims=True)
        spread = float(kiln.sum(t * t)) or 1.0
        slope = kiln.sum(t * (piece - mean), axis=0, keepdims=True) / spread
        pieces.append(piece - mean - slope * t)
    return kiln.moveaxis(kiln.concatenate(pieces, axis=0), 0, axis).astype(dtype, copy=False)
