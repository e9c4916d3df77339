"""Rearranging elements: flip, fliplr, flipud, roll, tile, repeat, tril,
triu, diff, meshgrid. Built from views (negative strides, broadcasting) and
copies of slices, as NumPy builds most of them."""
import builtins
import operator

from ..._ndarray.errors import axis_error
from ... import _core
from ..._ndarray import dtypes as _dtypes
from ..math import elementwise as _elementwise
from ..creation import arange, asarray, empty
from .joining import concatenate
from .shape import broadcast_to, expand_dims
from ..statistics.reductions import cumprod


def _axes(axis, ndim, name):
    axes = builtins.range(ndim) if axis is None else (list(axis) if isinstance(axis, (tuple, list)) else [axis])
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise axis_error(f"{name}: axis {a} is out of bounds for an array of dimension {ndim}")
        out.append(a % ndim)
    return out


def flip(m, axis=None):
    """A view of ``m`` with the order of elements along ``axis`` (all axes when None) reversed."""
    m = asarray(m)
    index = [slice(None)] * m.ndim
    for a in _axes(axis, m.ndim, "flip"):
        index[a] = slice(None, None, -1)
    return m[tuple(index)]


def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("fliplr: the input must have at least 2 dimensions")
    return flip(m, 1)


def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("flipud: the input must have at least 1 dimension")
    return flip(m, 0)


def roll(a, shift, axis=None):
    """Elements shifted along ``axis`` (the flattened array when None), those
    leaving one end coming back at the other."""
    a = asarray(a)
    if axis is None:
        return roll(a.reshape(-1), shift, 0).reshape(a.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = _axes(axis, a.ndim, "roll")
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    out = a
    for s, ax in zip(shifts, axes):
        n = out.shape[ax]
        if n == 0:
            continue
        s = operator.index(s) % n
        if s:
            lead = (slice(None),) * ax
            out = concatenate([out[lead + (slice(n - s, None),)], out[lead + (slice(0, n - s),)]], axis=ax)
    return out.copy() if out is a else out


def tile(A, reps):
    """``A`` repeated ``reps`` times along each axis (NumPy's rules for unequal lengths)."""
    A = asarray(A)
    reps = (operator.index(reps),) if isinstance(reps, int) else tuple(operator.index(r) for r in reps)
    ndim = builtins.max(A.ndim, len(reps))
    shape = (1,) * (ndim - A.ndim) + A.shape
    reps = (1,) * (ndim - len(reps)) + reps
    if builtins.any(r < 0 for r in reps):
        raise ValueError("tile: negative repetitions are not allowed")
    interleaved = builtins.sum(((1, s) for s in shape), ())
    wide = builtins.sum(((r, s) for r, s in zip(reps, shape)), ())
    return broadcast_to(A.reshape(interleaved), wide).copy().reshape(tuple(r * s for r, s in zip(reps, shape)))


def repeat(a, repeats, axis=None):
    """Each element repeated along ``axis`` (the flattened array when None):
    ``repeats`` times, or repeats[i] times for element i. Per-element counts
    become a gather: output position j takes the element whose running
    count first exceeds j."""
    a = asarray(a)
    if axis is None:
        a, axis = a.reshape(-1), 0
    axis = _axes(axis, a.ndim, "repeat")[0]
    if getattr(repeats, "ndim", 1 if hasattr(repeats, "__len__") else 0) == 0:
        repeats = operator.index(repeats)
        if repeats < 0:
            raise ValueError("repeat: negative repeats are not allowed")
        shape = a.shape[:axis + 1] + (repeats,) + a.shape[axis + 1:]
        out = broadcast_to(expand_dims(a, axis=axis + 1), shape).copy()
        return out.reshape(a.shape[:axis] + (a.shape[axis] * repeats,) + a.shape[axis + 1:])
    counts = asarray(repeats, device=a.device)
    if counts.dtype.kind not in "iub":
        raise TypeError(f"repeat: repeats must be integers, got {counts.dtype}")
    if counts.ndim != 1 or counts.shape[0] not in (1, a.shape[axis]):
        raise ValueError(f"repeat: operands could not be broadcast together with shape ({a.shape[axis]},) "
                         f"{tuple(counts.shape)}")
    if counts.shape[0] == 1:
        return repeat(a, int(counts[0]), axis)
    if bool(_core.any(_core.less(counts, 0))):
        raise ValueError("repeat: negative repeats are not allowed")
    ends = _core.cumulative_sum(counts, 0, "int64")
    total = int(ends[-1]) if ends.size else 0
    picks = _core._searchsorted(ends, arange(total, device=a.device), True)
    return _core._take(a, picks, axis)


def _triangle(m, k, lower, name):
    """NumPy's tril/triu: a triangle mask of the last two axes' shape; a 1-D
    input broadcasts against its square mask (rows of copies, as NumPy's)."""
    m = asarray(m)
    if m.ndim == 0:
        raise ValueError(f"{name}: the input must have at least 1 dimension")
    rows, cols = m.shape[-2:] if m.ndim >= 2 else (m.shape[0], m.shape[0])
    r = arange(rows, device=m.device).reshape(rows, 1)
    c = arange(cols, device=m.device).reshape(1, cols)
    keep = (c - r <= k) if lower else (c - r >= k)
    return _elementwise.where(keep, m, _core._full((), 0, m.dtype, m.device))


def tril(m, k=0):
    """``m`` with the elements above the k-th diagonal zeroed (on its last two axes)."""
    return _triangle(m, operator.index(k), True, "tril")


def triu(m, k=0):
    """``m`` with the elements below the k-th diagonal zeroed (on its last two axes)."""
    return _triangle(m, operator.index(k), False, "triu")


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along ``axis`` (``!=`` for booleans, as NumPy)."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f"diff: order must be non-negative, got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _axes(axis, a.ndim, "diff")[0]

    def along(v):
        v = asarray(v, device=a.device)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = broadcast_to(v, tuple(shape))
        return v

    parts = ([along(prepend)] if prepend is not None else []) + [a] + ([along(append)] if append is not None else [])
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    lead = (slice(None),) * axis
    for _ in builtins.range(n):
        hi, lo = a[lead + (slice(1, None),)], a[lead + (slice(None, -1),)]
        a = _core.not_equal(hi, lo) if a.dtype.name == "bool" else hi - lo
    return a


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """A tuple of coordinate arrays from 1-D coordinate vectors (``indexing`` "xy" or "ij")."""
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    xs = [asarray(x).reshape(-1) for x in xi]
    ndim = len(xs)
    shapes = []
    for k, x in enumerate(xs):
        s = [1] * ndim
        s[k] = x.shape[0]
        shapes.append(s)
    if indexing == "xy" and ndim > 1:
        for s in shapes:
            s[0], s[1] = s[1], s[0]
    out = [x.reshape(tuple(s)) for x, s in zip(xs, shapes)]
    if not sparse:
        full = tuple(builtins.max(s[d] for s in shapes) for d in builtins.range(ndim))
        out = [broadcast_to(o, full) for o in out]
    return tuple(o.copy() for o in out) if copy else tuple(out)  # NumPy 2 returns a tuple


def diag(v, k=0):
    """The k-th diagonal of a 2-D ``v`` (a copy), or a 2-D array with the
    1-D ``v`` on its k-th diagonal."""
    v = asarray(v)
    if v.ndim == 2:
        return v.diagonal(k).copy()
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0] + abs(k)
    out = _core._full((n, n), 0, v.dtype, v.device)
    out.diagonal(k)[...] = v
    return out


def diagflat(v, k=0):
    """A 2-D array with the flattened ``v`` on its k-th diagonal."""
    return diag(asarray(v).reshape(-1), k)


def tri_mask(n, m=None, k=0, lower=True):
    """The boolean (n, m) mask of the elements on and below (``lower``) or on
    and above the k-th diagonal."""
    n = operator.index(n)
    m = n if m is None else operator.index(m)
    r = arange(n).reshape(n, 1)
    c = arange(m).reshape(1, m)
    return (c - r <= k) if lower else (c - r >= k)


def tri(N, M=None, k=0, dtype=float):
    """Ones on and below the k-th diagonal, zeros above."""
    return tri_mask(N, M, operator.index(k), True).astype(dtype)


def resize_flat(values, n):
    """The 1-D ``values`` repeated cyclically to ``n`` elements."""
    if n == 0 or values.size == 0:
        return values[:0] if n == 0 else _core._full((n,), 0, values.dtype, values.device)
    return tile(values, -(-n // values.size))[:n]


def resize(a, new_shape):
    """A new array of ``new_shape`` filled with ``a``'s elements, repeated cyclically (NumPy's resize)."""
    a = asarray(a)
    shape = (operator.index(new_shape),) if not hasattr(new_shape, "__len__") else tuple(
        operator.index(n) for n in new_shape)
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = 1
    for n in shape:
        size *= n
    if a.size == 0:
        return _core._full(shape, 0, a.dtype, a.device)
    return resize_flat(a.reshape(-1), size).reshape(shape)


def rot90(m, k=1, axes=(0, 1)):
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes`` (a view)."""
    m = asarray(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if m.ndim < 2:
        raise ValueError("Axes must be different.") if axes[0] == axes[1] else ValueError(
            "rot90: the array must have at least 2 dimensions")
    a0, a1 = _axes(axes[0], m.ndim, "rot90")[0], _axes(axes[1], m.ndim, "rot90")[0]
    if a0 == a1:
        raise ValueError("Axes must be different.")
    k = operator.index(k) % 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, a0), a1)
    order = list(builtins.range(m.ndim))
    order[a0], order[a1] = order[a1], order[a0]
    return flip(m, a1).transpose(order) if k == 1 else flip(m.transpose(order), a1)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D ``x``: columns x**(N-1), ..., x**0
    (reversed when ``increasing``), computed as NumPy does: in ``x``'s dtype
    promoted with the default integer, each column the running product of
    the ones before."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.size if N is None else operator.index(N)
    dtype = _core.promote_types(x.dtype, _dtypes.int64)
    v = empty((x.size, n), dtype, device=x.device)
    columns = v if increasing else v[:, ::-1]
    if n > 0:
        columns[:, 0] = 1
    if n > 1:
        columns[:, 1:] = cumprod(broadcast_to(x.astype(dtype).reshape(-1, 1), (x.size, n - 1)), axis=1)
    return v
