"""scipy.signal's symiirorder1 and symiirorder2: a first-order (second-order)
recursive filter run forward and then backward along the last axis of 1-D
signals or the rows of 2-D ones, with mirror-symmetric boundary conditions.

SciPy's algorithm: each start value is a truncated sum of the signal with
the weights of the filter's impulse (or step) response, cut where a weight
falls below `precision`; the recurrences are then lfilter/sosfilt runs
started from those values. The weights and where they stop depend only on
the filter, so they are made on the host (in the signal's precision, as
SciPy's loops); each sum is one product over the rows on the signal's
device."""
import math

import numpy as np

import kiln

from ._lfilter import lfilter, sosfilt


def _floating(signal):
    signal = kiln.asarray(signal)
    if signal.dtype.kind not in "fc":
        signal = signal.astype(kiln.float64)
    if signal.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    return signal


def _precision(precision, dtype):
    """SciPy's default where `precision` is not in (0, 1]."""
    if 0.0 < precision <= 1.0:
        return precision
    return 1e-6 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11


def _weights(term, limit, count, dtype):
    """term(k) for k = 0, 1, ... up to and with the first whose squared
    magnitude is not above `limit`, as SciPy's do-while loops add them;
    ValueError where that takes the signal's whole length `count`."""
    weights = []
    while True:
        weights.append(term(len(weights)))
        if abs(weights[-1]) ** 2 <= limit or len(weights) >= count:
            break
    if len(weights) >= count:
        raise ValueError("Sum to find symmetric boundary conditions did not converge.")
    return np.asarray(weights, dtype=dtype)


def _dot(rows, weights):
    """rows @ weights over the weights' length (rows: (M, N) kiln array)."""
    return kiln.matmul(rows[:, :weights.size], kiln.asarray(weights, device=rows.device))


def symiirorder1(signal, c0, z1, precision=-1.0):
    """The filter c0 / ((1 - z1 z^-1)(1 - z1 z)): forward through
    1 / (1 - z1 z^-1), then backward through c0 / (1 - z1 z)."""
    signal = _floating(signal)
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    rows = signal[None, :] if signal.ndim == 1 else signal
    dtype = np.dtype(rows.dtype)
    precision = _precision(precision, dtype)
    powers = _weights(lambda k: dtype.type(z1) ** (k + 1), precision * precision, rows.shape[1], dtype)
    # x[0] counts twice: the mirror puts x[0] before itself
    y0 = rows[:, 0] + _dot(rows, powers)
    a = np.asarray([1, -z1]).astype(dtype)
    y1, _ = lfilter(np.ones(1, dtype=dtype), a, rows[:, 1:], zi=(y0 * z1)[:, None])
    y1 = kiln.concatenate([y0[:, None], y1], axis=1)
    out_last = -c0 / (z1 - 1.0) * y1[:, -1:]
    out, _ = lfilter(np.asarray([c0], dtype=dtype), a, y1[:, -2::-1], zi=out_last * z1)
    out = kiln.concatenate([out[:, ::-1], out_last], axis=1)
    return out[0] if signal.ndim == 1 else out


def _step_response(k, cs, r, omega):
    """SciPy's _hc: the forward two-pole filter's response weight k."""
    if k < 0:
        return 0.0
    if omega == 0.0:
        return cs * r ** k * (k + 1)
    if omega == math.pi:
        return cs * r ** k * (k + 1) * (1 - 2 * (k % 2))
    return cs * r ** k * math.sin(omega * (k + 1)) / math.sin(omega)


def _backward_response(k, cs, rsq, omega):
    """SciPy's _hs: the steady response of the filter run backward."""
    k = abs(k)
    rsupk = rsq ** (k / 2.0)
    if omega in (0.0, math.pi):
        c0 = (1 + rsq) / ((1 - rsq) ** 3) * cs * cs
        gamma = (1 - rsq) / (1 + rsq) * (1 if omega == 0.0 else 1 - 2 * (k % 2))
        return c0 * rsupk * (1 + gamma * k)
    c0 = cs * cs * (1.0 + rsq) / (1.0 - rsq) / (1 - 2 * rsq * math.cos(2 * omega) + rsq * rsq)
    gamma = (1.0 - rsq) / (1.0 + rsq) / math.tan(omega)
    return c0 * rsupk * (math.cos(omega * k) + gamma * math.sin(omega * k))


def symiirorder2(input, r, omega, precision=-1.0):
    """The filter cs^2 / ((1 - a2 z^-1 - a3 z^-2)(1 - a2 z - a3 z^2)) with
    poles at r e^(+-i omega): forward, then backward, each a second-order
    section started from mirror-symmetric conditions."""
    signal = _floating(input)
    if r >= 1.0:
        raise ValueError("r must be less than 1.0")
    r, omega = float(r), float(omega)
    rows = signal[None, :] if signal.ndim == 1 else signal
    dtype = np.dtype(rows.dtype)
    n = rows.shape[1]
    precision = _precision(precision, dtype)
    rsq = r * r
    a2, a3 = 2 * r * math.cos(omega), -rsq
    cs = dtype.type(1 - 2 * r * math.cos(omega) + rsq)
    sos = np.asarray([cs, 0, 0, 1, -a2, -a3], dtype=dtype)
    coef = kiln.asarray(np.asarray([[a3, a2], [0, a3]], dtype=dtype), device=rows.device)

    # Forward start: y[-1] and y[-2] as sums over the signal's head.
    def head(shift):
        return _weights(lambda k: _step_response(k + shift, cs, r, omega), precision * precision, n, dtype)

    first = _step_response(0, cs, r, omega) * rows[:, 0] + _dot(rows, head(1))
    second = _step_response(0, cs, r, omega) * rows[:, 1] + _step_response(1, cs, r, omega) * rows[:, 0] \
        + _dot(rows, head(2))
    ic_fwd = kiln.stack([first, second], axis=1)
    y_fwd, _ = sosfilt(sos, rows[:, 2:], zi=kiln.matmul(ic_fwd, coef.T)[None])
    y_fwd = kiln.concatenate([ic_fwd, y_fwd], axis=1)

    # Backward start: sums over the signal's tail, newest first (SciPy
    # compares these weights' squares with precision itself, not squared).
    tail = rows[:, ::-1]

    def backward(before, after):
        return _weights(lambda k: _backward_response(k + before, cs, rsq, omega)
                        + _backward_response(k + after, cs, rsq, omega), precision, n, dtype)

    ic_bwd = kiln.stack([_dot(tail, backward(0, 1)), _dot(tail, backward(-1, 2))], axis=1)
    y, _ = sosfilt(sos, y_fwd[:, -3::-1], zi=kiln.matmul(ic_bwd, coef.T)[None])
    out = kiln.concatenate([y[:, ::-1], ic_bwd[:, ::-1]], axis=1)
    return out[0] if signal.ndim == 1 else out
