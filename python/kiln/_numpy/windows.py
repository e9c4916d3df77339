"""NumPy's window functions (bartlett, blackman, hamming, hanning, kaiser):
M-point float64 windows made on kiln's default device from NumPy's
formulas; M < 1 gives an empty window and M == 1 a single 1."""
import math

from .math import elementwise as _elementwise
from .creation import arange, asarray, ones, zeros
from .math.elementwise_composed import i0


def _edge_case(M):
    """The empty or one-point window, or None when M > 1."""
    if M < 1:
        return zeros((0,), dtype="float64")
    if M == 1:
        return ones((1,), dtype="float64")
    return None


def _cosine_sum(M, coefficients):
    """sum_k a_k cos(k pi n / (M - 1)) over n = 1 - M, 3 - M, ..., M - 1."""
    edge = _edge_case(M)
    if edge is not None:
        return edge
    n = arange(1 - M, M, 2, dtype="float64")
    window = 0.0 * n + coefficients[0]
    for k, a in enumerate(coefficients[1:], start=1):
        window = window + a * _elementwise.cos((k * math.pi / (M - 1)) * n)
    return window


def bartlett(M):
    """The triangular window, zero at both ends."""
    edge = _edge_case(M)
    if edge is not None:
        return edge
    n = arange(1 - M, M, 2, dtype="float64")
    return _elementwise.where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def blackman(M):
    return _cosine_sum(M, (0.42, 0.5, 0.08))


def hamming(M):
    return _cosine_sum(M, (0.54, 0.46))


def hanning(M):
    return _cosine_sum(M, (0.5, 0.5))


def kaiser(M, beta):
    """I0(beta sqrt(1 - ((n - alpha) / alpha)**2)) / I0(beta), alpha = (M - 1) / 2."""
    edge = _edge_case(M)
    if edge is not None:
        return edge
    alpha = (M - 1) / 2.0
    n = arange(0, M, dtype="float64")
    return i0(beta * _elementwise.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(asarray(float(beta)))
