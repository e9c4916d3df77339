"""NumPy's pad, every mode: constant, edge, wrap, reflect and symmetric
(even or odd), linear_ramp, maximum, minimum, mean and median (over
``stat_length`` elements), empty, and a Python function. One axis at a
time, each side built from slices of the array (or a statistic of them)
and joined."""
import builtins
import operator

from ... import _core
from ..math import elementwise as _elementwise
from ..creation import asarray, empty, full, linspace
from .joining import concatenate
from .shape import broadcast_to
from .rearranging import flip
from ..statistics.order_and_moments import median

_MODES = ("constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "maximum", "minimum", "mean",
          "median", "empty")
_KEYWORDS = {"constant": {"constant_values"}, "linear_ramp": {"end_values"}, "reflect": {"reflect_type"},
             "symmetric": {"reflect_type"}, "maximum": {"stat_length"}, "minimum": {"stat_length"},
             "mean": {"stat_length"}, "median": {"stat_length"}}


def _pairs(value, ndim, as_index=False):
    """NumPy's _as_pairs: ``value`` (a scalar, a (before, after) pair, or a
    pair per axis) as one (before, after) per axis."""
    import numpy as np

    if value is None:
        return [(None, None)] * ndim
    x = np.array(value)
    if as_index:
        x = np.round(x).astype(np.intp)
        if x.size and x.min() < 0:
            raise ValueError("pad: index can't contain negative values")
    if x.ndim < 3:
        if x.size == 1:
            return [(x.ravel()[0], x.ravel()[0])] * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            return [(x[0], x[1])] * ndim
    pairs = np.broadcast_to(x, (ndim, 2))
    return [(pairs[d, 0], pairs[d, 1]) for d in builtins.range(ndim)]


def _piece(x, axis, start, stop):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _side_shape(x, axis, width):
    return x.shape[:axis] + (width,) + x.shape[axis + 1:]


def _between(x, axis, before, after, first, last):
    """x with ``first`` (a length-1 slab) repeated ``before`` times ahead of
    it along ``axis`` and ``last`` repeated ``after`` times behind it."""
    return concatenate([broadcast_to(first, _side_shape(x, axis, before)), x,
                        broadcast_to(last, _side_shape(x, axis, after))], axis=axis)


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


def _odd_reflection(x, axis, before, after, symmetric):
    """NumPy's reflect_type='odd': each reflected value v becomes 2 * edge - v,
    reflected again off the new edge until the widths are filled."""
    n = x.shape[axis]
    step = n if symmetric else n - 1
    while before or after:
        size = x.shape[axis]
        left, right = builtins.min(before, step), builtins.min(after, step)
        first, last = _piece(x, axis, 0, 1), _piece(x, axis, size - 1, size)
        skip = 0 if symmetric else 1
        mirrored_left = flip(_piece(x, axis, skip, skip + left), axis)
        mirrored_right = flip(_piece(x, axis, size - skip - right, size - skip), axis)
        x = concatenate([2 * first - mirrored_left, x, 2 * last - mirrored_right], axis=axis)
        before, after = before - left, after - right
    return x


def _statistic(x, axis, mode, length, at_start):
    """max/min/mean/median of the ``length`` elements at one end of ``axis``
    (all of them for None), kept as a length-1 axis; integer means and
    medians rounded to the nearest, as NumPy's are."""
    n = x.shape[axis]
    length = n if length is None else builtins.min(int(length), n)
    if length == 0:
        raise ValueError("stat_length of 0 yields no value for padding")
    part = _piece(x, axis, 0, length) if at_start else _piece(x, axis, n - length, n)
    if mode == "maximum":
        return _core.max(part, axis, True)
    if mode == "minimum":
        return _core.min(part, axis, True)
    value = _core.mean(part, axis, keepdims=True) if mode == "mean" else median(part, axis=axis, keepdims=True)
    if x.dtype.kind in "iub":
        value = _elementwise.round(value)
    return value.astype(x.dtype)


def _linear_ramp(x, axis, before, after, ends):
    """Ramps from each end value toward the edge (the edge itself not repeated)."""
    n = x.shape[axis]
    sides = []
    for width, end, at_start in ((before, ends[0], True), (after, ends[1], False)):
        edge = _piece(x, axis, 0, 1) if at_start else _piece(x, axis, n - 1, n)
        ramp = linspace(asarray(end, dtype="float64", device=x.device) + 0 * edge.astype("float64"),
                        edge.astype("float64"), width, endpoint=False, axis=axis)
        ramp = ramp.reshape(_side_shape(x, axis, width))
        if x.dtype.kind in "iu":
            ramp = _elementwise.floor(ramp)  # as NumPy 2's linspace with an integer dtype
        ramp = ramp.astype(x.dtype)
        sides.append(ramp if at_start else flip(ramp, axis))
    return concatenate([sides[0], x, sides[1]], axis=axis)


def _with_function(x, widths, function, kwargs):
    """NumPy's pad with a function: empty borders, then function(vector,
    (before, after), axis, kwargs) on each 1-D line along each axis in turn,
    writing its border in place."""
    import numpy as np

    padded = empty(tuple(n + b + a for n, (b, a) in zip(x.shape, widths)), dtype=x.dtype, device=x.device)
    padded[tuple(slice(b, b + n) for n, (b, _) in zip(x.shape, widths))] = x
    for axis in builtins.range(x.ndim):
        moved = padded.swapaxes(axis, -1)
        for index in np.ndindex(moved.shape[:-1]):
            function(moved[index], widths[axis], axis, kwargs)
    return padded


def pad(array, pad_width, mode="constant", **kwargs):
    """``array`` padded by ``pad_width`` (an int, a (before, after) pair, or a
    pair per axis) in ``mode``, with NumPy's keywords for it."""
    x = original = asarray(array)
    import numpy as np

    if np.asarray(pad_width).dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    widths = [(int(b), int(a)) for b, a in _pairs(pad_width, x.ndim, as_index=True)]
    if callable(mode):
        return _with_function(x, widths, mode, kwargs)
    if mode not in _MODES:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - _KEYWORDS.get(mode, set())
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(unsupported)}")
    if mode == "empty":
        out = empty(tuple(n + b + a for n, (b, a) in zip(x.shape, widths)), dtype=x.dtype, device=x.device)
        out[tuple(slice(b, b + n) for n, (b, _) in zip(x.shape, widths))] = x
        return out
    values = _pairs(kwargs.get("constant_values", 0), x.ndim)
    ends = _pairs(kwargs.get("end_values", 0), x.ndim)
    lengths = _pairs(kwargs.get("stat_length"), x.ndim, as_index=True)
    odd = kwargs.get("reflect_type", "even") == "odd"
    for axis, (before, after) in enumerate(widths):
        if before == 0 and after == 0:
            continue
        n = x.shape[axis]
        if n == 0 and mode != "constant":
            raise ValueError(f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'")
        if mode == "constant":
            side = lambda width, value: full(  # noqa: E731
                _side_shape(x, axis, width), value, dtype=x.dtype, device=x.device)
            x = concatenate([side(before, values[axis][0]), x, side(after, values[axis][1])], axis=axis)
        elif mode == "edge" or (mode == "reflect" and n == 1):
            x = _between(x, axis, before, after, _piece(x, axis, 0, 1), _piece(x, axis, n - 1, n))
        elif mode in ("maximum", "minimum", "mean", "median"):
            x = _between(x, axis, before, after, _statistic(x, axis, mode, lengths[axis][0], True),
                         _statistic(x, axis, mode, lengths[axis][1], False))
        elif mode == "linear_ramp":
            x = _linear_ramp(x, axis, before, after, ends[axis])
        elif odd and mode in ("reflect", "symmetric"):
            x = _odd_reflection(x, axis, before, after, mode == "symmetric")
        else:
            if mode == "wrap":
                period = x
            elif mode == "symmetric":
                period = concatenate([x, flip(x, axis)], axis=axis)
            else:  # reflect: the edges are not repeated
                period = concatenate([x, _piece(flip(x, axis), axis, 1, n - 1)], axis=axis)
            x = _periodic(x, axis, before, after, period)
    return x.copy() if x is original else x  # a new array, as NumPy's
