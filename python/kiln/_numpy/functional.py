"""NumPy's functional helpers: vectorize, piecewise, apply_along_axis,
apply_over_axes.

``vectorize`` and the ``apply_*`` functions call a Python function, so they
run it on the host: vectorize on every element of the (copied) NumPy view of
the arguments, through ``numpy.vectorize``, and returns a kiln array on the
arguments' device; apply_along_axis calls the function once per 1-D slice
with kiln arrays, as NumPy does with NumPy arrays."""
import itertools

from .. import _core
from .._core import ndarray
from .creation import asarray
from .manipulation.shape import moveaxis


class vectorize:
    """NumPy's vectorize: ``pyfunc`` applied to every element of broadcast arguments."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        import numpy as np

        self.pyfunc = pyfunc
        self.__doc__ = doc or getattr(pyfunc, "__doc__", None)
        self._numpy = np.vectorize(pyfunc, otypes=otypes, excluded=excluded, cache=cache, signature=signature)

    def __call__(self, *args, **kwargs):
        device = next((a.device for a in itertools.chain(args, kwargs.values()) if isinstance(a, ndarray)), None)
        host = [a.get() if isinstance(a, ndarray) else a for a in args]
        host_kwargs = {k: v.get() if isinstance(v, ndarray) else v for k, v in kwargs.items()}
        result = self._numpy(*host, **host_kwargs)
        if isinstance(result, tuple):
            return tuple(asarray(r, device=device) for r in result)
        return asarray(result, device=device)


def piecewise(x, condlist, funclist, *args, **kw):
    """Each condition's function (or constant) where it holds; a last extra
    function is the default where none holds."""
    x = asarray(x)
    if isinstance(condlist, ndarray) and condlist.ndim == x.ndim and condlist.dtype.kind == "b":
        condlist = [condlist]
    condlist = [asarray(c, device=x.device) for c in condlist]
    n = len(condlist)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    result = _core._full(x.shape, 0, x.dtype, x.device)
    if len(funclist) == n + 1:
        none_hold = _core._full(x.shape, True, "bool", x.device)
        for c in condlist:
            none_hold = none_hold & ~c
        condlist = condlist + [none_hold]
    for cond, func in zip(condlist, funclist):
        if callable(func):
            if bool(_core.any(cond)):
                values = asarray(func(x[cond], *args, **kw), device=x.device)
                result[cond] = values.astype(x.dtype)
        else:
            result = _core._where(cond, asarray(func, device=x.device).astype(x.dtype), result)
    return result


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` on every 1-D slice along ``axis``; the results (scalars or
    arrays) take the place of that axis."""
    arr = asarray(arr)
    if arr.ndim == 0:
        raise ValueError("apply_along_axis: arr must have at least one dimension")
    axis = axis % arr.ndim
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(n == 0 for n in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [asarray(func1d(moved[index], *args, **kwargs), device=arr.device)
               for index in itertools.product(*(range(n) for n in outer))]
    from .manipulation.joining import stack

    stacked = stack(results).reshape(outer + results[0].shape)
    if results[0].ndim == 0:
        return stacked
    # The function's output axes take the place of `axis`.
    tail = results[0].ndim
    order = list(range(len(outer)))
    order = order[:axis] + [len(outer) + k for k in range(tail)] + order[axis:]
    return stacked.transpose(order)


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` over each axis in turn, keeping the reduced axis as length 1."""
    result = asarray(a)
    for axis in ([axes] if isinstance(axes, int) else axes):
        axis = axis % result.ndim
        reduced = asarray(func(result, axis))
        if reduced.ndim == result.ndim:
            result = reduced
        elif reduced.ndim == result.ndim - 1:
            from .manipulation.shape import expand_dims

            result = expand_dims(reduced, axis)
        else:
            raise ValueError("function is not returning an array of the correct shape")
    return result
