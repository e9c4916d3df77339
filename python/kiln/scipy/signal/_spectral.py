"""Spectral estimates by windowed, overlapping segments (scipy.signal's
periodogram, welch, csd, coherence, spectrogram, stft, istft).

A signal's segments are gathered as one (..., segments, nperseg) array,
detrended, windowed and transformed together by kiln.fft, so every segment
of every line is one batched FFT on the signal's device; the window comes
from SciPy's get_window on the host. istft adds the inverse transforms
back by chunks of one hop each: as many array additions as segments
overlap, not one per segment."""
import math
import warnings

import numpy as np

import kiln

from ._design import on_host
from ._filters import detrend as _detrend
from ._lfilter import _extend


def _window(window, nperseg, length):
    """The window as a host array, and nperseg (SciPy's defaults: 256,
    at most the signal's length, for a named window)."""
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
        if nperseg > length:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = {length:d}, using "
                          f"nperseg = {length:d}", stacklevel=4)
            nperseg = length
        return kiln.asnumpy(on_host("signal", "get_window")(window, nperseg)), nperseg
    win = np.asarray(kiln.asnumpy(window) if isinstance(window, kiln.ndarray) else window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if length < win.size:
        raise ValueError("window is longer than input signal")
    if nperseg is not None and int(nperseg) != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, win.size


def _segments(x, nperseg, nstep):
    """(..., segments, nperseg): every hop's window of the last axis."""
    count = (x.shape[-1] - nperseg) // nstep + 1
    index = (np.arange(count)[:, None] * nstep + np.arange(nperseg)[None, :])
    return x[..., kiln.asarray(index, device=x.device)]


def _detrender(detrend, axis):
    if detrend is False or detrend is None:
        return lambda d: d
    if callable(detrend):
        if axis == -1:
            return detrend
        return lambda d: kiln.moveaxis(detrend(kiln.moveaxis(d, -1, axis)), axis, -1)
    return lambda d: _detrend(d, type=detrend, axis=-1)


def _transformed(x, win, detrend, nperseg, nstep, nfft, onesided):
    segments = detrend(_segments(x, nperseg, nstep)) * win
    # the window may have been made complex to carry the output type
    return kiln.fft.rfft(segments.real, nfft) if onesided else kiln.fft.fft(segments, nfft)


def _short_time(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode,
                boundary=None, padded=False):
    """freqs, segment times and the (cross-)spectra of every segment,
    frequencies on the signal's axis and segments last."""
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: {{'psd', 'stft'}}")
    extensions = {"even": "even", "odd": "odd", "constant": "constant", "zeros": "zeros", None: None}
    if boundary not in extensions:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(extensions)}")
    same = y is x
    x = kiln.asarray(x)
    y = x if same else kiln.asarray(y, device=x.device)
    outdtype = np.result_type(np.dtype(x.dtype), np.dtype(y.dtype), np.complex64)
    if x.size == 0 or y.size == 0:
        empty = kiln.empty(x.shape, device=x.device)
        return empty, empty, empty
    x, y = kiln.moveaxis(x, axis, -1), kiln.moveaxis(y, axis, -1)
    if x.shape[-1] != y.shape[-1]:  # the shorter one is padded with zeros
        n = max(x.shape[-1], y.shape[-1])
        x, y = (kiln.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, n - v.shape[-1])]) for v in (x, y))
    win, nperseg = _window(window, nperseg, x.shape[-1])
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap

    def prepared(v):
        if boundary is not None:
            half = nperseg // 2
            if boundary == "zeros":
                v = kiln.pad(v, [(0, 0)] * (v.ndim - 1) + [(half, half)])
            else:
                v = _extend(v, half, v.ndim - 1, boundary)
        if padded:
            extra = (-(v.shape[-1] - nperseg) % nstep) % nperseg
            v = kiln.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, extra)])
        return v

    x = prepared(x)
    y = x if same else prepared(y)
    win = win.astype(outdtype) if np.result_type(win, np.complex64) != outdtype else win
    if scaling == "density":
        scale = 1.0 / (fs * float((win * win).sum().real))
    elif scaling == "spectrum":
        scale = 1.0 / float(win.sum().real) ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    if mode == "stft":
        scale = math.sqrt(scale)
    onesided = bool(return_onesided) and x.dtype.kind != "c" and y.dtype.kind != "c"
    if return_onesided and not onesided:
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)
    freqs = (kiln.fft.rfftfreq if onesided else kiln.fft.fftfreq)(nfft, 1 / fs)
    win_dev = kiln.asarray(win, device=x.device)
    detrend = _detrender(detrend, axis)
    result = _transformed(x, win_dev, detrend, nperseg, nstep, nfft, onesided)
    if not same:
        result = kiln.conj(result) * _transformed(y, win_dev, detrend, nperseg, nstep, nfft, onesided)
    elif mode == "psd":
        result = kiln.conj(result) * result
    result = result * scale
    if onesided and mode == "psd":
        # the negative frequencies' power folded onto the positive ones
        doubled = np.full(result.shape[-1], 2.0)
        doubled[0] = 1
        if nfft % 2 == 0:
            doubled[-1] = 1
        precision = np.float32 if result.dtype in (kiln.float32, kiln.complex64) else np.float64
        result = result * kiln.asarray(doubled.astype(precision), device=x.device)
    times = kiln.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nstep, device=x.device) / float(fs)
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    result = result.astype(outdtype)
    if same and mode != "stft":
        result = result.real
    # (..., segments, freqs) -> frequencies on the signal's axis, segments
    # last: a view, laid out as SciPy's (Fortran order for one signal)
    return freqs, times, kiln.moveaxis(result, -1, axis - 1 if axis < 0 else axis)


def _median_bias(n):
    """E[median] / E[mean] of n chi-squared(2) values: the median
    average's correction."""
    ii = 2 * np.arange(1, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii + 1) - 1.0 / ii)


def csd(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
        return_onesided=True, scaling="density", axis=-1, average="mean"):
    """Cross power spectral density by Welch's method: the segments'
    cross-spectra averaged by 'mean' or 'median'."""
    freqs, _, pxy = _short_time(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                                axis, "psd")
    if pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(pxy.shape[-1])
                if pxy.dtype.kind == "c":
                    pxy = kiln.median(pxy.real, axis=-1) + 1j * kiln.median(pxy.imag, axis=-1)
                else:
                    pxy = kiln.median(pxy, axis=-1)
                pxy = pxy / float(bias)
            elif average == "mean":
                pxy = kiln.mean(pxy, axis=-1)
            else:
                raise ValueError(f'average must be "median" or "mean", got {average}')
        else:
            pxy = pxy.reshape(pxy.shape[:-1])
    return freqs, pxy


def welch(x, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
          return_onesided=True, scaling="density", axis=-1, average="mean"):
    """Power spectral density by Welch's method: the averaged
    periodograms of overlapping windowed segments."""
    freqs, pxx = csd(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                     average)
    return freqs, pxx.real


def periodogram(x, fs=1.0, window="boxcar", nfft=None, detrend="constant", return_onesided=True,
                scaling="density", axis=-1):
    """Power spectral density of the whole signal as one segment."""
    x = kiln.asarray(x)
    if x.size == 0:
        return kiln.empty(x.shape, device=x.device), kiln.empty(x.shape, device=x.device)
    window = "boxcar" if window is None else window
    n = x.shape[axis]
    if nfft is None or nfft >= n:
        nperseg = n
    else:
        index = [slice(None)] * x.ndim
        index[axis] = slice(0, nfft)
        x, nperseg, nfft = x[tuple(index)], nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the specified axis")
    return welch(x, fs, window, nperseg, 0, nfft, detrend, return_onesided, scaling, axis)


def coherence(x, y, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, detrend="constant",
              axis=-1):
    """Magnitude-squared coherence ``|Pxy|^2 / (Pxx Pyy)``."""
    freqs, pxx = welch(x, fs, window, nperseg, noverlap, nfft, detrend, axis=axis)
    _, pyy = welch(y, fs, window, nperseg, noverlap, nfft, detrend, axis=axis)
    _, pxy = csd(x, y, fs, window, nperseg, noverlap, nfft, detrend, axis=axis)
    return freqs, kiln.abs(pxy) ** 2 / pxx / pyy


def spectrogram(x, fs=1.0, window=("tukey", 0.25), nperseg=None, noverlap=None, nfft=None, detrend="constant",
                return_onesided=True, scaling="density", axis=-1, mode="psd"):
    """Spectra of consecutive segments: power ('psd'), or the complex
    transform, its magnitude, angle or unwrapped phase."""
    modes = ["psd", "complex", "magnitude", "angle", "phase"]
    if mode not in modes:
        raise ValueError(f"unknown value for mode {mode}, must be one of {modes}")
    x = kiln.asarray(x)
    window, nperseg = _window(window, nperseg, x.shape[axis])
    noverlap = nperseg // 8 if noverlap is None else noverlap
    freqs, times, sxx = _short_time(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                                    axis, "psd" if mode == "psd" else "stft")
    if mode == "magnitude":
        sxx = kiln.abs(sxx)
    elif mode in ("angle", "phase"):
        sxx = kiln.angle(sxx)
        if mode == "phase":
            sxx = kiln.unwrap(sxx, axis=axis - 1 if axis < 0 else axis)
    return freqs, times, sxx


def stft(x, fs=1.0, window="hann", nperseg=256, noverlap=None, nfft=None, detrend=False, return_onesided=True,
         boundary="zeros", padded=True, axis=-1, scaling="spectrum"):
    """Short-time Fourier transform: (freqs, segment times, Zxx)."""
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    return _short_time(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
                       "stft", boundary, padded)


def istft(Zxx, fs=1.0, window="hann", nperseg=None, noverlap=None, nfft=None, input_onesided=True,
          boundary=True, time_axis=-1, freq_axis=-2, scaling="spectrum"):
    """Inverse short-time Fourier transform by weighted overlap-add:
    (times, x)."""
    Zxx = kiln.asarray(Zxx)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    time_axis, freq_axis = time_axis % Zxx.ndim, freq_axis % Zxx.ndim
    if time_axis == freq_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    nseg = Zxx.shape[time_axis]
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    nperseg = n_default if nperseg is None else int(nperseg)
    if nperseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        # an odd unpadded segment length is one more than the even default
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nperseg - noverlap
    # (..., segments, frequencies)
    Zxx = kiln.moveaxis(Zxx, (freq_axis, time_axis), (-1, -2))
    segments = (kiln.fft.irfft(Zxx, nfft, axis=-1) if input_onesided else kiln.fft.ifft(Zxx, nfft, axis=-1))
    segments = segments[..., :nperseg]
    win, _ = _window(window, nperseg, nperseg) if isinstance(window, (str, tuple)) else \
        (np.asarray(kiln.asnumpy(window) if isinstance(window, kiln.ndarray) else window), nperseg)
    if win.shape != (nperseg,):
        raise ValueError(f"window must have length of {nperseg}")
    if scaling == "spectrum":
        segments = segments * float(win.sum())
    elif scaling == "psd":
        segments = segments * math.sqrt(fs * float((win * win).sum()))
    else:
        raise ValueError(f"Parameter {scaling=} not in ['spectrum', 'psd']!")
    # the window and the normalisation in the transform's own precision
    precision = np.float32 if segments.dtype in (kiln.float32, kiln.complex64) else np.float64
    segments = segments * kiln.asarray(win.real.astype(precision), device=Zxx.device)
    # Overlap-add by chunks of one hop: pad each segment to whole hops, and
    # add chunk j of every segment i at hop i + j, for each j.
    hops = -(-nperseg // nstep)
    padded_segments = kiln.pad(segments, [(0, 0)] * (segments.ndim - 1) + [(0, hops * nstep - nperseg)])
    chunks = padded_segments.reshape(segments.shape[:-1] + (hops, nstep))
    total = nseg + hops - 1
    x = kiln.zeros(segments.shape[:-2] + (total, nstep), dtype=segments.dtype, device=Zxx.device)
    weights = np.zeros((total, nstep))
    win_chunks = np.pad(win.real ** 2, (0, hops * nstep - nperseg)).reshape(hops, nstep)
    for j in range(hops):
        x[..., j:j + nseg, :] += chunks[..., :, j, :]
        weights[j:j + nseg] += win_chunks[j]
    length = nperseg + (nseg - 1) * nstep
    x = x.reshape(x.shape[:-2] + (-1,))[..., :length]
    norm = weights.reshape(-1)[:length]
    if boundary:
        x, norm = x[..., nperseg // 2:-(nperseg // 2)], norm[nperseg // 2:-(nperseg // 2)]
    x = x / kiln.asarray(np.where(norm > 1e-10, norm, 1.0).astype(precision), device=Zxx.device)
    if input_onesided:
        x = x.real
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = kiln.moveaxis(x, -1, time_axis)
    # SciPy's times count along the result's first axis, whichever it is
    return kiln.arange(x.shape[0], device=Zxx.device) / float(fs), x


def vectorstrength(events, period):
    """The vector strength (0 to 1) and phase (radians) of `events`
    (times) at each `period`: the mean of the unit phasors 2 pi t / period."""
    events = kiln.asarray(events)
    period = kiln.asarray(period, device=events.device)
    if events.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if period.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    if bool(kiln.any(period <= 0)):
        raise ValueError("periods must be positive")
    scalar = period.ndim == 0
    phasors = kiln.exp(2j * math.pi * kiln.atleast_1d(period)[:, None] ** -1.0 * events[None, :])
    vector = kiln.mean(phasors, axis=1)
    strength, phase = kiln.abs(vector), kiln.angle(vector)
    return (strength[0], phase[0]) if scalar else (strength, phase)


def lombscargle(x, y, freqs, *, precenter=False, normalize=False, weights=None, floating_mean=False):
    """The (generalised, weighted) Lomb-Scargle periodogram of unevenly
    sampled data y(x) at the angular frequencies `freqs` (Zechmeister and
    Kürster, A&A 496, 2009, as SciPy 1.17): every sum over the samples is one
    matrix product of the weights with an (samples x frequencies) array of
    cosines or sines. normalize: False/'power', True/'normalize' or
    'amplitude' (complex amplitudes)."""
    y = kiln.asarray(y).astype(kiln.float64)
    x = kiln.asarray(x, device=y.device).astype(kiln.float64)
    freqs = kiln.asarray(freqs, device=y.device).astype(kiln.float64)
    w = kiln.ones_like(y) if weights is None else kiln.asarray(weights, device=y.device).astype(kiln.float64)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == w.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not (bool((w >= 0).all()) and float(w.sum()) > 0):
        raise ValueError("Parameter weights must have only non-negative entries which sum to a positive value!")
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")
    if precenter:
        y = y - kiln.mean(y)
    w = w / kiln.sum(w)
    wy = w * y
    phase = x[:, None] * freqs[None, :]

    def weighted(values, by=w):  # sum over samples: (frequencies,)
        return by @ values

    cos, sin = kiln.cos(phase), kiln.sin(phase)
    cc = weighted(cos * cos)
    cs = weighted(cos * sin)
    ss_ = 1.0 - cc
    mean_y = kiln.sum(wy)
    if floating_mean:
        c, s = weighted(cos), weighted(sin)
        cc, ss_, cs = cc - c * c, ss_ - s * s, cs - c * s
    tau = 0.5 * kiln.arctan2(2.0 * cs, cc - ss_)
    shifted = phase - tau[None, :]
    cos, sin = kiln.cos(shifted), kiln.sin(shifted)
    yc, ys = weighted(cos, wy), weighted(sin, wy)
    cc = weighted(cos * cos)
    ss_ = 1.0 - cc
    if floating_mean:
        c, s = weighted(cos), weighted(sin)
        yc, ys, cc, ss_ = yc - mean_y * c, ys - mean_y * s, cc - c * c, ss_ - s * s
    tiny = float(np.finfo(np.float64).epsneg)
    cc, ss_ = kiln.maximum(cc, tiny), kiln.maximum(ss_, tiny)
    a, b = yc / cc, ys / ss_
    if normalize == "amplitude":
        return (a + 1j * b) * kiln.exp(1j * tau)
    power = 2.0 * (a * yc + b * ys)
    if normalize == "power":
        return power * (x.shape[0] / 4.0)
    yy = kiln.sum(wy * y) - (mean_y * mean_y if floating_mean else 0.0)
    return power * (0.5 / yy)
