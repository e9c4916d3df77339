"""One-dimensional discrete convolution and correlation, NumPy's: the full
result is built by shifted multiply-adds over the shorter operand (one
elementwise pass per element of it), then cut to the mode's window."""
from ... import _core
from ..creation import operands
from .elementwise import conj

_MODES = ("full", "same", "valid")


def _vectors(a, v, name):
    a, v = operands(a, v)
    if a.ndim > 1 or v.ndim > 1:
        raise ValueError(f"{name}: object too deep for desired array")
    a, v = a.reshape(-1), v.reshape(-1)
    if a.size == 0:
        raise ValueError(f"{name}: a cannot be empty")
    if v.size == 0:
        raise ValueError(f"{name}: v cannot be empty")
    return a, v


def _full(a, w):
    """full[t] = sum_j a[t - (m - 1) + j] w[j], t in [0, n + m - 1)."""
    n, m = a.size, w.size
    full = _core._full((n + m - 1,), 0, _core.result_type(a.dtype, w.dtype), a.device)
    if m <= n:
        for j in range(m):
            full[m - 1 - j:m - 1 - j + n] += a * w[j]
    else:
        reversed_w = w[::-1]
        for i in range(n):
            full[i:i + m] += a[i] * reversed_w
    return full


def _window(full, n, m, mode, same_start, name):
    if mode not in _MODES:
        raise ValueError(f"{name}: mode must be one of {_MODES}, got {mode!r}")
    shorter, longer = min(n, m), max(n, m)
    if mode == "full":
        return full
    if mode == "same":
        return full[same_start:same_start + longer]
    return full[shorter - 1:longer]


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-D sequences: c[k] = sum_n a[n + k] conj(v[n])."""
    a, v = operands(a, v)
    if a.ndim == 0 or v.ndim == 0:  # NumPy's convolve makes 0-d inputs 1-d; its correlate refuses them
        raise ValueError("correlate: object of too small depth for desired array")
    a, v = _vectors(a, v, "correlate")
    n, m = a.size, v.size
    shorter = min(n, m)
    same_start = (shorter - 1) // 2 if n >= m else shorter - 1 - (shorter - 1) // 2
    w = conj(v) if v.dtype.kind == "c" else v
    return _window(_full(a, w), n, m, mode, same_start, "correlate")


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-D sequences."""
    a, v = _vectors(a, v, "convolve")
    if v.size > a.size:
        a, v = v, a
    return _window(_full(a, v[::-1]), a.size, v.size, mode, (v.size - 1) // 2, "convolve")
