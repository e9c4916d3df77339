"""RegularGridInterpolator and interpn. The linear and nearest methods run
on the values' device: a binary search per dimension, then the 2**ndim
corner values weighted (linear) or the nearest one gathered. The spline
methods (slinear, cubic, quintic, pchip) are SciPy's, on the host."""
import itertools

import kiln

from .._host_arrays import to_host, to_kiln
from ._host import scipy_interpolate

_HOST_METHODS = ("slinear", "cubic", "quintic", "pchip", "slinear_legacy", "cubic_legacy", "quintic_legacy")


class RegularGridInterpolator:
    def __init__(self, points, values, method="linear", bounds_error=True, fill_value=float("nan"), *,
                 solver=None, solver_args=None):
        if method not in ("linear", "nearest") + _HOST_METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        values = kiln.asarray(values)
        if values.dtype.kind not in "fc":
            values = values.astype("float64")
        device = values.device
        grid = [kiln.asarray(kiln.asarray(p), dtype="float64", device=device) for p in points]
        if len(grid) > values.ndim:
            raise ValueError(f"There are {len(grid)} point arrays, but values has {values.ndim} dimensions")
        for i, g in enumerate(grid):
            if g.ndim != 1:
                raise ValueError(f"The points in dimension {i} must be 1-dimensional")
            if g.size != values.shape[i]:
                raise ValueError(f"There are {g.size} points and {values.shape[i]} values in dimension {i}")
            steps = kiln.diff(g)
            if bool((steps < 0).all()) and g.size > 1:  # descending: flipped to ascending
                grid[i] = kiln.flip(g)
                values = kiln.flip(values, axis=i)
            elif not bool((steps > 0).all()):
                raise ValueError(f"The points in dimension {i} must be strictly ascending or descending")
        if fill_value is not None:
            import numpy

            if not numpy.can_cast(numpy.asarray(fill_value).dtype, str(values.dtype), casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.grid, self.values, self.method = tuple(grid), values, method
        self.bounds_error, self.fill_value = bounds_error, fill_value
        self._solver = (solver, solver_args)
        if method in _HOST_METHODS:
            self._host = scipy_interpolate().RegularGridInterpolator(
                to_host(self.grid), to_host(values), method=method, bounds_error=bounds_error,
                fill_value=fill_value, **({} if solver is None else {"solver": solver, "solver_args": solver_args}))

    def __call__(self, xi, method=None, *, nu=None):
        method = self.method if method is None else method
        if method not in ("linear", "nearest") + _HOST_METHODS:
            raise ValueError(f"Method '{method}' is not defined")
        ndim = len(self.grid)
        xi = kiln.asarray(xi, device=self.values.device) if not isinstance(xi, tuple) else \
            kiln.stack(kiln.broadcast_arrays(*[kiln.asarray(v, device=self.values.device) for v in xi]), axis=-1)
        if xi.ndim == 1:  # points of a 1-D grid, or one point
            xi = xi.reshape(-1, ndim)
        if xi.shape[-1] != ndim:
            raise ValueError(f"The requested sample points xi have dimension {xi.shape[-1]} but this "
                             f"RegularGridInterpolator has dimension {ndim}")
        xi_shape = xi.shape
        xi = kiln.asarray(xi, dtype="float64").reshape(-1, ndim)
        if method in _HOST_METHODS or nu is not None:
            host = getattr(self, "_host", None) or scipy_interpolate().RegularGridInterpolator(
                to_host(self.grid), to_host(self.values), method=self.method, bounds_error=self.bounds_error,
                fill_value=self.fill_value)
            out = host(to_host(xi), method=method, **({} if nu is None else {"nu": nu}))
            return to_kiln(out, self.values.device).reshape(xi_shape[:-1] + self.values.shape[ndim:])
        outside = kiln.zeros(xi.shape[0], dtype="bool", device=xi.device)
        for d, g in enumerate(self.grid):
            outside = outside | (xi[:, d] < g[0]) | (xi[:, d] > g[-1])
        missing = kiln.isnan(xi).any(axis=1)
        if self.bounds_error and bool(outside.any()):
            raise ValueError("One of the requested xi is out of bounds")
        indices, weights = [], []
        for d, g in enumerate(self.grid):
            if g.size == 1:
                indices.append(kiln.zeros(xi.shape[0], dtype="int64", device=xi.device))
                weights.append(kiln.zeros(xi.shape[0], device=xi.device))
                continue
            i = kiln.clip(kiln.searchsorted(g, xi[:, d], side="right") - 1, 0, g.size - 2)
            left = kiln.take(g, i)
            indices.append(i)
            weights.append((xi[:, d] - left) / (kiln.take(g, i + 1) - left))
        extra = (1,) * (self.values.ndim - ndim)
        if method == "nearest":
            nearest = tuple(kiln.where(w <= 0.5, i, i + 1) if g.size > 1 else i
                            for i, w, g in zip(indices, weights, self.grid))
            out = self.values[nearest]
        else:
            out = 0
            for corner in itertools.product((0, 1), repeat=ndim):
                weight = 1.0
                index = []
                for d, bit in enumerate(corner):
                    if self.grid[d].size == 1 and bit:
                        weight = weight * 0.0
                        index.append(indices[d])
                        continue
                    index.append(indices[d] + bit)
                    weight = weight * (weights[d] if bit else 1.0 - weights[d])
                out = out + self.values[tuple(index)] * weight.reshape((-1,) + extra)
        if self.fill_value is not None:
            fill = kiln.asarray(self.fill_value, dtype=out.dtype if out.dtype.kind == "c" else None,
                                device=out.device)
            out = kiln.where(outside.reshape((-1,) + extra), fill, out)
        out = kiln.where(missing.reshape((-1,) + extra), float("nan"), out)  # a NaN coordinate: NaN
        return out.reshape(xi_shape[:-1] + self.values.shape[ndim:])


def interpn(points, values, xi, method="linear", bounds_error=True, fill_value=float("nan")):
    """RegularGridInterpolator(points, values, method, bounds_error, fill_value)(xi)."""
    return RegularGridInterpolator(points, values, method=method, bounds_error=bounds_error,
                                   fill_value=fill_value)(xi)
