"""Changing a signal's sampling rate (scipy.signal's resample, by the
Fourier method, and upfirdn/resample_poly, by a polyphase FIR filter):
composed from kiln.fft and the convolutions of _convolve.py, on the
signal's device."""
import math

import numpy as np

import kiln

from ._convolve import _direct, fftconvolve
from ._design import on_host


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """`num` samples along `axis` with the same spectrum: the transform
    cut or zero-padded to the new length (an even length's unpaired
    Nyquist bin folded or split), optionally weighted by `window`."""
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in ('time', 'freq')!")
    x = kiln.asarray(x)
    x = kiln.moveaxis(x, axis, -1) if x.ndim > 1 else x
    n_x, num = x.shape[-1], int(num)
    scale = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    weights = None
    if window is not None:
        if callable(window):
            weights = kiln.asarray(window(kiln.asnumpy(kiln.fft.fftfreq(n_x))), device=x.device)
        elif hasattr(window, "shape"):
            if tuple(window.shape) != (n_x,):
                raise ValueError(f"window.shape={tuple(window.shape)} != ({n_x},), i.e., window length is not equal "
                                 "to number of frequency bins!")
            weights = kiln.asarray(window, device=x.device)
        else:
            weights = kiln.fft.fftshift(kiln.asarray(on_host("signal", "get_window")(window, n_x), device=x.device))
    if domain == "time" and x.dtype.kind != "c":
        spectrum = kiln.fft.rfft(x)
        if weights is not None:  # the window folded onto the one-sided spectrum
            n_spec = spectrum.shape[-1]
            folded = kiln.concatenate([weights[:1], (weights[1:n_spec] + kiln.flip(weights[-n_spec + 1:])) / 2]) \
                if n_spec > 1 else weights[:1]
            spectrum = spectrum * folded
        spectrum = spectrum[..., :m2]
        if m % 2 == 0 and num != n_x:
            spectrum = kiln.concatenate([spectrum[..., :m // 2], spectrum[..., m // 2:m // 2 + 1]
                                         * (2 if num < n_x else 0.5), spectrum[..., m // 2 + 1:]], axis=-1)
        out = kiln.fft.irfft(spectrum / scale, num)
    else:
        spectrum = kiln.fft.fft(x) if domain == "time" else x
        if weights is not None:
            spectrum = spectrum * weights
        y = kiln.zeros(spectrum.shape[:-1] + (num,), dtype=spectrum.dtype, device=x.device)
        y[..., :m2] = spectrum[..., :m2]
        if m2 < m:
            y[..., m2 - m:] = spectrum[..., m2 - m:]
        if m % 2 == 0:
            if num < n_x:  # the unpaired bin's two halves become one
                y[..., -m // 2] += spectrum[..., -m // 2]
            elif n_x < num:  # and one becomes two halves
                y[..., m // 2] /= 2
                y[..., num - m // 2] = y[..., m // 2]
        out = kiln.fft.ifft(y / scale, num)
    out = kiln.moveaxis(out, -1, axis) if out.ndim > 1 else out
    if t is not None:
        t = kiln.asarray(t)
        return out, t[0] + (t[1] - t[0]) * scale * kiln.arange(num, device=t.device)
    return out


def _output_length(taps, n_in, up, down):
    return ((n_in - 1) * up + taps - 1) // down + 1


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """Upsample by `up` (zeros between samples), filter with the FIR `h`,
    downsample by `down`, along `axis`. The signal counts as zero beyond
    its ends ('constant' mode with cval 0)."""
    if mode != "constant" or cval != 0:
        raise NotImplementedError(f"upfirdn: only mode='constant' with cval=0 is supported, not mode={mode!r}, "
                                  f"cval={cval!r}")
    x = kiln.asarray(x)
    h = kiln.asarray(h, device=x.device)
    if h.ndim != 1 or h.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    dtype = np.result_type(np.dtype(h.dtype), np.dtype(x.dtype), np.float32)
    lines = kiln.moveaxis(x, axis, -1).astype(dtype)
    n = lines.shape[-1]
    if up > 1:
        stretched = kiln.zeros(lines.shape[:-1] + ((n - 1) * up + 1,), dtype=dtype, device=x.device)
        stretched[..., ::up] = lines
        lines = stretched
    taps = h.astype(dtype).reshape((1,) * (lines.ndim - 1) + (h.size,))
    # few taps: exact shifted sums; many: one FFT convolution
    full = _direct(lines, taps, "full") if h.size <= 64 else fftconvolve(lines, taps, "full", axes=-1)
    out = full[..., ::down][..., :_output_length(h.size, n, up, down)]
    return kiln.ascontiguousarray(kiln.moveaxis(out, -1, axis))


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0), padtype="constant", cval=None):
    """Rational-rate resampling by up/down through a zero-phase low-pass
    FIR (designed from `window`, or `window` itself as the taps), the
    signal less `padtype`'s background ('mean', 'median', 'minimum',
    'maximum') or zero-extended ('constant')."""
    x = kiln.asarray(x)
    if up != int(up) or down != int(down):
        raise ValueError("up and down must be integers")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError(f"cval has no effect when padtype is {padtype}")
    g = math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = -(-n_in * up // down)
    if isinstance(window, (list, kiln.ndarray, np.ndarray)):
        h = np.array(kiln.asnumpy(window) if isinstance(window, kiln.ndarray) else window)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half = (h.size - 1) // 2
    else:
        rate = max(up, down)
        half = 10 * rate
        h = kiln.asnumpy(on_host("signal", "firwin")(2 * half + 1, 1.0 / rate, window=window))
        if x.dtype.kind in "fc":
            h = h.astype(np.dtype(x.dtype))
    h = h * up
    pre = down - half % down
    removed = (half + pre) // down
    post = 0
    while _output_length(h.size + pre + post, n_in, up, down) < n_out + removed:
        post += 1
    h = np.concatenate([np.zeros(pre, h.dtype), h, np.zeros(post, h.dtype)])
    backgrounds = {"mean": kiln.mean, "median": kiln.median, "minimum": kiln.min, "maximum": kiln.max}
    if padtype in backgrounds:
        background = backgrounds[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype != "constant" or cval not in (None, 0):
        raise NotImplementedError(f"resample_poly: padtype={padtype!r} with cval={cval!r} is not supported")
    y = upfirdn(h, x, up, down, axis=axis)
    keep = [slice(None)] * y.ndim
    keep[axis] = slice(removed, removed + n_out)
    y = y[tuple(keep)]
    if padtype in backgrounds:
        y = y + background
    return kiln.ascontiguousarray(y)
