"""Whole-array comparisons: isclose, allclose, array_equal, array_equiv."""
from .. import _core
from .creation import asarray


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's asymmetric rule),
    infinities close only to themselves, NaNs close only with ``equal_nan``."""
    a, b = asarray(a), asarray(b, device=asarray(a).device)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        a, b = a.astype("float64"), b.astype("float64")
    finite = _core.logical_and(_core.isfinite(a), _core.isfinite(b))
    close = _core.less_equal(_core.abs(a - b), atol + rtol * _core.abs(b))
    out = _core.logical_or(_core.equal(a, b), _core.logical_and(finite, close))
    if equal_nan:
        out = _core.logical_or(out, _core.logical_and(_core.isnan(a), _core.isnan(b)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_core.all(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a1, a2, equal_nan=False):
    """True when the arrays have one shape and equal elements."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    if a1.shape != a2.shape:
        return False
    same = _core.equal(a1, a2)
    if equal_nan and a1.dtype.kind in "fc":
        same = _core.logical_or(same, _core.logical_and(_core.isnan(a1), _core.isnan(a2)))
    return bool(_core.all(same))


def array_equiv(a1, a2):
    """True when the arrays broadcast to one shape with equal elements."""
    a1 = asarray(a1)
    a2 = asarray(a2, device=a1.device)
    try:
        _core._broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(_core.all(_core.equal(a1, a2)))
