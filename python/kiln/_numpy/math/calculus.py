"""Differences, gradients and integrals of sampled data: gradient,
trapezoid, ediff1d, unwrap (NumPy's formulas, with kiln's slicing and
elementwise operations)."""
import operator

from ... import _core
from ..creation import asarray
from ..manipulation.joining import concatenate


def _float(a):
    return a if a.dtype.kind in "fc" else a.astype("float64")


def _along(axis, ndim, part):
    index = [slice(None)] * ndim
    index[axis] = part
    return tuple(index)


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, one-sided differences of
    order ``edge_order`` at the ends; spacing scalars or coordinate arrays."""
    f = _float(asarray(f))
    axes = list(range(f.ndim)) if axis is None else [a % f.ndim for a in ((axis,) if isinstance(axis, int)
                                                                          else axis)]
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    if len(varargs) == 0:
        spacings = [1.0] * len(axes)
    elif len(varargs) == 1 and asarray(varargs[0]).ndim == 0:
        spacings = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    out = []
    for ax, h in zip(axes, spacings):
        n = f.shape[ax]
        if n < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                             "(edge_order + 1) elements are required.")
        g = _core._empty(f.shape, f.dtype, f.device)
        sl = lambda part: _along(ax, f.ndim, part)  # noqa: E731
        h = asarray(h, device=f.device)
        if h.ndim == 0:
            d = float(h)
            g[sl(slice(1, -1))] = (f[sl(slice(2, None))] - f[sl(slice(None, -2))]) / (2.0 * d)
            if edge_order == 1:
                g[sl(0)] = (f[sl(1)] - f[sl(0)]) / d
                g[sl(-1)] = (f[sl(-1)] - f[sl(-2)]) / d
            else:
                g[sl(0)] = (-1.5 * f[sl(0)] + 2.0 * f[sl(1)] - 0.5 * f[sl(2)]) / d
                g[sl(-1)] = (0.5 * f[sl(-3)] - 2.0 * f[sl(-2)] + 1.5 * f[sl(-1)]) / d
        else:
            if h.ndim != 1 or h.shape[0] != n:
                raise ValueError("when 1d, distances must match the length of the corresponding dimension")
            x = _float(h)
            dx = x[1:] - x[:-1]
            shape = [1] * f.ndim
            shape[ax] = n - 2
            dx1, dx2 = dx[:-1].reshape(shape), dx[1:].reshape(shape)
            a = -dx2 / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            g[sl(slice(1, -1))] = a * f[sl(slice(None, -2))] + b * f[sl(slice(1, -1))] + c * f[sl(slice(2, None))]
            if edge_order == 1:
                g[sl(0)] = (f[sl(1)] - f[sl(0)]) / float(dx[0])
                g[sl(-1)] = (f[sl(-1)] - f[sl(-2)]) / float(dx[-1])
            else:
                d1, d2 = float(dx[0]), float(dx[1])
                g[sl(0)] = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)) * f[sl(0)] + (d1 + d2) / (d1 * d2) * f[sl(1)]
                            - d1 / (d2 * (d1 + d2)) * f[sl(2)])
                d1, d2 = float(dx[-2]), float(dx[-1])
                g[sl(-1)] = (d2 / (d1 * (d1 + d2)) * f[sl(-3)] - (d2 + d1) / (d1 * d2) * f[sl(-2)]
                             + (2.0 * d2 + d1) / (d2 * (d1 + d2)) * f[sl(-1)])
        out.append(g)
    return out[0] if len(out) == 1 else tuple(out)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of samples ``y`` by the trapezoidal rule."""
    y = asarray(y)
    axis = operator.index(axis) % y.ndim
    if x is None:
        d = dx
    else:
        x = asarray(x, device=y.device)
        d = x[1:] - x[:-1] if x.ndim == 1 else x[_along(axis, x.ndim, slice(1, None))] - x[
            _along(axis, x.ndim, slice(None, -1))]
        if x.ndim == 1:
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
    upper, lower = y[_along(axis, y.ndim, slice(1, None))], y[_along(axis, y.ndim, slice(None, -1))]
    return _core.sum(d * (upper + lower) / 2.0, axis)


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of consecutive elements of the flattened array, with extras at either end."""
    a = asarray(ary).reshape(-1)
    parts = []
    if to_begin is not None:
        parts.append(asarray(to_begin, device=a.device).reshape(-1).astype(a.dtype))
    parts.append(a[1:] - a[:-1])
    if to_end is not None:
        parts.append(asarray(to_end, device=a.device).reshape(-1).astype(a.dtype))
    return concatenate(parts) if len(parts) > 1 else parts[0]


def unwrap(p, discont=None, axis=-1, *, period=6.283185307179586):
    """Phases with jumps larger than ``discont`` (period/2) replaced by their complement."""
    p = asarray(p)
    axis = axis % p.ndim
    dd = p[_along(axis, p.ndim, slice(1, None))] - p[_along(axis, p.ndim, slice(None, -1))]
    discont = period / 2 if discont is None else discont
    high = period / 2
    dtype = _core.result_type(dd, period)
    dd = dd.astype(dtype)
    ddmod = _core.remainder(dd + high, period) - high
    ddmod = _core._where((ddmod == -high) & (dd > 0), high, ddmod)
    correction = ddmod - dd
    correction = _core._where(_core.abs(dd) < discont, 0, correction)
    out = p.astype(dtype, copy=True)
    out[_along(axis, p.ndim, slice(1, None))] = p[_along(axis, p.ndim, slice(1, None))] + _core.cumulative_sum(
        correction, axis)
    return out
