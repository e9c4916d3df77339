"""Piecewise polynomials in the power (PPoly) and Bernstein (BPoly) bases,
with scipy.interpolate's interface. Evaluation, the work that grows with
the number of points, runs on the coefficients' device: each point's
interval by a binary search of the breakpoints, then the interval's
polynomial (Horner's rule, or the Bernstein sum); so do derivatives
(rising factorials of the power coefficients, differences of the Bernstein
ones). The rest of what works on the coefficients alone
(antiderivatives, integrals, roots, extension, conversions between bases)
is done by SciPy on the host: its cost grows with the number of
intervals, not of points."""
import math

import kiln

from .._host_arrays import device_of, to_host, to_kiln
from ._host import scipy_interpolate
from ._points import nan_where, shaped_like_points


def _inexact(c):
    """float64, or complex128 for complex coefficients (SciPy's rule)."""
    return c.astype("complex128" if c.dtype.kind == "c" else "float64")


class _PPolyBase:
    """What PPoly and BPoly share: the breakpoints x (m + 1, ascending or
    descending), the coefficients c (k, m, *trailing), the axis of the
    interpolated data, and extrapolation (True, False or 'periodic')."""

    __slots__ = ("c", "x", "extrapolate", "axis")

    def __init__(self, c, x, extrapolate=None, axis=0):
        c, x = kiln.asarray(c), kiln.asarray(x)
        x = kiln.asarray(x, dtype="float64", device=c.device)
        self.c, self.x = _inexact(c), x
        self.extrapolate = True if extrapolate is None else ("periodic" if extrapolate == "periodic" else
                                                             bool(extrapolate))
        if self.c.ndim < 2:
            raise ValueError("Coefficients array must be at least 2-dimensional.")
        if not 0 <= axis < self.c.ndim - 1:
            raise ValueError(f"axis={axis} must be between 0 and {self.c.ndim - 1}")
        self.axis = axis
        if axis != 0:  # the interval axis second, as SciPy keeps it
            self.c = kiln.moveaxis(self.c, axis + 1, 0)
            self.c = kiln.moveaxis(self.c, axis + 1, 0)
        if self.x.ndim != 1:
            raise ValueError("x must be 1-dimensional")
        if self.x.size < 2:
            raise ValueError("at least 2 breakpoints are needed")
        if self.c.ndim < 2:
            raise ValueError("c must have at least 2 dimensions")
        if self.c.shape[0] == 0:
            raise ValueError("polynomial must be at least of degree 0")
        if self.c.shape[1] != self.x.size - 1:
            raise ValueError("number of coefficients != len(x)-1")
        dx = kiln.diff(self.x)
        if not (bool((dx >= 0).all()) or bool((dx <= 0).all())):
            raise ValueError("`x` must be strictly increasing or decreasing.")

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis=0):
        """Without checks: c already with the interval axis second."""
        self = object.__new__(cls)
        self.c, self.x = c, x
        self.axis = axis
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    # -- between kiln and SciPy ------------------------------------------------------------
    def _scipy(self):
        """The same polynomial as SciPy's object, on the host."""
        return getattr(scipy_interpolate(), type(self)._scipy_name).construct_fast(
            to_host(self.c), to_host(self.x), self.extrapolate, self.axis)

    @classmethod
    def _from_scipy(cls, p, device):
        kind = PPoly if type(p).__name__ == "PPoly" else BPoly
        if issubclass(cls, kind):
            kind = cls if cls.__init__ is kind.__init__ else kind
        return kind.construct_fast(to_kiln(p.c, device), to_kiln(p.x, device), p.extrapolate, p.axis)

    # -- evaluation on the device -------------------------------------------------------------
    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        if nu < 0:
            return self.antiderivative(-nu)(x, extrapolate=extrapolate)
        if nu > 0:
            return self.derivative(nu)(x, extrapolate=extrapolate)
        x = kiln.asarray(x)
        xp = kiln.asarray(x, dtype="float64", device=self.c.device).reshape(-1)
        lo, hi = float(self.x[0]), float(self.x[-1])
        if extrapolate == "periodic":
            xp = lo + kiln.remainder(xp - lo, hi - lo)
            extrapolate = False
        descending = hi < lo
        key, points = (-self.x, -xp) if descending else (self.x, xp)
        intervals = kiln.clip(kiln.searchsorted(key, points, side="right") - 1, 0, self.x.size - 2)
        local = self._local(kiln.take(self.c, intervals, axis=1), xp, intervals)
        if not extrapolate:
            local = nan_where((xp < min(lo, hi)) | (xp > max(lo, hi)), local)
        return shaped_like_points(local, x.shape, self.axis)

    # -- what works on the coefficients: SciPy's, on the host ------------------------------------
    def _on_host(self, method, *args, **kwargs):
        return getattr(self._scipy(), method)(*to_host(args), **to_host(kwargs))

    def antiderivative(self, nu=1):
        """The nu-th antiderivative that is 0 at x[0] with every derivative
        below nu continuous: nu times the one-step antiderivative."""
        if nu < 0:
            return self.derivative(-nu)
        p = self
        for _ in range(nu):
            p = p._antiderivative_once()
        if nu and self.extrapolate == "periodic":
            p.extrapolate = False
        return p

    def integrate(self, a, b, extrapolate=None):
        """The definite integral from a to b, of every trailing component."""
        if extrapolate is None:
            extrapolate = self.extrapolate
        ib = self.antiderivative()
        if extrapolate != "periodic":
            ib.extrapolate = extrapolate
            return ib(b) - ib(a)
        sign = 1
        if b < a:
            a, b, sign = b, a, -1
        xs, xe = float(self.x[0]), float(self.x[-1])
        if xe < xs:
            raise ValueError("Integral bounds not in order")
        period = xe - xs
        periods, left = divmod(b - a, period)
        result = periods * (ib(xe) - ib(xs))
        a = xs + (a - xs) % period
        b = a + left
        if b <= xe:
            result = result + ib(b) - ib(a)
        else:
            result = result + ib(xe) - ib(a) + ib(xs + left + a - xe) - ib(xs)
        return sign * result

    def extend(self, c, x):
        """Adds intervals to the right or left (in place, as SciPy's)."""
        p = self._scipy()
        p.extend(to_host(kiln.asarray(c)), to_host(kiln.asarray(x)))
        self.c, self.x = to_kiln(p.c, self.c.device), to_kiln(p.x, self.c.device)


class PPoly(_PPolyBase):
    """A piecewise polynomial in the power basis: on [x[i], x[i+1]],
    sum over m of c[m, i] * (xp - x[i]) ** (k - 1 - m)."""

    _scipy_name = "PPoly"

    def derivative(self, nu=1):
        """The nu-th derivative: row j of the power coefficients times the
        rising factorial of its power, the last nu rows dropped."""
        if nu < 0:
            return self.antiderivative(-nu)
        rows = self.c.shape[0] - nu
        if rows <= 0:
            c = kiln.zeros((1,) + self.c.shape[1:], dtype=self.c.dtype, device=self.c.device)
        else:
            factors = [math.prod(range(rows - j, rows - j + nu)) for j in range(rows)]
            c = self.c[:rows] * kiln.asarray(factors, dtype="float64", device=self.c.device).reshape(
                (rows,) + (1,) * (self.c.ndim - 1))
        return type(self).construct_fast(c, self.x, self.extrapolate, self.axis)

    def _antiderivative_once(self):
        """Each power divided by its new exponent, then the constants that
        join the intervals: the running sum of the intervals' integrals."""
        k = self.c.shape[0]
        exponents = kiln.arange(k, 0, -1, dtype="float64", device=self.c.device).reshape((k,) + (1,) * (self.c.ndim - 1))
        raised = self.c / exponents
        lengths = kiln.diff(self.x).reshape((-1,) + (1,) * (self.c.ndim - 2))
        across = 0  # each interval's integral, by Horner's rule at its length
        for row in range(k):
            across = (across + raised[row]) * lengths
        constants = kiln.cumsum(across, axis=0) - across
        c = kiln.concatenate([raised, constants[None]], axis=0)
        return type(self).construct_fast(c, self.x, self.extrapolate, self.axis)

    def _local(self, cc, xp, intervals):
        s = xp - kiln.take(self.x, intervals)
        s = s.reshape(s.shape + (1,) * (cc.ndim - 2))
        value = cc[0]
        for row in range(1, cc.shape[0]):  # Horner's rule
            value = value * s + cc[row]
        return value

    def roots(self, discontinuity=True, extrapolate=None):
        return self.solve(0, discontinuity, extrapolate)

    def solve(self, y=0.0, discontinuity=True, extrapolate=None):
        return to_kiln(self._on_host("solve", y, discontinuity, extrapolate), self.c.device)

    @classmethod
    def from_spline(cls, tck, extrapolate=None):
        device = device_of(tck)
        return cls._from_scipy(scipy_interpolate().PPoly.from_spline(to_host(tck), extrapolate), device)

    @classmethod
    def from_bernstein_basis(cls, bp, extrapolate=None):
        if not isinstance(bp, BPoly):
            raise TypeError(f".from_bernstein_basis only accepts BPoly instances. Got {type(bp)} instead.")
        return cls._from_scipy(scipy_interpolate().PPoly.from_bernstein_basis(bp._scipy(), extrapolate),
                               bp.c.device)


class BPoly(_PPolyBase):
    """A piecewise polynomial in the Bernstein basis: on [x[i], x[i+1]],
    sum over a of c[a, i] * b(a, k-1; t), t = (xp - x[i]) / (x[i+1] - x[i])."""

    _scipy_name = "BPoly"

    def derivative(self, nu=1):
        """The nu-th derivative: k (c[a+1] - c[a]) / (interval length), nu times."""
        if nu < 0:
            return self.antiderivative(-nu)
        c = self.c
        for _ in range(nu):
            k = c.shape[0] - 1
            if k == 0:
                c = kiln.zeros((1,) + c.shape[1:], dtype=c.dtype, device=c.device)
                break
            lengths = kiln.diff(self.x).reshape((1, -1) + (1,) * (c.ndim - 2))
            c = k * kiln.diff(c, axis=0) / lengths
        return type(self).construct_fast(c, self.x, self.extrapolate, self.axis)

    def _antiderivative_once(self):
        """The Bernstein coefficients' running sums over the degree, scaled by
        the interval lengths, plus the jumps that make the result continuous
        (the last coefficient of each earlier interval, summed)."""
        k = self.c.shape[0]
        lengths = kiln.diff(self.x).reshape((1, -1) + (1,) * (self.c.ndim - 2))
        c = kiln.concatenate([kiln.zeros((1,) + self.c.shape[1:], dtype=self.c.dtype, device=self.c.device),
                              kiln.cumsum(self.c, axis=0) / k], axis=0) * lengths
        jumps = kiln.cumsum(c[k], axis=0) - c[k]
        c = c + jumps[None]
        return type(self).construct_fast(c, self.x, self.extrapolate, self.axis)

    def _local(self, cc, xp, intervals):
        left = kiln.take(self.x, intervals)
        t = (xp - left) / (kiln.take(self.x, intervals + 1) - left)
        t = t.reshape(t.shape + (1,) * (cc.ndim - 2))
        k = cc.shape[0] - 1
        value = 0
        for a in range(k + 1):
            value = value + cc[a] * (math.comb(k, a) * t ** a * (1 - t) ** (k - a))
        return value

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        if not isinstance(pp, PPoly):
            raise TypeError(f".from_power_basis only accepts PPoly instances. Got {type(pp)} instead.")
        return cls._from_scipy(scipy_interpolate().BPoly.from_power_basis(pp._scipy(), extrapolate), pp.c.device)

    @classmethod
    def from_derivatives(cls, xi, yi, orders=None, extrapolate=None):
        device = device_of((xi, yi))
        return cls._from_scipy(scipy_interpolate().BPoly.from_derivatives(
            to_host(xi), to_host(yi), orders, extrapolate), device)
