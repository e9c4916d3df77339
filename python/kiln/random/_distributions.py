"""NumPy's distributions, built from kiln's uniform, normal and exponential
draws with elementwise operations, so they run on every device and give the
same numbers on each for the same seed.

Samplers are chosen for wide hardware: transformations of uniforms where one
exists (logistic, Gumbel, Laplace, Weibull, Wald by Michael, Schucany and
Haas, logseries by Kemp). Where the best method rejects (gamma by Marsaglia
and Tsang, Poisson by Hormann's PTRS, binomial by Hormann's BTRS, von Mises
by Best and Fisher, Zipf by Devroye), every element draws at once and only
the rejected ones draw again, each round one call over all of them, so no
thread waits on another's loop; these methods accept above 90%, so few
rounds run. Parameters broadcast against each other and ``size`` as NumPy's do."""
import math
import operator

from .. import _core
from .._numpy import creation as _creation
from .._ndarray.dtypes import normalize


def _np():
    import numpy

    return numpy


def _size_shape(size):
    if size is None:
        return None
    if isinstance(size, (int,)) or hasattr(size, "__index__"):
        return (operator.index(size),)
    return tuple(operator.index(n) for n in size)


class Distributions:
    """The distributions of NumPy's Generator and RandomState, for a class
    that offers ``random(size)``, ``standard_normal(size)``,
    ``standard_exponential(size)`` and ``_device_for()``."""

    # --- helpers ------------------------------------------------------------------------------
    def _params(self, size, *params):
        """The parameters as float64 kiln arrays broadcast to the output shape
        (``size``, or the parameters' broadcast shape), and that shape."""
        device = self._device_for()
        arrays = [_creation.asarray(p, device=device) for p in params]
        arrays = [a.astype("float64") if a.dtype.kind != "f" or a.dtype.name != "float64" else a for a in arrays]
        shape = _size_shape(size)
        broadcast = _np().broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
        if shape is None:
            shape = broadcast
        else:
            try:
                fits = _np().broadcast_shapes(broadcast, shape) == shape
            except ValueError:
                fits = False
            if not fits:
                raise ValueError(f"size: shape {shape} does not fit the parameters' shape {broadcast}")
        from .._numpy.manipulation.shape import broadcast_to

        return [broadcast_to(a, shape) for a in arrays], shape

    def _u(self, shape):
        """Uniforms in (0, 1): never 0, so that logarithms stay finite."""
        u = self.random(shape)
        return _core._where(u == 0, 2.0 ** -54, u)

    def _by_rounds(self, shape, propose, *params):
        """Rejection sampling, all elements at once: ``propose(*params_subset)``
        returns (candidates, accepted) for the elements still pending."""
        from .._numpy.manipulation.shape import broadcast_to

        size = math.prod(shape)
        flat_params = [broadcast_to(p, shape).reshape(-1) for p in params]
        out = _core._empty((size,), "float64", self._device_for())
        pending = _creation.arange(size, device=self._device_for())
        while pending.size:
            subset = [p[pending] for p in flat_params]
            candidates, accepted = propose(*subset)
            done = pending[accepted]
            out[done] = candidates[accepted]
            pending = pending[~accepted]
        return out.reshape(shape)

    def _check(self, condition, message):
        if condition.size and bool(_core.any(condition)):
            raise ValueError(message)

    # --- continuous -----------------------------------------------------------------------------
    def standard_gamma(self, shape, size=None, dtype="float64", out=None):
        """Marsaglia and Tsang's method; shape < 1 by boosting to shape + 1."""
        (k,), out_shape = self._params(size, shape)
        self._check(k < 0, "shape < 0")
        boosted = _core._where(k < 1, k + 1, k)
        d = boosted - 1.0 / 3.0
        c = 1.0 / _core.sqrt(9.0 * d)

        def propose(d, c):
            x = self.standard_normal(d.shape)
            v = (1.0 + c * x)
            v = v * v * v
            u = self._u(d.shape)
            ok = (v > 0) & (_core.log(u) < 0.5 * x * x + d - d * v + d * _core.log(_core._where(v > 0, v, 1.0)))
            return d * v, ok

        g = self._by_rounds(out_shape, propose, d, c)
        g = _core._where(k < 1, g * _core.power(self._u(out_shape), 1.0 / _core._where(k > 0, k, 1.0)), g)
        g = _core._where(k == 0, 0.0, g)
        return _finish(g, dtype, out)

    def gamma(self, shape, scale=1.0, size=None, dtype="float64"):
        (k, theta), out_shape = self._params(size, shape, scale)
        self._check(theta < 0, "scale < 0")
        return _finish(self.standard_gamma(k, out_shape) * theta, dtype)

    def beta(self, a, b, size=None, dtype="float64"):
        (a, b), shape = self._params(size, a, b)
        self._check((a <= 0) | (b <= 0), "a <= 0 or b <= 0")
        x, y = self.standard_gamma(a, shape), self.standard_gamma(b, shape)
        return _finish(x / (x + y), dtype)

    def chisquare(self, df, size=None, dtype="float64"):
        (df,), shape = self._params(size, df)
        self._check(df <= 0, "df <= 0")
        return _finish(2.0 * self.standard_gamma(df / 2.0, shape), dtype)

    def f(self, dfnum, dfden, size=None, dtype="float64"):
        (n, d), shape = self._params(size, dfnum, dfden)
        self._check((n <= 0) | (d <= 0), "dfnum <= 0 or dfden <= 0")
        return _finish((self.chisquare(n, shape) / n) / (self.chisquare(d, shape) / d), dtype)

    def standard_t(self, df, size=None, dtype="float64"):
        (df,), shape = self._params(size, df)
        self._check(df <= 0, "df <= 0")
        return _finish(self.standard_normal(shape) / _core.sqrt(self.chisquare(df, shape) / df), dtype)

    def standard_cauchy(self, size=None, dtype="float64"):
        shape = _size_shape(size) or ()
        return _finish(self.standard_normal(shape) / self.standard_normal(shape), dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, dtype="float64"):
        (mu, sigma), shape = self._params(size, mean, sigma)
        self._check(sigma < 0, "sigma < 0")
        return _finish(_core.exp(mu + sigma * self.standard_normal(shape)), dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        (loc, scale), shape = self._params(size, loc, scale)
        self._check(scale < 0, "scale < 0")
        u = self._u(shape) - 0.5
        return _finish(loc - scale * _core.sign(u) * _core.log1p(-2.0 * _core.abs(u)), dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        (loc, scale), shape = self._params(size, loc, scale)
        self._check(scale < 0, "scale < 0")
        u = self._u(shape)
        return _finish(loc + scale * _core.log(u / (1.0 - u)), dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        (loc, scale), shape = self._params(size, loc, scale)
        self._check(scale < 0, "scale < 0")
        return _finish(loc - scale * _core.log(-_core.log(self._u(shape))), dtype)

    def rayleigh(self, scale=1.0, size=None, dtype="float64"):
        (scale,), shape = self._params(size, scale)
        self._check(scale < 0, "scale < 0")
        return _finish(scale * _core.sqrt(2.0 * self.standard_exponential(shape)), dtype)

    def weibull(self, a, size=None, dtype="float64"):
        (a,), shape = self._params(size, a)
        self._check(a < 0, "a < 0")
        e = self.standard_exponential(shape)
        return _finish(_core._where(a == 0, 0.0, _core.power(e, 1.0 / _core._where(a == 0, 1.0, a))), dtype)

    def pareto(self, a, size=None, dtype="float64"):
        """The Lomax (Pareto II) distribution, as NumPy's pareto."""
        (a,), shape = self._params(size, a)
        self._check(a <= 0, "a <= 0")
        return _finish(_core.expm1(self.standard_exponential(shape) / a), dtype)

    def power(self, a, size=None, dtype="float64"):
        (a,), shape = self._params(size, a)
        self._check(a <= 0, "a <= 0")
        return _finish(_core.power(-_core.expm1(-self.standard_exponential(shape)), 1.0 / a), dtype)

    def triangular(self, left, mode, right, size=None, dtype="float64"):
        (left, mode, right), shape = self._params(size, left, mode, right)
        self._check(left > mode, "left > mode")
        self._check(mode > right, "mode > right")
        self._check(left == right, "left == right")
        u = self.random(shape)
        base, left_part = right - left, mode - left
        cut = left_part / base
        lower = left + _core.sqrt(u * base * left_part)
        upper = right - _core.sqrt((1.0 - u) * base * (right - mode))
        return _finish(_core._where(u <= cut, lower, upper), dtype)

    def wald(self, mean, scale, size=None, dtype="float64"):
        """Michael, Schucany and Haas's transformation of one normal and one uniform."""
        (mu, lam), shape = self._params(size, mean, scale)
        self._check(mu <= 0, "mean <= 0")
        self._check(lam <= 0, "scale <= 0")
        y = self.standard_normal(shape)
        y = mu * y * y
        x = mu + (mu * y - mu * _core.sqrt(4.0 * lam * y + y * y)) / (2.0 * lam)
        u = self.random(shape)
        return _finish(_core._where(u <= mu / (mu + x), x, mu * mu / x), dtype)

    def vonmises(self, mu, kappa, size=None, dtype="float64"):
        """Best and Fisher's method (a uniform angle for tiny kappa)."""
        (mu, kappa), shape = self._params(size, mu, kappa)
        self._check(kappa < 0, "kappa < 0")
        tiny = kappa < 1e-8
        safe_kappa = _core._where(tiny, 1.0, kappa)
        tau = 1.0 + _core.sqrt(1.0 + 4.0 * safe_kappa * safe_kappa)
        rho = (tau - _core.sqrt(2.0 * tau)) / (2.0 * safe_kappa)
        r = (1.0 + rho * rho) / (2.0 * rho)

        def propose(r, k):
            u1, u2 = self._u(r.shape), self._u(r.shape)
            z = _core.cos(math.pi * u1)
            w = (1.0 + r * z) / (r + z)
            c = k * (r - w)
            ok = (c * (2.0 - c) - u2 > 0) | (_core.log(c / u2) + 1.0 - c >= 0)
            return w, ok

        w = self._by_rounds(shape, propose, r, safe_kappa)
        u3 = self.random(shape)
        angle = _core._where(u3 > 0.5, 1.0, -1.0) * _core.acos(_core._clip(w, -1.0, 1.0))
        angle = _core._where(tiny, math.pi * (2.0 * self.random(shape) - 1.0), angle)
        result = _core.remainder(angle + mu + math.pi, 2.0 * math.pi) - math.pi
        return _finish(result, dtype)

    def noncentral_chisquare(self, df, nonc, size=None, dtype="float64"):
        (df, nonc), shape = self._params(size, df, nonc)
        self._check(df <= 0, "df <= 0")
        self._check(nonc < 0, "nonc < 0")
        z = self.standard_normal(shape) + _core.sqrt(nonc)
        above_one = self.chisquare(_core._where(df > 1, df - 1, 1.0), shape) + z * z
        mixed = self.chisquare(df + 2.0 * self.poisson(nonc / 2.0, shape).astype("float64"), shape)
        central = self.chisquare(df, shape)
        return _finish(_core._where(nonc == 0, central, _core._where(df > 1, above_one, mixed)), dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, dtype="float64"):
        (n, d, nonc), shape = self._params(size, dfnum, dfden, nonc)
        self._check((n <= 0) | (d <= 0), "dfnum <= 0 or dfden <= 0")
        self._check(nonc < 0, "nonc < 0")
        return _finish((self.noncentral_chisquare(n, nonc, shape) * d) / (self.chisquare(d, shape) * n), dtype)

    def dirichlet(self, alpha, size=None):
        alpha = _creation.asarray(alpha, device=self._device_for()).astype("float64")
        if alpha.ndim != 1:
            raise ValueError("alpha: must be one-dimensional")
        self._check(alpha <= 0, "alpha <= 0")
        shape = (_size_shape(size) or ()) + alpha.shape
        from .._numpy.manipulation.shape import broadcast_to

        g = self.standard_gamma(broadcast_to(alpha, shape), shape)
        return g / _core.sum(g, axis=-1, keepdims=True)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd",
                            dtype="float64"):
        """``mean + z @ A`` with ``A`` from the SVD (or the Cholesky or
        eigen decomposition) of ``cov``, as NumPy's."""
        from .. import linalg

        device = self._device_for()
        mean = _creation.asarray(mean, device=device).astype("float64")
        cov = _creation.asarray(cov, device=device).astype("float64")
        if mean.ndim != 1 or cov.ndim != 2 or cov.shape != (mean.shape[0], mean.shape[0]):
            raise ValueError("mean must be 1 dimensional and cov 2 dimensional and square, of the mean's length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        shape = (_size_shape(size) or ()) + mean.shape
        z = self.standard_normal(shape)
        if method == "cholesky":
            factor = linalg.cholesky(cov).T
        elif method in ("svd", "eigh"):
            if method == "svd":
                u, s, vh = linalg.svd(cov)
                factor = vh * _core.sqrt(s).reshape(-1, 1)
                psd = bool(_core.all(_core.abs((vh.T * s) @ vh - cov) <= tol + tol * _core.abs(cov)))
            else:
                s, v = linalg.eigh(cov)
                psd = bool(_core.all(s >= -tol))
                factor = v.T * _core.sqrt(_core.abs(s)).reshape(-1, 1)
            if not psd and check_valid != "ignore":
                if check_valid == "raise":
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
                import warnings

                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
        else:
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        return _finish(mean + z @ factor, dtype)

    # --- discrete -------------------------------------------------------------------------------
    def poisson(self, lam=1.0, size=None, dtype="int64"):
        """Counting exponential arrivals for lam < 10; Hormann's PTRS above."""
        (lam,), shape = self._params(size, lam)
        self._check(lam < 0, "lam < 0")
        self._check(lam > 9.2e18, "lam value too large")
        small = lam < 10
        # Small means: the number of arrivals of a unit-rate process before lam.
        small_lam = _core._where(small, lam, 0.0)
        count = _core._full(shape, 0, "int64", self._device_for())
        time = self.standard_exponential(shape)
        while True:
            arriving = time <= small_lam
            if not bool(_core.any(arriving)):
                break
            count = count + arriving.astype("int64")
            time = time + _core._where(arriving, self.standard_exponential(shape), 0.0)

        large_lam = _core._where(small, 10.0, lam)
        slam = _core.sqrt(large_lam)
        loglam = _core.log(large_lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)

        def propose(lam, slam, loglam, b, a, invalpha, vr):
            u = self.random(lam.shape) - 0.5
            v = self._u(lam.shape)
            us = 0.5 - _core.abs(u)
            k = _core.floor((2 * a / _core._where(us > 0, us, 1e-300) + b) * u + lam + 0.43)
            quick = (us >= 0.07) & (v <= vr)
            rejected = (k < 0) | ((us < 0.013) & (v > us))
            accepted = ~rejected & (_core.log(v) + _core.log(invalpha) - _core.log(a / (us * us) + b)
                                    <= -lam + k * loglam - _lgamma(_core.maximum(k, 0.0) + 1))
            return k, quick | accepted

        large = self._by_rounds(shape, propose, large_lam, slam, loglam, b, a, invalpha, vr)
        result = _core._where(small, count.astype("float64"), large)
        return result.astype(dtype)

    def binomial(self, n, p, size=None, dtype="int64"):
        """Inversion by geometric waiting times where n*min(p, 1-p) < 10,
        Hormann's BTRS above."""
        (n, p), shape = self._params(size, n, p)
        self._check(n < 0, "n < 0")
        self._check((p < 0) | (p > 1) | _core.isnan(p), "p < 0, p > 1 or p is NaN")
        flip = p > 0.5
        q = _core._where(flip, 1.0 - p, p)
        small = n * q < 10
        # Small: count successes by geometric jumps between them.
        sq = _core._where(small & (q > 0), q, 0.5)
        log_q = _core.log1p(-sq)
        position = _core._full(shape, 0.0, "float64", self._device_for())
        count = _core._full(shape, 0.0, "float64", self._device_for())
        limit = _core._where(small & (q > 0), n, 0.0)
        while True:
            position = position + _core.floor(_core.log(self._u(shape)) / log_q) + 1
            inside = position <= limit
            if not bool(_core.any(inside)):
                break
            count = count + inside.astype("float64")
            limit = _core._where(inside, limit, 0.0)
        # Large: BTRS.
        ln = _core._where(small, 100.0, n)
        lp = _core._where(small, 0.5, q)
        spq = _core.sqrt(ln * lp * (1 - lp))
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * lp
        c = ln * lp + 0.5
        alpha = (2.83 + 5.1 / b) * spq
        vr = 0.92 - 4.2 / b
        m = _core.floor((ln + 1) * lp)
        lpq = _core.log(lp / (1 - lp))
        h = _lgamma(m + 1) + _lgamma(ln - m + 1)

        def propose(n, p, b, a, c, alpha, vr, lpq, m, h):
            u = self.random(n.shape) - 0.5
            v = self._u(n.shape)
            us = 0.5 - _core.abs(u)
            k = _core.floor((2 * a / _core._where(us > 0, us, 1e-300) + b) * u + c)
            valid = (k >= 0) & (k <= n)
            quick = valid & (us >= 0.07) & (v <= vr)
            vv = _core.log(v * alpha / (a / (us * us) + b))
            slow = valid & (vv <= h - _lgamma(k + 1) - _lgamma(n - k + 1) + (k - m) * lpq)
            return k, quick | slow

        large = self._by_rounds(shape, propose, ln, lp, b, a, c, alpha, vr, lpq, m, h)
        result = _core._where(small, count, large)
        result = _core._where(flip, n - result, result)
        return result.astype(dtype)

    def negative_binomial(self, n, p, size=None, dtype="int64"):
        (n, p), shape = self._params(size, n, p)
        self._check(n <= 0, "n <= 0")
        self._check((p <= 0) | (p > 1), "p <= 0 or p > 1")
        y = self.standard_gamma(n, shape) * ((1 - p) / p)
        return self.poisson(y, shape, dtype)

    def geometric(self, p, size=None, dtype="int64"):
        (p,), shape = self._params(size, p)
        self._check((p <= 0) | (p > 1), "p <= 0 or p > 1")
        result = _core.ceil(-self.standard_exponential(shape) / _core.log1p(-_core._where(p >= 1, 0.5, p)))
        return _core._where(p >= 1, 1.0, _core.maximum(result, 1.0)).astype(dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, dtype="int64"):
        """Draws without replacement one at a time (all elements at once)."""
        (good, bad, sample), shape = self._params(size, ngood, nbad, nsample)
        self._check((good < 0) | (bad < 0), "ngood < 0 or nbad < 0")
        self._check((sample < 1) | (sample > good + bad), "nsample < 1 or nsample > ngood + nbad")
        drawn = _core._full(shape, 0.0, "float64", self._device_for())
        steps = int(_core.max(sample)) if sample.size else 0
        good_left, total_left = good, good + bad
        for step in range(steps):
            active = sample > step
            pick_good = self.random(shape) * total_left < good_left
            take = active & pick_good
            drawn = drawn + take.astype("float64")
            good_left = good_left - take.astype("float64")
            total_left = total_left - active.astype("float64")
        return drawn.astype(dtype)

    def logseries(self, p, size=None, dtype="int64"):
        """Kemp's second algorithm: two uniforms per draw."""
        (p,), shape = self._params(size, p)
        self._check((p < 0) | (p >= 1) | _core.isnan(p), "p < 0, p >= 1 or p is nan")
        r = _core.log1p(-p)
        v = self.random(shape)
        u = self.random(shape)
        q = -_core.expm1(r * u)
        safe_q = _core._where((q > 0) & (q < 1), q, 0.5)
        from_log = _core.floor(1 + _core.log(_core._where(v > 0, v, 1e-300)) / _core.log(safe_q))
        result = _core._where(v >= p, 1.0, _core._where(v <= q * q, _core.maximum(from_log, 1.0),
                                                        _core._where(v >= q, 1.0, 2.0)))
        return _core._where(p == 0, 1.0, result).astype(dtype)

    def zipf(self, a, size=None, dtype="int64"):
        """Devroye's rejection method."""
        (a,), shape = self._params(size, a)
        self._check((a <= 1) | _core.isnan(a), "a <= 1 or a is NaN")
        am1 = a - 1.0
        b = _core.power(2.0, am1)

        def propose(a, am1, b):
            u = 1.0 - self.random(a.shape)
            v = self.random(a.shape)
            x = _core.floor(_core.power(u, -1.0 / am1))
            big = (x > 9.2e18) | (x < 1)
            t = _core.power(1.0 + 1.0 / _core._where(big, 1.0, x), am1)
            ok = ~big & (v * x * (t - 1.0) / (b - 1.0) <= t / b)
            return x, ok

        return self._by_rounds(shape, propose, a, am1, b).astype(dtype)

    def multinomial(self, n, pvals, size=None):
        """Counts in each category: binomials of what is left, one category at a time."""
        device = self._device_for()
        p = _np().asarray(pvals.get() if isinstance(pvals, _core.ndarray) else pvals, dtype="float64")
        if p.ndim != 1:
            raise ValueError("pvals: must be one-dimensional")
        if (p < 0).any() or (p > 1).any() or _np().isnan(p).any():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if p[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        shape = _size_shape(size) or ()
        (n,), _ = self._params(shape, n)
        left = n
        remaining_p = 1.0
        columns = []
        for k, pk in enumerate(p.tolist()):
            if k == len(p) - 1:
                columns.append(left)
                break
            ratio = min(max(pk / remaining_p, 0.0), 1.0) if remaining_p > 0 else 0.0
            count = self.binomial(left, ratio, shape).astype("float64")
            columns.append(count)
            left = left - count
            remaining_p -= pk
        from .._numpy.manipulation.joining import stack

        return stack([c.astype("int64") for c in columns], axis=-1) if columns else _core._empty(
            shape + (0,), "int64", device)

    def bytes(self, length):
        """``length`` random bytes."""
        bits = self.integers(0, 256, operator.index(length), dtype="uint8") if hasattr(self, "integers") else \
            self.randint(0, 256, operator.index(length), dtype="uint8")
        return bits.get().tobytes()


def _lgamma(x):
    """log(Gamma(x)) for x >= 1 (Stirling's series; exact enough beyond 7,
    and shifted up by the recurrence below it)."""
    shift = _core._where(x < 7, 7.0 - _core.floor(x), 0.0)
    y = x + shift
    correction = 1.0 / (12.0 * y) - 1.0 / (360.0 * y * y * y) + 1.0 / (1260.0 * y ** 5)
    result = (y - 0.5) * _core.log(y) - y + 0.5 * math.log(2 * math.pi) + correction
    # Undo the shift: lgamma(x) = lgamma(x + s) - log(x (x+1) ... (x+s-1)).
    product = _core._full(x.shape, 1.0, "float64", x.device)
    for j in range(7):
        product = product * _core._where(shift > j, x + j, 1.0)
    return result - _core.log(product)


def _finish(values, dtype, out=None):
    dt = normalize(dtype)
    if dt.kind not in "fiu":
        raise TypeError(f"dtype: {dt.name} is not supported for this distribution")
    result = values.astype(dt, copy=False)
    if out is not None:
        out[...] = result
        return out
    return result



# The distributions' names (kiln.random offers each as a module-level function too).
DISTRIBUTIONS = [name for name in vars(Distributions) if not name.startswith("_")]
