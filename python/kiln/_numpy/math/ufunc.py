"""NumPy's ufunc objects over kiln's elementwise functions.

``kiln.add`` is a ``kiln.ufunc``: calling it runs the C++ function (one call,
no extra work when no keyword is given); ``reduce``, ``accumulate``,
``outer``, ``at`` and ``reduceat`` are built from kiln's reductions, scans
and elementwise calls, so they run on every device. The tables of type
signatures and identities are NumPy's (facts about the same ufuncs)."""
import builtins
import operator

from ..._core import ndarray
from ..._ndarray.errors import axis_error
from ..._ndarray.outputs import into

_NO_VALUE = object()
# The reductions and scans kiln has for some ufuncs (the rest reduce pairwise).
_REDUCTION = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
              "logical_or": "any"}
_SCAN = {"add": "cumsum", "multiply": "cumprod"}
# Ufuncs whose operation is associative, so a scan may combine in any grouping.
_ASSOCIATIVE = {"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or",
                "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "lcm"}
# dtype characters kiln's arrays hold.
_KILN_CHARS = set("?bBhHiIlLqQefdFD")


def _namespace():
    from ..._ndarray import public_namespace as _public_namespace

    return _public_namespace.get()


def _numpy_facts(name):
    """(types, identity) of NumPy's ufunc of this name, limited to kiln's dtypes."""
    import numpy as np

    numpy_ufunc = getattr(np, name, None)
    if not isinstance(numpy_ufunc, np.ufunc):
        return [], None
    types = [t for t in numpy_ufunc.types if set(t.replace("->", "")) <= _KILN_CHARS]
    return types, numpy_ufunc.identity


class ufunc:
    """A universal function: elementwise over broadcast arrays, with NumPy's
    methods ``reduce``, ``accumulate``, ``outer``, ``at`` and ``reduceat``."""

    def __init__(self, name, function, nin, nout=1, doc=None):
        self.__name__ = name
        self._function = function
        self.nin, self.nout, self.nargs = nin, nout, nin + nout
        self.signature = None
        self.__doc__ = doc or getattr(function, "__doc__", None)

    @property
    def types(self):
        return _numpy_facts(self.__name__)[0]

    @property
    def ntypes(self):
        return len(self.types)

    @property
    def identity(self):
        return _numpy_facts(self.__name__)[1]

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def __call__(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None, subok=True,
                 signature=None):
        if len(args) > self.nin:  # outputs given by position, as NumPy allows
            if out is not None:
                raise TypeError(f"{self.__name__}: cannot specify 'out' as both a positional and keyword argument")
            args, out = args[:self.nin], args[self.nin:]
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} positional argument"
                            f"{'s' if self.nin > 1 else ''} but {len(args)} were given")
        if isinstance(out, tuple):
            if len(out) != self.nout:
                raise ValueError(f"out: {self.__name__} has {self.nout} output(s), {len(out)} were given")
            out = out[0] if self.nout == 1 else out
        if dtype is not None:
            kiln = _namespace()
            device = next((a.device for a in args if isinstance(a, ndarray)), None)
            args = tuple(kiln.asarray(a, device=device).astype(dtype, copy=False) for a in args)
        if where is True:
            return self._function(*args) if out is None else self._function(*args, out=out)
        return self._masked(args, out, where)

    def _masked(self, args, out, where):
        """NumPy's where=: outputs keep their values where the mask is false
        (a fresh output takes the computed value everywhere)."""
        kiln = _namespace()
        result = self._function(*args)
        if out is None:
            return result
        outs = out if isinstance(out, tuple) else (out,)
        results = result if isinstance(result, tuple) else (result,)
        for o, r in zip(outs, results):
            o[...] = kiln.where(where, r, o)
        return out

    # --- reduce -------------------------------------------------------------------------------------
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
        """Combine the elements along ``axis`` (an int, a tuple, or None for all) with this ufunc."""
        self._binary_only("reduce")
        kiln = _namespace()
        a = kiln.asarray(array)
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        axes = _axes(axis, a.ndim)
        if where is not True:
            if initial is _NO_VALUE and self.identity is None:
                raise ValueError(f"reduce: where= needs an identity or initial= for {self.__name__}")
            fill = self.identity if initial is _NO_VALUE else initial
            a = kiln.where(where, a, kiln.asarray(fill, dtype=a.dtype, device=a.device))
        if any(a.shape[i] == 0 for i in axes) and initial is _NO_VALUE:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which has no identity")
            initial = self.identity
        result = self._reduce_axes(a, axes)
        if initial is not _NO_VALUE:
            result = self._function(result, kiln.asarray(initial, dtype=result.dtype, device=result.device)) \
                if _reduced_size(a, axes) else kiln.full(result.shape, initial, dtype=result.dtype,
                                                         device=result.device)
        if keepdims:
            result = kiln.expand_dims(result, axis=axes) if axes else result
        return into(result, _single(out))

    def _reduce_axes(self, a, axes):
        kiln = _namespace()
        name = _REDUCTION.get(self.__name__)
        if name is not None and _reduced_size(a, axes):
            return getattr(kiln, name)(a, axis=axes)
        result = a
        for axis in sorted(axes, reverse=True):
            result = self._reduce_one_axis(result, axis)
        return result

    def _reduce_one_axis(self, a, axis):
        """Halve the axis pairwise until one element is left (log2(n) calls);
        an operation that is not associative folds from the left instead."""
        kiln = _namespace()
        a = kiln.moveaxis(a, axis, 0)
        if a.shape[0] == 0:
            return kiln.full(a.shape[1:], self.identity, dtype=a.dtype, device=a.device)
        if self.__name__ not in _ASSOCIATIVE:
            return self._fold(a)[-1]
        while a.shape[0] > 1:
            half = a.shape[0] // 2
            combined = self._function(a[:half], a[half:2 * half])
            a = kiln.concatenate([combined, a[2 * half:]]) if a.shape[0] % 2 else combined
        return a[0]

    # --- accumulate ---------------------------------------------------------------------------------
    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction along ``axis``."""
        self._binary_only("accumulate")
        kiln = _namespace()
        a = kiln.asarray(array)
        if a.ndim == 0:
            raise TypeError("accumulate: the array must have at least one dimension")
        axis = _axes(axis, a.ndim)[0]
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        if self.__name__ in _SCAN:
            result = getattr(kiln, _SCAN[self.__name__])(a, axis=axis, dtype=dtype)
        else:
            moved = kiln.moveaxis(a, axis, 0)
            result = self._scan(moved) if self.__name__ in _ASSOCIATIVE else self._fold(moved)
            result = kiln.moveaxis(result, 0, axis)
        return into(result, _single(out))

    def _scan(self, a):
        """Hillis and Steele's inclusive scan: log2(n) elementwise steps."""
        kiln = _namespace()
        result = a.astype(self._function(a[:1], a[:1]).dtype) if a.shape[0] else a.copy()
        shift = 1
        while shift < a.shape[0]:
            combined = self._function(result[:-shift], result[shift:])
            result = kiln.concatenate([result[:shift], combined.astype(result.dtype, copy=False)])
            shift *= 2
        return result

    def _fold(self, a):
        """The left fold, one step per element (for operations that are not associative)."""
        kiln = _namespace()
        if a.shape[0] == 0:
            return a.copy()
        first = a[0]
        running = [first]
        for k in range(1, a.shape[0]):
            running.append(self._function(running[-1], a[k]))
        dtype = kiln.result_type(*[r.dtype for r in running])
        return kiln.stack([r.astype(dtype, copy=False) for r in running])

    # --- outer, at, reduceat ------------------------------------------------------------------------
    def outer(self, A, B, /, **kwargs):
        """``op(A[..., None, ...], B)``: every pair of elements."""
        self._binary_only("outer")
        kiln = _namespace()
        a, b = kiln.asarray(A), kiln.asarray(B)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def at(self, a, indices, b=None, /):
        """In place: ``a[indices] = op(a[indices], b)``, where repeated indices
        apply again (unbuffered). Each round applies the ufunc once to the
        first remaining occurrence of every index, so rounds are as many as
        the most repeated index, and the order of the occurrences is kept."""
        kiln = _namespace()
        if not isinstance(a, ndarray):
            raise TypeError("at: a must be a kiln array (the update is in place)")
        if (b is None) != (self.nin == 1):
            raise ValueError(f"at: {self.__name__} takes {'no' if self.nin == 1 else 'a'} second operand")
        positions = kiln.arange(a.size, device=a.device).reshape(a.shape)[indices]
        values = None if b is None else kiln.broadcast_to(kiln.asarray(b, device=a.device),
                                                          positions.shape).reshape(-1)
        positions = positions.reshape(-1)
        flat = a.reshape(-1) if a.flags.c_contiguous else a.flatten()
        order = kiln.arange(positions.size, device=a.device)
        while positions.size:
            targets, first = kiln.unique(positions, return_index=True)
            current = flat[targets]
            updated = self._function(current) if values is None else self._function(current, values[first])
            flat[targets] = updated
            keep = kiln.ones(positions.size, dtype=kiln.bool, device=a.device)
            keep[first] = False
            positions, order = positions[keep], order[keep]
            values = None if values is None else values[keep]
        if not a.flags.c_contiguous:
            a[...] = flat.reshape(a.shape)

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """Reductions over the slices ``indices[i]:indices[i+1]`` along ``axis``
        (just ``array[indices[i]]`` where ``indices[i] >= indices[i+1]``)."""
        self._binary_only("reduceat")
        kiln = _namespace()
        import numpy as np

        a = kiln.asarray(array)
        if dtype is not None:
            a = a.astype(dtype, copy=False)
        axis = _axes(axis, a.ndim)[0]
        starts = np.asarray(indices.get() if isinstance(indices, ndarray) else indices).reshape(-1)
        n = a.shape[axis]
        if starts.size and (starts.min() < 0 or starts.max() >= n):
            raise IndexError(f"reduceat: index out of bounds for an axis of length {n}")
        moved = kiln.moveaxis(a, axis, 0)
        pieces = []
        for i, start in enumerate(starts.tolist()):
            stop = starts[i + 1] if i + 1 < starts.size else n
            part = moved[start:stop] if start < stop else moved[start:start + 1]
            pieces.append(self._reduce_axes(part, (0,)).astype(a.dtype, copy=False))
        result = kiln.moveaxis(kiln.stack(pieces), 0, axis) if pieces else kiln.empty(
            (0,) + moved.shape[1:], dtype=a.dtype, device=a.device)
        return into(result, _single(out))

    def _binary_only(self, method):
        if self.nin != 2 or self.nout != 1:
            raise ValueError(f"{method} only supported for binary functions")


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) or hasattr(axis, "__index__") else tuple(axis)
    out = []
    for ax in axes:
        ax = operator.index(ax)
        if not -ndim <= ax < builtins.max(ndim, 1):
            raise axis_error(f"axis {ax} is out of bounds for array of dimension {ndim}")
        out.append(ax % builtins.max(ndim, 1))
    if len(set(out)) != len(out):
        raise ValueError("axis: duplicate value in 'axis'")
    return tuple(out)


def _reduced_size(a, axes):
    size = 1
    for ax in axes:
        size *= a.shape[ax]
    return size


def _single(out):
    """The one output of a reduction, given alone or as NumPy's 1-tuple."""
    return out[0] if isinstance(out, tuple) else out
