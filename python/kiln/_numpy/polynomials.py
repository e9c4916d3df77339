"""NumPy's classic polynomial API (coefficients highest power first):
poly1d, polyval, polyadd, polysub, polymul, polydiv, polyder, polyint,
polyfit, poly, roots. Built from kiln's convolve, lstsq and elementwise
operations; roots are the eigenvalues of the companion matrix."""
import numbers
import operator

from .. import _core
from .creation import asarray


def _coefficients(p):
    if isinstance(p, poly1d):
        return p.coeffs
    a = asarray(p)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ValueError("polynomial must be 1d only.")
    return a


def _trim(c):
    """Leading zeros dropped (one zero kept for the zero polynomial)."""
    nonzero = (c != 0).get()
    if not nonzero.any():
        return c[-1:] * 0 if c.size else asarray([0], dtype=c.dtype, device=c.device)
    return c[int(nonzero.argmax()):]


def polyval(p, x):
    """The polynomial ``p`` at ``x``, by Horner's rule."""
    if isinstance(p, poly1d):
        p = p.coeffs
    p = asarray(p)
    x = asarray(x, device=p.device)
    if p.ndim == 0:
        p = p.reshape(1)
    dtype = _core.result_type(p, x)
    result = _core._full(x.shape, 0, dtype, x.device)  # p's rows broadcast against x (NumPy's 2-D p)
    for k in range(p.shape[0]):
        result = result * x + p[k]
    return result.astype(dtype, copy=False)


def polyadd(a1, a2):
    """The sum of two polynomials."""
    wrap = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a, b = _coefficients(a1), _coefficients(a2)
    b = asarray(b, device=a.device)
    n = max(a.size, b.size)
    dtype = _core.result_type(a, b)
    out = _core._full((n,), 0, dtype, a.device)
    out[n - a.size:] = a
    out[n - b.size:] = out[n - b.size:] + b
    return poly1d(out) if wrap else out


def polysub(a1, a2):
    """The difference of two polynomials."""
    wrap = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a, b = _coefficients(a1), _coefficients(a2)
    if a.dtype.kind == "b" and b.dtype.kind == "b":  # as NumPy's a1 - a2
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    result = polyadd(a, -asarray(b, device=a.device) if b.dtype.kind != "b" else b)
    return poly1d(result) if wrap else result


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their coefficients)."""
    from .math.convolution import convolve

    wrap = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a, b = _coefficients(a1), _coefficients(a2)
    result = convolve(a, asarray(b, device=a.device))
    return poly1d(result) if wrap else result


def polydiv(u, v):
    """(quotient, remainder) of polynomial long division."""
    wrap = isinstance(u, poly1d) or isinstance(v, poly1d)
    import numpy as np

    un, vn = _coefficients(u), _coefficients(v)
    q, r = np.polydiv(un.get().astype(np.result_type(un.dtype.name, vn.dtype.name, 1.0)), vn.get())
    q, r = asarray(q, device=un.device), asarray(r, device=un.device)
    return (poly1d(q), poly1d(r)) if wrap else (q, r)


def polyder(p, m=1):
    """The m-th derivative."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    wrap = isinstance(p, poly1d)
    c = _coefficients(p)
    for _ in range(m):
        n = c.shape[0] - 1
        if n <= 0:
            c = c[:0] if c.shape[0] == 0 else (c[:1] * 0)
            break
        powers = _core._arange(n, 0, -1, c.dtype if c.dtype.kind != "b" else "int64", c.device)
        c = c[:-1] * powers
    return poly1d(c) if wrap else c


def polyint(p, m=1, k=None):
    """The m-th antiderivative, with integration constants ``k``."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    wrap = isinstance(p, poly1d)
    c = _coefficients(p)
    constants = [0] * m if k is None else (list(k) if hasattr(k, "__len__") else [k] * m)
    if len(constants) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    from .manipulation.joining import concatenate

    for j in range(m):
        n = c.shape[0]
        powers = _core._arange(n, 0, -1, "float64", c.device)
        c = concatenate([c / powers, asarray([constants[j]], device=c.device)])
    return poly1d(c) if wrap else c


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial of degree ``deg`` through (x, y)."""
    from .. import linalg
    from .manipulation.rearranging import vander

    x, y = asarray(x), asarray(y)
    deg = int(deg)  # NumPy's polyfit takes any number and truncates it
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if "float16" in (x.dtype.name, y.dtype.name):  # NumPy's lstsq refuses float16, so its polyfit does
        raise TypeError("array type float16 is unsupported in linalg")
    dtype = _core.result_type(x, y, "float64")
    lhs = vander(x.astype(dtype), deg + 1)
    rhs = y.astype(dtype)
    if w is not None:
        w = asarray(w, device=x.device).astype(dtype)
        if w.ndim != 1 or w.shape[0] != x.shape[0]:
            raise TypeError("expected a 1-d weight vector of the same length as x")
        lhs = lhs * w.reshape(-1, 1)
        rhs = rhs * (w if rhs.ndim == 1 else w.reshape(-1, 1))
    scale = _core.sqrt(_core.sum(lhs * lhs, axis=0))
    scale = _core._where(scale == 0, 1.0, scale)
    lhs = lhs / scale
    c, residuals, rank, singular = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        return c, residuals, rank, singular, rcond
    if not cov:
        return c
    # The covariance of the coefficients, as NumPy's: (A^T A)^-1, unscaled
    # or scaled by the residuals per degree of freedom.
    base = linalg.inv(lhs.T @ lhs) / (scale.reshape(-1, 1) * scale.reshape(1, -1))
    if cov == "unscaled":
        factor = 1.0
    else:
        if x.shape[0] <= deg + 1:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        factor = residuals / (x.shape[0] - deg - 1)
    if rhs.ndim == 1:
        return c, base * factor
    return c, base.reshape(base.shape + (1,)) * factor


def roots(p):
    """The roots of the polynomial: the eigenvalues of its companion matrix."""
    from .. import linalg

    c = _coefficients(p)
    host = c.get()
    nonzero = host.nonzero()[0]
    if nonzero.size == 0:
        return asarray([], dtype="float64", device=c.device)
    trailing = host.size - nonzero[-1] - 1
    host = host[nonzero[0]:nonzero[-1] + 1]
    n = host.size
    import numpy as np

    if n > 1:
        companion = np.diag(np.ones(n - 2, host.dtype if host.dtype.kind in "fc" else float), -1)
        companion[0, :] = -host[1:] / host[0]
        values = linalg.eigvals(asarray(companion, device=c.device)).get()
    else:
        values = np.array([], dtype=float)
    values = np.concatenate([values, np.zeros(trailing, values.dtype)])
    if values.dtype.kind == "c" and not values.imag.any():
        values = values.real
    return asarray(values, device=c.device)


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots (or of a square matrix's characteristic polynomial)."""
    from .. import linalg
    from .math.convolution import convolve

    zeros = asarray(seq_of_zeros)
    if zeros.ndim == 2 and zeros.shape[0] == zeros.shape[1] and zeros.shape[0] != 0:
        zeros = linalg.eigvals(zeros)
    elif zeros.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if zeros.size == 0:
        return asarray(1.0, device=zeros.device)
    dtype = _core.result_type(zeros, "float64")
    result = asarray([1.0], dtype=dtype, device=zeros.device)
    for k in range(zeros.shape[0]):
        result = convolve(result, _pair(zeros[k], dtype))
    if result.dtype.kind == "c":
        host = zeros.get()
        import numpy as np

        if np.all(np.sort(host[host.imag > 0]) == np.sort(np.conjugate(host[host.imag < 0]))):
            result = result.real.copy()
    return result


def _pair(root, dtype):
    from .manipulation.joining import concatenate

    one = asarray([1.0], dtype=dtype, device=root.device)
    return concatenate([one, (-root).reshape(1).astype(dtype)])


class poly1d:
    """A one-variable polynomial (NumPy's poly1d): coefficients highest power
    first, or the roots with ``r=True``; arithmetic, calling, ``deriv``,
    ``integ``, ``roots``."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._given, self._trimmed = c_or_r._given, c_or_r._trimmed
            self._variable = variable or c_or_r._variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = asarray(c_or_r)
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        # Trimmed when first needed, as CuPy's: finding the leading zeros
        # waits for the GPU, which making a polynomial should not.
        self._given, self._trimmed = (c.reshape(-1) if c.ndim == 0 else c), None
        self._variable = variable or "x"

    @property
    def _coeffs(self):
        if self._trimmed is None:
            self._trimmed = _trim(self._given)
        return self._trimmed

    coeffs = property(lambda self: self._coeffs)
    c = coef = coefficients = coeffs
    variable = property(lambda self: self._variable)
    order = o = property(lambda self: self._coeffs.shape[0] - 1)
    roots = r = property(lambda self: roots(self._coeffs))

    def __array__(self, dtype=None, copy=None):
        values = self._coeffs.get()
        return values if dtype is None else values.astype(dtype)

    def __len__(self):
        return self.order

    def __repr__(self):
        return f"poly1d({self._coeffs.get()!r})"

    def __str__(self):
        import numpy as np

        return str(np.poly1d(self._coeffs.get(), variable=self._variable))

    def __call__(self, val):
        if isinstance(val, poly1d):
            return poly1d(_compose(self._coeffs, val))
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if isinstance(other, numbers.Number):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, _coefficients(other)))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, _coefficients(other)))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, _coefficients(other)))

    def __rsub__(self, other):
        return poly1d(polysub(_coefficients(other), self._coeffs))

    def __pow__(self, power):
        if not isinstance(power, numbers.Integral) or power < 0:
            raise ValueError("Power to non-negative integers only.")
        result = poly1d(asarray([1], device=self._coeffs.device))  # int64, so promotion is NumPy's
        for _ in range(power):
            result = result * self
        return result

    def __truediv__(self, other):
        if isinstance(other, numbers.Number):
            return poly1d(self._coeffs / other)
        return polydiv(self, other)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return self._coeffs.shape == other._coeffs.shape and bool(_core.all(self._coeffs == other._coeffs))

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __getitem__(self, power):
        n = self.order
        if power > n or power < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[n - power]

    def __iter__(self):
        return iter(self._coeffs)

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m, k))


def _compose(outer, inner):
    """The coefficients of outer(inner(x))."""
    result = poly1d(asarray([0], device=outer.device))
    for k in range(outer.shape[0]):
        result = result * inner + poly1d(outer[k:k + 1])
    return result.coeffs
