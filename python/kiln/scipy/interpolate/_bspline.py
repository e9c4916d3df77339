"""B-splines with scipy.interpolate's interface. A BSpline evaluates on its
coefficients' device: each point's knot interval by a binary search, then
the k + 1 nonzero basis functions (or their derivatives) by de Boor's
recursion, vectorised over the points, and their sum with the interval's
coefficients. Fitting (make_interp_spline, make_lsq_spline,
make_smoothing_spline: banded solves over the data) and the operations on
coefficients (derivative, antiderivative, integrate, knot insertion) are
SciPy's, on the host."""
import kiln

from .._host_arrays import device_of, to_host, to_kiln
from ._host import scipy_interpolate
from ._points import nan_where, shaped_like_points


class BSpline:
    """sum over j of c[j] * B(j, k; x) on the knots t (len(t) = len(c) + k + 1)."""

    def __init__(self, t, c, k, extrapolate=True, axis=0):
        device = device_of((c, t))
        reference = scipy_interpolate().BSpline(to_host(kiln.asarray(t)), to_host(kiln.asarray(c)), k,
                                                extrapolate, axis)  # SciPy's checks and normalisation
        self._take(reference, device)

    def _take(self, b, device):
        self.t, self.c = to_kiln(b.t, device), to_kiln(b.c, device)
        self.k, self.extrapolate, self.axis = int(b.k), b.extrapolate, b.axis

    @classmethod
    def construct_fast(cls, t, c, k, extrapolate=True, axis=0):
        self = object.__new__(cls)
        self.t, self.c, self.k, self.extrapolate, self.axis = t, c, k, extrapolate, axis
        return self

    @property
    def tck(self):
        return self.t, self.c, self.k

    def _scipy(self):
        return scipy_interpolate().BSpline.construct_fast(to_host(self.t), to_host(self.c), self.k,
                                                          self.extrapolate, self.axis)

    @classmethod
    def _from_scipy(cls, b, device):
        self = object.__new__(cls)
        self._take(b, device)
        return self

    @classmethod
    def basis_element(cls, t, extrapolate=True):
        return cls._from_scipy(scipy_interpolate().BSpline.basis_element(to_host(t), extrapolate), device_of(t))

    @classmethod
    def design_matrix(cls, x, t, k, extrapolate=False):
        from ..sparse import csr_matrix

        m = scipy_interpolate().BSpline.design_matrix(to_host(x), to_host(t), k, extrapolate).tocsr()
        device = device_of((x, t))
        return csr_matrix((to_kiln(m.data, device), to_kiln(m.indices, device), to_kiln(m.indptr, device)),
                          shape=m.shape)

    @classmethod
    def from_power_basis(cls, pp, bc_type="not-a-knot"):
        return cls._from_scipy(scipy_interpolate().BSpline.from_power_basis(pp._scipy(), bc_type), pp.c.device)

    # -- evaluation on the device ------------------------------------------------------------
    def __call__(self, x, nu=0, extrapolate=None):
        if extrapolate is None:
            extrapolate = self.extrapolate
        x = kiln.asarray(x)
        xp = kiln.asarray(x, dtype="float64", device=self.c.device).reshape(-1)
        t, k = self.t, self.k
        n = t.size - k - 1
        lo, hi = float(t[k]), float(t[n])
        if extrapolate == "periodic":
            xp = lo + kiln.remainder(xp - lo, hi - lo)
            extrapolate = False
        out = self._evaluate(xp, nu)
        if not extrapolate:
            out = nan_where((xp < lo) | (xp > hi), out)
        return shaped_like_points(out, x.shape, self.axis)

    def _evaluate(self, xp, nu):
        t, k = self.t, self.k
        n = t.size - k - 1
        left = kiln.clip(kiln.searchsorted(t, xp, side="right") - 1, k, n - 1)
        h = [kiln.ones(xp.shape, dtype="float64", device=xp.device)]
        for j in range(1, k + 1):  # de Boor: degree j from degree j - 1; the last nu steps differentiate
            derivative = j > k - nu
            previous, h = h, [kiln.zeros(xp.shape, dtype="float64", device=xp.device)] + [None] * j
            for m in range(1, j + 1):
                xb, xa = kiln.take(t, left + m), kiln.take(t, left + m - j)
                span = xb - xa
                w = kiln.where(span == 0, 0.0, previous[m - 1] / kiln.where(span == 0, 1.0, span))
                if derivative:
                    h[m - 1] = h[m - 1] - j * w
                    h[m] = j * w
                else:
                    h[m - 1] = h[m - 1] + w * (xb - xp)
                    h[m] = w * (xp - xa)
        if nu > k:
            h = [kiln.zeros(xp.shape, dtype="float64", device=xp.device)] * (k + 1)
        c = self.c.astype("complex128" if self.c.dtype.kind == "c" else "float64")
        out = 0
        for a in range(k + 1):
            weight = h[a].reshape(h[a].shape + (1,) * (c.ndim - 1))
            out = out + kiln.take(c, left - k + a, axis=0) * weight
        if isinstance(out, int):  # no coefficients at all
            out = kiln.zeros(xp.shape + c.shape[1:], dtype=c.dtype, device=xp.device)
        return out

    # -- on the coefficients: SciPy's, on the host --------------------------------------------------
    def derivative(self, nu=1):
        return self._from_scipy(self._scipy().derivative(nu), self.c.device)

    def antiderivative(self, nu=1):
        return self._from_scipy(self._scipy().antiderivative(nu), self.c.device)

    def integrate(self, a, b, extrapolate=None):
        return to_kiln(self._scipy().integrate(to_host(a), to_host(b), extrapolate), self.c.device)

    def insert_knot(self, x, m=1):
        return self._from_scipy(self._scipy().insert_knot(to_host(x), m), self.c.device)


def _fitted(name):
    def fit(x, y, *args, **kwargs):
        device = device_of((x, y))
        return BSpline._from_scipy(getattr(scipy_interpolate(), name)(to_host(x), to_host(y), *to_host(args),
                                                                      **to_host(kwargs)), device)

    fit.__name__ = name
    fit.__doc__ = f"scipy.interpolate.{name}, fitted on the host; a kiln BSpline on the data's device."
    return fit


make_interp_spline = _fitted("make_interp_spline")
make_lsq_spline = _fitted("make_lsq_spline")
make_smoothing_spline = _fitted("make_smoothing_spline")


def splder(tck, n=1):
    if isinstance(tck, BSpline):
        return tck.derivative(n)
    return to_kiln(scipy_interpolate().splder(to_host(tck), n), device_of(tck))


def splantider(tck, n=1):
    if isinstance(tck, BSpline):
        return tck.antiderivative(n)
    return to_kiln(scipy_interpolate().splantider(to_host(tck), n), device_of(tck))
