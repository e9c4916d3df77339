"""Order statistics and moments, NumPy's: median, quantile and percentile
(method "linear", NumPy's default) and their NaN-skipping forms, average,
ptp, cov and corrcoef. The order statistics sort along the axis (NaNs sort
last) and gather the neighbours of each virtual index; a slice with a NaN
has a NaN statistic, as in NumPy."""
import math
import warnings

from ... import _core
from ..creation import asarray
from ..math.elementwise import clip, imag, real, where
from ..indexing.gathering import take_along_axis
from ..manipulation.joining import atleast_2d, concatenate
from ..manipulation.shape import broadcast_to, diagonal, expand_dims, moveaxis
from ..products import dot
from ..manipulation.rearranging import _axes
from ..sorting import sort


def _reduced_axes(a, axis, name):
    """``a`` with the axes to reduce moved last and merged into one, and
    those axes (for keepdims)."""
    if axis is None:
        return a.reshape(-1), tuple(range(a.ndim))
    axes = tuple(sorted(set(_axes(axis, a.ndim, name))))
    kept = [d for d in range(a.ndim) if d not in axes]
    return a.transpose(kept + list(axes)).reshape(tuple(a.shape[d] for d in kept) + (-1,)), axes


def _restore(result, q_ndim, axes, keepdims):
    """Puts the reduced axes back (length one) where ``keepdims`` asks; the
    quantiles' axes stay first."""
    if keepdims:
        for ax in axes:
            result = expand_dims(result, q_ndim + ax)
    return result


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) t, from b's side where t >= 1/2 (exact at
    t = 1, monotonic)."""
    diff = b - a
    low_side, high_side = a + diff * t, b - diff * (1 - t)
    if isinstance(t, float):
        return high_side if t >= 0.5 else low_side
    return where(t >= 0.5, high_side, low_side)


def _float_type(a):
    return a.dtype if a.dtype.kind in "fc" else _core.result_type(a.dtype, "float64")


def _nan_where(result, condition):
    return where(condition, _core._full((), math.nan, result.dtype, result.device), result)


def _quantile(a, q, axis, keepdims, skip_nan, name, method):
    """The quantiles of each slice by NumPy's `method`: a virtual index
    ("linear": q (count - 1)), its neighbours in the sorted slice, and
    NumPy's choice or interpolation between them. A Python scalar q is weak,
    as in NumPy: float32 data stay float32."""
    if method not in _METHODS:
        raise ValueError(f"{name}: method {method!r} is not one of NumPy's: {', '.join(_METHODS)}")
    a = asarray(a)
    weak = isinstance(q, (int, float)) and not isinstance(q, bool)
    q = asarray(q, device=a.device)
    if q.dtype.kind not in "iuf":
        raise TypeError(f"{name}: q must be real numbers")
    if bool(_core.any((q < 0) | (q > 1))):
        raise ValueError(f"{name}: Percentiles must be in the range [0, 100]" if "percentile" in name else
                         f"{name}: Quantiles must be in the range [0, 1]")
    flat, axes = _reduced_axes(a, axis, name)
    if flat.shape[-1] == 0:
        raise IndexError(f"{name}: cannot take a quantile of an empty slice")
    ordered = sort(flat, axis=-1)
    if skip_nan and a.dtype.kind in "fc":
        count = _core.sum(_core.logical_not(_core.isnan(ordered)), -1, "int64", True)  # the slices' shape + (1,)
    else:
        count = _core._full(ordered.shape[:-1] + (1,), ordered.shape[-1], "int64", a.device)
    last = _core.maximum(count - 1, 0)
    source = broadcast_to(ordered, q.shape + ordered.shape)
    if method != "linear":
        result = _quantile_by_method(source, q.reshape(q.shape + (1,) * ordered.ndim), count, last, method,
                                     _float_type(a) if weak else _gamma_type(a.dtype, q.dtype))
    else:
        # In q's type, as NumPy's q * (n - 1) with a Python int n: float32 q
        # gives float32 virtual indexes. q's shape + the slices' + (1,).
        virtual = q.reshape(q.shape + (1,) * ordered.ndim) * (count - 1).astype(q.dtype)
        if q.dtype.kind in "iu":  # integral virtual indexes: NumPy takes the elements, in their dtype
            lower, gamma = virtual, None
        else:
            lower = _core.floor(virtual)
            gamma = (virtual - lower)[..., 0]
            gamma = gamma.astype(_float_type(a)) if weak else gamma
            lower = lower.astype("int64")
        result = take_along_axis(source, _core.minimum(_core.maximum(lower, 0), last), -1)[..., 0]
        if gamma is not None:
            above = take_along_axis(source, _core.minimum(lower + 1, last), -1)[..., 0]
            result = _lerp(result, above, float(gamma) if weak and not gamma.ndim else gamma)
    if a.dtype.kind in "fc":
        if skip_nan:
            empty = count[..., 0] == 0
            if bool(_core.any(empty)):
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
            result = _nan_where(result, empty)
        else:
            result = _nan_where(result, _core.isnan(ordered[..., -1]))
    return _restore(result, q.ndim, axes, keepdims)


# NumPy's quantile methods (H&F 1996): the continuous ones by their
# (alpha, beta), whose virtual index is n q + alpha + q (1 - alpha - beta) - 1;
# the others by how they pick between the two neighbours of theirs.
_CONTINUOUS = {"linear": (1.0, 1.0), "interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3, 1 / 3), "normal_unbiased": (3 / 8, 3 / 8)}
_METHODS = (*_CONTINUOUS, "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "lower", "higher",
            "midpoint", "nearest")


def _gamma_type(data, q):
    """The type an interpolation between elements of `data` is made in for
    an array q: NumPy's promotion of the two (int8 data and float32 q give
    float32), float64 where that is no float."""
    promoted = _core.result_type(data, q)
    return promoted if promoted.kind in "fc" else _core.result_type(data, "float64")


def _quantile_by_method(source, q, count, last, method, gamma_type):
    """The quantiles of every method but "linear" (its own path keeps NumPy's
    float32 arithmetic): the virtual index in float64, its floor and the next
    index clipped into the slice, then an element picked (the methods that
    take elements keep the data's dtype) or the two interpolated."""
    n, q = count.astype("float64"), q.astype("float64")
    if method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        virtual = n * q + (alpha + q * (1 - alpha - beta)) - 1
    elif method in ("inverted_cdf", "averaged_inverted_cdf"):
        virtual = n * q - 1
    elif method == "closest_observation":
        virtual = n * q - 1.5
    else:
        virtual = q * (n - 1)
    floor = _core.floor(virtual)
    g = (virtual - floor)[..., 0]
    lower = floor.astype("int64")
    below = take_along_axis(source, clip(lower, 0, last), -1)[..., 0]
    above = take_along_axis(source, clip(lower + 1, 0, last), -1)[..., 0]
    if method == "lower":
        return below
    if method in ("inverted_cdf", "higher"):
        return where(g > 0, above, below)
    if method in ("closest_observation", "nearest"):
        # The lower index's parity breaks ties: nearest goes to the even index,
        # closest_observation to the even order statistic (counted from 1).
        odd = (lower[..., 0] % 2) == 1
        if method == "closest_observation":
            return where((g == 0) & odd, below, above)
        return where((g > 0.5) | ((g == 0.5) & odd), above, below)
    if method == "averaged_inverted_cdf":
        g = where(g > 0, 1.0, 0.5)
    elif method == "midpoint":
        g = where(g == 0, 0.0, 0.5)
    return _lerp(below, above, g.astype(gamma_type))


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """NumPy's quantile, every method of NumPy's: q in [0, 1], a scalar or an
    array whose axes come first in the result."""
    _no_out(out, weights, "quantile")
    return _quantile(a, q, axis, keepdims, False, "quantile", method)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """quantile of the non-NaN elements of each slice (NaN for an all-NaN slice)."""
    _no_out(out, weights, "nanquantile")
    return _quantile(a, q, axis, keepdims, True, "nanquantile", method)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    """quantile with q in percent."""
    _no_out(out, weights, "percentile")
    return _quantile(a, _percent(q), axis, keepdims, False, "percentile", method)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None):
    _no_out(out, weights, "nanpercentile")
    return _quantile(a, _percent(q), axis, keepdims, True, "nanpercentile", method)


def _percent(q):
    if isinstance(q, (int, float)) and not isinstance(q, bool):
        return q / 100
    return asarray(q) / 100


def _no_out(out, weights, name):
    if out is not None:
        raise NotImplementedError(f"{name}: out= is not supported")
    if weights is not None:
        raise NotImplementedError(f"{name}: weights= is not supported")


def _median(a, axis, keepdims, skip_nan, name):
    a = asarray(a)
    flat, axes = _reduced_axes(a, axis, name)
    n = flat.shape[-1]
    if n == 0:
        result = _core.mean(flat, -1)  # NaN, as NumPy's mean of an empty slice
        return _restore(result, 0, axes, keepdims)
    ordered = sort(flat, axis=-1)
    if skip_nan and a.dtype.kind in "fc":
        count = _core.sum(_core.logical_not(_core.isnan(ordered)), -1, "int64", True)
        low = _core.maximum((count - 1) // 2, 0)
        high = _core.maximum(count // 2, 0)
        pair = concatenate([take_along_axis(ordered, low, -1), take_along_axis(ordered, high, -1)], axis=-1)
        result = _core.mean(pair, -1)
        empty = count[..., 0] == 0
        if bool(_core.any(empty)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        result = _nan_where(result, empty)
    else:
        result = _core.mean(ordered[..., (n - 1) // 2:n // 2 + 1], -1)
        if a.dtype.kind in "fc":
            result = _nan_where(result, _core.isnan(ordered[..., -1]))
    return _restore(result, 0, axes, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The middle value of each slice (the mean of the two middle ones for an
    even length); NaN where a slice has a NaN."""
    _no_out(out, None, "median")
    return _median(a, axis, keepdims, False, "median")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """median of the non-NaN elements of each slice (NaN for an all-NaN slice)."""
    _no_out(out, None, "nanmedian")
    return _median(a, axis, keepdims, True, "nanmedian")


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """The weighted mean over ``axis``; 1-D weights run along a single axis.
    With ``returned``, also the sum of the weights (broadcast to the result)."""
    a = asarray(a)
    if weights is None:
        avg = _core.mean(a, axis, None, keepdims)
        if not returned:
            return avg
        return avg, _core._full(avg.shape, a.size / max(avg.size, 1), avg.dtype, a.device)
    w = asarray(weights, device=a.device)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("average: Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("average: 1D weights expected when shapes of a and weights differ.")
        axes = _axes(axis, a.ndim, "average")
        if len(axes) != 1:
            raise TypeError("average: 1D weights expected when shapes of a and weights differ.")
        if w.shape[0] != a.shape[axes[0]]:
            raise ValueError("average: Length of weights not compatible with specified axis.")
        w = moveaxis(broadcast_to(w, (a.ndim - 1) * (1,) + w.shape), -1, axes[0])
    result_dtype = _core.result_type(a.dtype, w.dtype, "float64") if a.dtype.kind in "biu" else \
        _core.result_type(a.dtype, w.dtype)
    total = _core.sum(w.astype(result_dtype) if w.dtype != result_dtype else w, axis, None, keepdims)
    if bool(_core.any(total == 0)):
        raise ZeroDivisionError("average: Weights sum to zero, can't be normalized")
    avg = _core.sum(a * w, axis, result_dtype, keepdims) / total
    if returned:
        return avg, broadcast_to(total, avg.shape).astype(avg.dtype) if total.shape != avg.shape else total
    return avg


def ptp(a, axis=None, out=None, keepdims=False):
    """Range (maximum minus minimum) over ``axis``."""
    _no_out(out, None, "ptp")
    a = asarray(a)
    return _core.max(a, axis, keepdims) - _core.min(a, axis, keepdims)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """NumPy's cov: each row a variable (each column with ``rowvar=False``),
    frequency and analytic weights, ``ddof`` (default 1, 0 with ``bias``)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("cov: ddof must be integer")
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is None:
        dtype = _core.result_type(m.dtype, "float64") if y is None else \
            _core.result_type(m.dtype, asarray(y).dtype, "float64")
    X = atleast_2d(m).astype(dtype)
    if not rowvar and m.ndim == 2:
        X = X.T
    if X.shape[0] == 0:
        return _core._empty((0, 0), dtype, m.device)
    if y is not None:
        y = asarray(y, device=m.device)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        y = atleast_2d(y).astype(dtype)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    if fweights is not None:
        fweights = _sample_weights(fweights, X, m.device, "fweights")
        if not bool(_core.all(fweights == _core.trunc(fweights))):
            raise TypeError("fweights must be integer")
    if aweights is not None:
        aweights = _sample_weights(aweights, X, m.device, "aweights")
    w = fweights if aweights is None else aweights if fweights is None else fweights * aweights
    if w is None:
        avg = _core.mean(X, 1)
        fact = X.shape[1] - ddof
    else:
        avg, w_sum = average(X, axis=1, weights=w, returned=True)
        w_sum = float(real(w_sum[0]))
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float(_core.sum(w * aweights)) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    # NumPy centres X in place, in the dtype asked for: an integer or bool
    # dtype cannot hold the centred values.
    if not _core.can_cast(avg.dtype, X.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc 'subtract' output from dtype('{avg.dtype}') to dtype('{X.dtype}') "
                        "with casting rule 'same_kind'")
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        c = dot(X, _core.conj(X_T)) * (1.0 / fact if fact else math.inf)
    return c.squeeze()


def _sample_weights(weights, X, device, name):
    """One non-negative weight per sample (column of X), as float64."""
    weights = asarray(weights, device=device)
    if weights.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if weights.shape[0] != X.shape[1]:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if bool(_core.any(weights < 0)):
        raise ValueError(f"{name} cannot be negative")
    return weights.astype("float64")


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov over the outer product of the
    standard deviations, clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = diagonal(c)
    stddev = _core.sqrt(real(d) if d.dtype.kind == "c" else d)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        return clip(real(c), -1, 1) + 1j * clip(imag(c), -1, 1)
    return clip(c, -1, 1)
