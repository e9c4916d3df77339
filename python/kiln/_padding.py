"""NumPy's pad: constant, edge, wrap, reflect and symmetric modes, one axis
at a time, each side built from slices of the array and joined."""
import builtins
import operator

from ._creation import asarray, full
from ._joining import concatenate
from ._manipulation import broadcast_to
from ._rearranging import flip


def _pairs(value, ndim):
    """NumPy's broadcasting of pad_width / constant_values to one (before, after) per axis."""
    import numpy as np

    pairs = np.broadcast_to(np.asarray(value, dtype=object), (ndim, 2))
    return [(pairs[d, 0], pairs[d, 1]) for d in builtins.range(ndim)]


def _piece(x, axis, start, stop):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _periodic(x, axis, before, after, period):
    """x extended along ``axis`` by ``before`` and ``after`` elements of the
    sequence that repeats ``period`` (whose first elements are x's)."""
    p = period.shape[axis]
    copies_before = -(-before // p)
    total = copies_before * p + x.shape[axis] + after
    copies = -(-total // p)
    extended = concatenate([period] * copies, axis=axis)
    start = copies_before * p - before
    return _piece(extended, axis, start, start + before + x.shape[axis] + after)


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded by ``pad_width`` (an int, a (before, after) pair, or a
    pair per axis) in ``mode``: "constant" (``constant_values``), "edge",
    "wrap", "reflect" or "symmetric"."""
    x = original = asarray(array)
    if mode not in ("constant", "edge", "wrap", "reflect", "symmetric"):
        raise ValueError(f"pad: mode {mode!r} is not supported (constant, edge, wrap, reflect, symmetric)")
    allowed = {"constant": {"constant_values"}}.get(mode, set())
    if set(kwargs) - allowed:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: {sorted(set(kwargs) - allowed)}")
    widths = [(operator.index(b), operator.index(a)) for b, a in _pairs(pad_width, x.ndim)]
    if builtins.any(b < 0 or a < 0 for b, a in widths):
        raise ValueError("pad: index can't contain negative values")
    values = _pairs(kwargs.get("constant_values", 0), x.ndim)
    for axis, (before, after) in enumerate(widths):
        if before == 0 and after == 0:
            continue
        n = x.shape[axis]
        if n == 0 and mode != "constant":
            raise ValueError(f"pad: can't extend empty axis {axis} using modes other than 'constant'")
        if mode == "constant":
            side = lambda width, value: full(  # noqa: E731
                x.shape[:axis] + (width,) + x.shape[axis + 1:], value, dtype=x.dtype, device=x.device)
            x = concatenate([side(before, values[axis][0]), x, side(after, values[axis][1])], axis=axis)
        elif mode == "edge":
            shape = lambda width: x.shape[:axis] + (width,) + x.shape[axis + 1:]  # noqa: E731
            x = concatenate([broadcast_to(_piece(x, axis, 0, 1), shape(before)), x,
                             broadcast_to(_piece(x, axis, n - 1, n), shape(after))], axis=axis)
        else:
            if mode == "wrap" or (mode == "reflect" and n == 1):
                period = x
            elif mode == "symmetric":
                period = concatenate([x, flip(x, axis)], axis=axis)
            else:  # reflect: the edges are not repeated
                period = concatenate([x, _piece(flip(x, axis), axis, 1, n - 1)], axis=axis)
            x = _periodic(x, axis, before, after, period)
    return x.copy() if x is original else x  # a new array, as NumPy's
