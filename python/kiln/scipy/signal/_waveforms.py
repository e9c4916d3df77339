"""Waveforms and impulses evaluated on kiln arrays (scipy.signal's chirp,
sawtooth, square, gausspulse, unit_impulse): elementwise formulas, so they
run (and fuse) on the device of `t`."""
import math

import numpy as np

import kiln


def _times(t):
    t = kiln.asarray(t)
    return t if t.dtype.kind in "fc" else t.astype(kiln.float64)


def sawtooth(t, width=1.0):
    """A sawtooth of period 2 pi rising from -1 to 1 over the fraction
    `width` of each period and falling back over the rest."""
    t = _times(t)
    w = kiln.asarray(width, device=t.device)
    phase = kiln.remainder(t, 2 * math.pi)
    rising = phase < w * 2 * math.pi
    with kiln.errstate(divide="ignore", invalid="ignore"):
        up = phase / (math.pi * w) - 1
        down = (math.pi * (w + 1) - phase) / (math.pi * (1 - w))
    out = kiln.where(rising, up, down)
    return kiln.where((w > 1) | (w < 0), math.nan, out).astype(kiln.float64)


def square(t, duty=0.5):
    """A square wave of period 2 pi: 1 for the fraction `duty` of each
    period, -1 for the rest."""
    t = _times(t)
    d = kiln.asarray(duty, device=t.device)
    phase = kiln.remainder(t, 2 * math.pi)
    out = kiln.where(phase < d * 2 * math.pi, 1.0, -1.0)
    return kiln.where((d > 1) | (d < 0), math.nan, out).astype(kiln.float64)


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    """cos (or exp(i.), `complex`) of the phase of a frequency sweep from
    f0 at t=0 to f1 at t1: 'linear', 'quadratic', 'logarithmic' or
    'hyperbolic'."""
    t = _times(t)
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + math.radians(phi)
    return kiln.exp(1j * phase) if complex else kiln.cos(phase)


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return 2 * math.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return 2 * math.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * math.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return 2 * math.pi * beta * f0 * (kiln.power(f1 / f0, t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        if f0 == f1:
            return 2 * math.pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return 2 * math.pi * (-sing * f0) * kiln.log(kiln.abs(1 - t / sing))
    raise ValueError("method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', "
                     f"but a value of {method!r} was given.")


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    """A Gaussian-modulated sinusoid at `fc` Hz with fractional bandwidth
    `bw` measured `bwr` dB down; 'cutoff' for t gives the time at which
    the envelope falls `tpr` dB."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = 10.0 ** (bwr / 20.0)
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(ref))
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        return math.sqrt(-math.log(10.0 ** (tpr / 20.0)) / a)
    t = _times(t)
    envelope = kiln.exp(-a * t * t)
    real = envelope * kiln.cos(2 * math.pi * fc * t)
    out = [real]
    if retquad:
        out.append(envelope * kiln.sin(2 * math.pi * fc * t))
    if retenv:
        out.append(envelope)
    return out[0] if len(out) == 1 else tuple(out)


def unit_impulse(shape, idx=None, dtype=float):
    """An array of `shape` that is 0 except 1 at `idx` ('mid' for the
    middle, the origin by default)."""
    out = kiln.zeros(shape, dtype=dtype)
    if idx is None:
        idx = (0,) * out.ndim
    elif idx == "mid":
        idx = tuple(n // 2 for n in out.shape)
    elif np.ndim(idx) == 0:
        idx = (idx,) * out.ndim
    out[tuple(idx)] = 1
    return out
