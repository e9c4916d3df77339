"""interp1d: scipy.interpolate's 1-D interpolating class. The linear,
nearest, previous and next kinds run on the data's device (a binary search
per point, then a gather); the spline kinds evaluate a kiln BSpline fitted
by make_interp_spline."""
import math

import kiln

from ._bspline import make_interp_spline
from ._points import shaped_like_points

_SPLINE_ORDERS = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}


class interp1d:  # noqa: N801  (SciPy's name)
    def __init__(self, x, y, kind="linear", axis=-1, copy=True, bounds_error=None, fill_value=float("nan"),
                 assume_sorted=False):
        x, y = kiln.asarray(x), kiln.asarray(y)
        x = kiln.asarray(x, device=y.device)
        if copy:
            x, y = x.copy(), y.copy()
        if x.ndim != 1:
            raise ValueError("the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("the y array must have at least one dimension.")
        if not assume_sorted:
            order = kiln.argsort(x, kind="stable")
            x, y = kiln.take(x, order), kiln.take(y, order, axis=axis)
        if y.dtype.kind not in "fc":
            y = y.astype("float64")
        self.axis = axis % y.ndim
        if x.size != y.shape[self.axis]:
            raise ValueError("x and y arrays must be equal in length along interpolation axis.")
        if isinstance(kind, int):
            order, kind = kind, "spline"
        elif kind in _SPLINE_ORDERS:
            order, kind = _SPLINE_ORDERS[kind], kind
        elif kind in ("linear", "nearest", "nearest-up", "previous", "next"):
            order = None
        else:
            raise NotImplementedError(f"{kind} is unsupported: Use fitpack routines for other types.")
        minimum = {"nearest": 1, "nearest-up": 1, "previous": 1, "next": 1, "linear": 2}.get(kind, (order or 0) + 1)
        if x.size < minimum:
            raise ValueError(f"x and y arrays must have at least {minimum} entries")
        self.x, self.y, self._kind, self.copy, self.assume_sorted = x, y, kind, copy, assume_sorted
        self._y = kiln.moveaxis(y, self.axis, 0)  # the interpolation axis first
        self._spline, self._all_nan = None, False
        if order is not None:
            xx, yy = x, self._y
            if order > 1:
                # LAPACK's banded solve must not see a NaN (SciPy's gh-11637: a crash): with one
                # anywhere every output is NaN, so a stand-in without NaNs gives the shapes.
                nans = kiln.isnan(x)
                if bool(nans.all()):
                    raise ValueError("`x` array is all-nan")
                if bool(nans.any()):
                    xx = kiln.linspace(float(kiln.nanmin(x)), float(kiln.nanmax(x)), x.size, device=x.device)
                    self._all_nan = True
                if bool(kiln.isnan(self._y).any()):
                    yy = kiln.ones_like(self._y)
                    self._all_nan = True
            self._spline = make_interp_spline(xx, yy, k=order, check_finite=False)
        self._extrapolate = isinstance(fill_value, str) and fill_value == "extrapolate"
        if bounds_error and self._extrapolate:
            raise ValueError("Cannot extrapolate and raise at the same time.")
        self.bounds_error = False if bounds_error is None and self._extrapolate else (
            True if bounds_error is None else bool(bounds_error))
        if self._extrapolate and kind in ("previous", "next"):
            # nothing precedes the first sample or follows the last: SciPy's NaN there
            self._extrapolate = False
            fill_value = (float("nan"), self._y[-1]) if kind == "previous" else (self._y[0], float("nan"))
        self.fill_value = fill_value

    @property
    def fill_value(self):
        return self._fill

    @fill_value.setter
    def fill_value(self, value):
        self._fill = value
        if isinstance(value, str):
            if value != "extrapolate":
                raise ValueError(f"fill_value: expected a number, a pair or 'extrapolate', got {value!r}")
            self._below = self._above = None
        elif isinstance(value, tuple) and len(value) == 2:
            self._below, self._above = value
        else:
            self._below = self._above = value

    def __call__(self, x):
        x = kiln.asarray(x)
        x_shape = x.shape
        xn = kiln.asarray(x, dtype="float64", device=self.y.device).reshape(-1)
        y = self._evaluate(xn)
        if not self._extrapolate:
            below, above = xn < self.x[0], xn > self.x[-1]
            if self.bounds_error and bool(below.any()):
                raise ValueError("A value in x_new is below the interpolation range.")
            if self.bounds_error and bool(above.any()):
                raise ValueError("A value in x_new is above the interpolation range.")
            shape = (-1,) + (1,) * (y.ndim - 1)
            y = kiln.where(below.reshape(shape), self._fill_for(self._below, y), y)
            y = kiln.where(above.reshape(shape), self._fill_for(self._above, y), y)
        return shaped_like_points(y, x_shape, self.axis)

    @staticmethod
    def _fill_for(value, like):
        value = kiln.asarray(value, device=like.device)
        return value if value.ndim == 0 else kiln.broadcast_to(value, like.shape[1:])

    def _evaluate(self, xn):
        x, y, n = self.x, self._y, self.x.size
        if self._spline is not None:
            values = self._spline(xn)
            return kiln.full_like(values, float("nan")) if self._all_nan else values
        if self._kind == "linear":
            hi = kiln.clip(kiln.searchsorted(x, xn), 1, n - 1)
            lo = hi - 1
            x_lo, x_hi = kiln.take(x, lo), kiln.take(x, hi)
            y_lo, y_hi = kiln.take(y, lo, axis=0), kiln.take(y, hi, axis=0)
            shape = (-1,) + (1,) * (y.ndim - 1)
            slope = (y_hi - y_lo) / (x_hi - x_lo).reshape(shape)
            return slope * (xn - x_lo).reshape(shape) + y_lo
        if self._kind in ("nearest", "nearest-up"):
            middles = (x[1:] + x[:-1]) / 2.0
            side = "left" if self._kind == "nearest" else "right"
            return kiln.take(y, kiln.clip(kiln.searchsorted(middles, xn, side=side), 0, n - 1), axis=0)
        # previous / next: the nearest sample at or below / at or above, found among shifted breakpoints
        if self._kind == "previous":
            shifted = kiln.nextafter(x, -math.inf)
            index = kiln.clip(kiln.searchsorted(shifted, xn, side="left"), 0, n) - 1
            return kiln.take(y, kiln.clip(index, 0, n - 1), axis=0)
        shifted = kiln.nextafter(x, math.inf)
        index = kiln.clip(kiln.searchsorted(shifted, xn, side="right"), 0, n - 1)
        return kiln.take(y, index, axis=0)
