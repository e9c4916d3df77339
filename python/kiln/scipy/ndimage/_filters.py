"""scipy.ndimage's filters for kiln.scipy.ndimage, on every device.

A one-axis correlation of a real input (correlate1d, convolve1d, and the
Gaussian filters through them) is one kernel that reads the input through
the boundary mode (include/kiln/device/correlate1d.cuh). Otherwise each
filter pads its input as the boundary ``mode`` says, then combines
shifted views of the padded array (a weighted sum for correlations, a
minimum or maximum, an order statistic for the rank filters), computing in
double precision as SciPy does; kiln's fusion runs each sum as one kernel.
The result takes the output's dtype the way SciPy's C code casts it
(integers truncated toward zero, wrapping around), and the separable
filters cast after each axis, as SciPy's do."""
import operator

from ... import _core, asnumpy
from ..._numpy.creation import asarray, ascontiguousarray, empty, zeros
from ..._numpy.manipulation.padding import pad
from ._generic_kernels import callable_kind, wrapped_kernel
from ._util import _finish, _np, _output_dtype

# scipy.ndimage's boundary modes as numpy.pad's (for filters the grid-
# variants extend the input as the plain ones do).
_PAD_MODES = {"reflect": "symmetric", "grid-mirror": "symmetric", "mirror": "reflect", "nearest": "edge",
              "wrap": "wrap", "grid-wrap": "wrap", "constant": "constant", "grid-constant": "constant"}


def _axes(axes, ndim):
    """SciPy's axes argument: all axes when None, each normalised, no repeats."""
    if axes is None:
        return list(range(ndim))
    axes = [axes] if isinstance(axes, (int, _np().integer)) else list(axes)
    normalised = []
    for axis in axes:
        axis = operator.index(axis)
        if not -ndim <= axis < ndim:
            raise _np().exceptions.AxisError(axis, ndim)
        normalised.append(axis % ndim)
    if len(set(normalised)) != len(normalised):
        raise ValueError("axes must be unique")
    return normalised


def _per_axis(value, count, name):
    """A scalar or one value per filtered axis, as a list of `count`."""
    if isinstance(value, str) or not hasattr(value, "__len__"):
        return [value] * count
    value = list(value)
    if len(value) != count:
        raise RuntimeError(f"sequence argument must have length equal to input rank ({name})")
    return value


def _check_mode(mode):
    if mode not in _PAD_MODES:
        raise RuntimeError(f"boundary mode not supported: {mode!r}")
    return mode


def _cast(values, dtype):
    """values (double or complex) as SciPy's C code stores them in `dtype`."""
    dtype = _np().dtype(dtype)
    if dtype.kind in "iu":
        return _core.trunc(values).astype("int64").astype(str(dtype))
    if dtype.kind == "b":
        return values != 0
    return values.astype(str(dtype))


def _working(input):
    """input in the precision SciPy computes in: double, or double complex."""
    return input.astype("complex128" if input.dtype.kind == "c" else "float64")


def _origin_range(size, origin):
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError(f"invalid origin {origin} for a filter of size {size}")


def _padded(x, sizes, origins, modes, cval, axes):
    """x extended along each axis in `axes` for a window of sizes[i] placed at origins[i]."""
    widths = [(0, 0)] * x.ndim
    for axis, size, origin in zip(axes, sizes, origins):
        _origin_range(size, origin)
        before = size // 2 + origin
        widths[axis] = (before, size - 1 - before)
    distinct = {m for m in modes}
    if len(distinct) <= 1:
        mode = _check_mode(next(iter(distinct), "reflect"))
        extra = {"constant_values": cval} if _PAD_MODES[mode] == "constant" else {}
        return pad(x, widths, mode=_PAD_MODES[mode], **extra)
    for axis, mode in zip(axes, modes):  # one axis at a time when the modes differ
        one = [(0, 0)] * x.ndim
        one[axis] = widths[axis]
        extra = {"constant_values": cval} if _PAD_MODES[_check_mode(mode)] == "constant" else {}
        x = pad(x, one, mode=_PAD_MODES[mode], **extra)
    return x


def _window(padded, axes, offsets, shape):
    """The view of `padded` shifted by `offsets` along `axes`, of the input's shape."""
    index = [slice(None)] * padded.ndim
    for axis, offset in zip(axes, offsets):
        index[axis] = slice(offset, offset + shape[axis])
    return padded[tuple(index)]


def _offsets(mask):
    """The positions where a NumPy boolean mask is set."""
    return [tuple(int(i) for i in p) for p in zip(*_np().nonzero(mask))]


# The input dtypes of include/kiln/device/correlate1d.cuh's kernels, and
# numpy.pad's extensions (_PAD_MODES' values) as its mode numbers.
_LINE_KERNEL_DTYPES = ("uint8", "uint16", "int16", "int32", "float32", "float64")
_LINE_KERNEL_MODES = {"symmetric": 0, "reflect": 1, "edge": 2, "wrap": 3, "constant": 4}


def _correlate_line(input, weights, axis, mode, cval, origin):
    """correlate1d of a real input with real weights in one kernel, the
    boundary read through the mode (no padded copy): double precision out."""
    np = _np()
    from ..._cupy_kernels.raw import header_kernels, launch_size

    _origin_range(weights.shape[0], origin)
    names = tuple(f"kiln_correlate1d_{d}" for d in _LINE_KERNEL_DTYPES)
    kernel = header_kernels("correlate1d.cuh", names)[_LINE_KERNEL_DTYPES.index(str(input.dtype))]
    x = ascontiguousarray(input)
    out = empty(input.shape, dtype="float64", device=input.device)  # the kernel writes every point
    inner = int(np.prod(input.shape[axis + 1:], dtype=np.int64))
    w = asarray(np.ascontiguousarray(weights, dtype=np.float64), device=input.device)
    total = input.size
    kernel(*launch_size(total),
           (x, out, w, np.int64(weights.shape[0]), np.int64(weights.shape[0] // 2 + origin),
            np.int64(input.shape[axis]), np.int64(inner), np.int64(total), np.int32(_LINE_KERNEL_MODES[mode]),
            np.float64(cval)))
    return out


def _correlate_axes(input, weights, axes, mode, cval, origins, output):
    """The correlation of input with n-d `weights` (a NumPy array) laid over `axes`."""
    modes = [_check_mode(m) for m in _per_axis(mode, len(axes), "mode")]
    origins = [operator.index(o) for o in _per_axis(origins, len(axes), "origin")]
    complex_weights = weights.dtype.kind == "c"
    dtype = _output_dtype(input, output, complex_weights)
    if len(axes) == 1 and not complex_weights and str(input.dtype) in _LINE_KERNEL_DTYPES and input.size:
        line = _correlate_line(input, weights, axes[0], _PAD_MODES[modes[0]], cval, origins[0])
        return _finish(_cast(line, dtype), input, output)
    x = _working(input)
    if complex_weights and x.dtype.kind != "c":
        x = x.astype("complex128")
    if input.size == 0:
        return _finish(_cast(x, dtype), input, output)
    padded = _padded(x, weights.shape, origins, modes, cval, axes)
    total = None
    for offsets in _offsets(weights != 0):
        term = _window(padded, axes, offsets, input.shape) * weights[offsets].item()
        total = term if total is None else total + term
    if total is None:
        total = zeros(input.shape, dtype=x.dtype, device=input.device)
    return _finish(_cast(total, dtype), input, output)


def _weights(weights, ndim_expected=None):
    np = _np()
    w = asnumpy(weights)
    if w.dtype.kind not in "fc":
        w = w.astype(np.float64)
    if ndim_expected is not None and w.ndim != ndim_expected:
        raise RuntimeError("filter weights array has incorrect shape")
    if any(s == 0 for s in w.shape):
        raise RuntimeError("no filter weights given")
    return w


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The n-dimensional correlation of input with weights."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    w = _weights(weights, len(axes))
    return _correlate_axes(input, w, axes, mode, cval, origin, output)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The n-dimensional convolution of input with weights: the correlation
    with the weights reversed and each origin moved to match."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    w = _weights(weights, len(axes))
    origins = [-operator.index(o) - (1 - s % 2) for o, s in zip(_per_axis(origin, len(axes), "origin"), w.shape)]
    return _correlate_axes(input, w[(slice(None, None, -1),) * w.ndim], axes, mode, cval, origins, output)


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The correlation of input with a 1-d weights along one axis."""
    input = asarray(input)
    w = _weights(weights, 1)
    return _correlate_axes(input, w, _axes([axis], input.ndim), mode, cval, origin, output)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The convolution of input with a 1-d weights along one axis."""
    input = asarray(input)
    w = _weights(weights, 1)
    origin = -operator.index(origin) - (1 - w.shape[0] % 2)
    return _correlate_axes(input, w[::-1], _axes([axis], input.ndim), mode, cval, origin, output)


def _separable(input, output, axes, one_axis):
    """Applies one_axis(x, axis, position, output_dtype) along each axis in
    turn, each pass stored in the output's dtype as SciPy's are."""
    dtype = _output_dtype(input, output)
    result = input
    for position, axis in enumerate(axes):
        result = one_axis(result, axis, position, dtype)
    if not axes:
        result = _cast(_working(input), dtype)
    return _finish(result, input, output)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The mean over windows of `size` along one axis, as SciPy computes it
    (a running sum, the entering element added and the leaving one taken
    off at each step, divided by size for each output), so that integer
    results truncate alike."""
    from ..._numpy.manipulation.joining import concatenate
    from ..._numpy.statistics.reductions import cumulative_sum

    if size < 1:
        raise RuntimeError("incorrect filter size")
    input = asarray(input)
    axis = _axes([axis], input.ndim)[0]
    dtype = _output_dtype(input, output)
    x = _working(input)
    n = input.shape[axis]
    if input.size == 0:
        return _finish(_cast(x, dtype), input, output)
    padded = _padded(x, [size], [operator.index(origin)], [mode], cval, [axis])
    moved = padded.swapaxes(axis, -1)
    first = cumulative_sum(moved[..., :size], axis=-1)[..., size - 1:]
    steps = moved[..., size:size + n - 1] - moved[..., :n - 1]
    result = (cumulative_sum(concatenate([first, steps], axis=-1), axis=-1) / size).swapaxes(axis, -1)
    return _finish(_cast(result, dtype), input, output)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """The mean over windows of `size` along every axis (one pass an axis)."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    sizes, modes = _per_axis(size, len(axes), "size"), _per_axis(mode, len(axes), "mode")
    origins = _per_axis(origin, len(axes), "origin")
    passes = [(a, s, m, o) for a, s, m, o in zip(axes, sizes, modes, origins) if s > 1]
    return _separable(input, output, [p[0] for p in passes], lambda x, axis, i, dtype: uniform_filter1d(
        x, passes[i][1], axis, dtype, passes[i][2], cval, passes[i][3]))


def _gaussian_kernel1d(sigma, order, radius):
    """SciPy's sampled Gaussian (and its derivatives of `order`), normalised."""
    np = _np()
    if order < 0:
        raise ValueError("order must be non-negative")
    exponent_range = np.arange(order + 1)
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi_x = np.exp(-0.5 / sigma2 * x ** 2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    q = np.zeros(order + 1)
    q[0] = 1
    derivative = np.diag(exponent_range[1:], 1)
    polynomial = np.diag(np.ones(order) / -sigma2, -1)
    q_deriv = derivative + polynomial
    for _ in range(order):
        q = q_deriv.dot(q)
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *,
                      radius=None):
    """A Gaussian filter (or its derivative of `order`) along one axis."""
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, int) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    weights = _gaussian_kernel1d(sigma, order, lw)[::-1]
    return correlate1d(input, weights, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0, *, radius=None,
                    axes=None):
    """A Gaussian filter over every axis, one 1-d pass an axis whose sigma is not 0."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    n = len(axes)
    sigmas, orders = _per_axis(sigma, n, "sigma"), _per_axis(order, n, "order")
    modes, radii = _per_axis(mode, n, "mode"), _per_axis(radius, n, "radius")
    passes = [(a, s, o, m, r) for a, s, o, m, r in zip(axes, sigmas, orders, modes, radii) if s > 1e-15]
    return _separable(input, output, [p[0] for p in passes], lambda x, axis, i, dtype: gaussian_filter1d(
        x, passes[i][1], axis, passes[i][2], dtype, passes[i][3], cval, truncate, radius=passes[i][4]))


def _derivative_then_smooth(input, axis, output, mode, cval, derivative, smoothing):
    input = asarray(input)
    axis = _axes([axis], input.ndim)[0]
    modes = _per_axis(mode, input.ndim, "mode")
    order = [axis] + [a for a in range(input.ndim) if a != axis]
    return _separable(input, output, order, lambda x, a, i, dtype: correlate1d(
        x, derivative if i == 0 else smoothing, a, dtype, modes[a], cval, 0))


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """The Prewitt derivative along `axis`, smoothed along the others."""
    return _derivative_then_smooth(input, axis, output, mode, cval, [-1, 0, 1], [1, 1, 1])


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """The Sobel derivative along `axis`, smoothed along the others."""
    return _derivative_then_smooth(input, axis, output, mode, cval, [-1, 0, 1], [1, 2, 1])


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """The sum over the axes of the second differences [1, -2, 1] (generic_laplace's, as SciPy's)."""
    def second_difference(x, axis, dtype, axis_mode, cval):
        return correlate1d(x, [1.0, -2.0, 1.0], axis, dtype, axis_mode, cval, 0)

    return generic_laplace(input, second_difference, output, mode, cval, axes=axes)


def _min_or_max(window_values, minimum):
    """The running minimum (maximum) over the windows in order, replaced only
    where a value compares below (above) it, as SciPy's C loop: a NaN is
    kept where it comes first and passed over where it comes later."""
    total = None
    for values in window_values:
        if total is None:
            total = values
        else:
            total = _core._where(values < total if minimum else values > total, values, total)
    return total


def _footprint(size, footprint, count):
    """The footprint as a NumPy bool array over `count` axes: a box of `size` when None."""
    np = _np()
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        return np.ones(_per_axis(size, count, "size"), dtype=bool)
    footprint = asnumpy(footprint).astype(bool)
    if footprint.ndim != count:
        raise RuntimeError("footprint array has incorrect shape.")
    if not footprint.any():
        raise ValueError("All-zero footprint is not supported.")
    return footprint


def _windowed(input, size, footprint, output, mode, cval, origin, axes):
    """What the footprint filters share: the input as an array, the output
    dtype, the footprint (a NumPy bool array, a box of `size` when None) and
    the views of the padded input (double precision) for each of its set
    places in C order, or None for an empty input."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    dtype = _output_dtype(input, output)
    footprint = _footprint(size, footprint, len(axes))
    modes = [_check_mode(m) for m in _per_axis(mode, len(axes), "mode")]
    origins = [operator.index(o) for o in _per_axis(origin, len(axes), "origin")]
    if input.size == 0:
        return input, dtype, footprint, None
    # In double precision, as SciPy's: a constant boundary's cval takes part
    # as given, and results are cast as the correlations' are.
    padded = _padded(_working(input), footprint.shape, origins, modes, cval, axes)
    return input, dtype, footprint, [_window(padded, axes, offsets, input.shape) for offsets in _offsets(footprint)]


def _extremum_filter(input, size, footprint, output, mode, cval, origin, axes, minimum):
    input, dtype, _, windows = _windowed(input, size, footprint, output, mode, cval, origin, axes)
    if windows is None:
        return _finish(input.astype(str(dtype)), input, output)
    return _finish(_cast(_min_or_max(windows, minimum), dtype), input, output)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """The minimum over each window (a box of `size`, or the footprint's set places)."""
    return _extremum_filter(input, size, footprint, output, mode, cval, origin, axes, True)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """The maximum over each window (a box of `size`, or the footprint's set places)."""
    return _extremum_filter(input, size, footprint, output, mode, cval, origin, axes, False)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The minimum over windows of `size` along one axis."""
    if size < 1:
        raise RuntimeError("incorrect filter size")
    return _extremum_filter(input, size, None, output, mode, cval, origin, [axis], True)


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """The maximum over windows of `size` along one axis."""
    if size < 1:
        raise RuntimeError("incorrect filter size")
    return _extremum_filter(input, size, None, output, mode, cval, origin, [axis], False)


def _rank_filter(input, rank, size, footprint, output, mode, cval, origin, axes, name):
    from ..._numpy.manipulation.joining import stack
    from ..._numpy.sorting import sort

    input, dtype, footprint, windows = _windowed(input, size, footprint, output, mode, cval, origin, axes)
    count = int(footprint.sum())
    if name == "percentile":
        percentile = rank
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = count - 1 if percentile == 100.0 else int(float(count) * percentile / 100.0)
    if rank < 0:
        rank += count
    if rank < 0 or rank >= count:
        raise RuntimeError("rank not within filter footprint size")
    if windows is None:
        return _finish(input.astype(str(dtype)), input, output)
    return _finish(_cast(sort(stack(windows, axis=-1), axis=-1)[..., rank], dtype), input, output)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                axes=None):
    """The element of each window at position `rank` in sorted order."""
    return _rank_filter(input, operator.index(rank), size, footprint, output, mode, cval, origin, axes, "rank")


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0, *,
                  axes=None):
    """The median of each window (the upper one of an even count, as SciPy's)."""
    count = int(_footprint(size, footprint, len(_axes(axes, asarray(input).ndim))).sum())
    return _rank_filter(input, count // 2, size, footprint, output, mode, cval, origin, axes, "rank")


def percentile_filter(input, percentile, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                      origin=0, *, axes=None):
    """The element of each window at `percentile` (SciPy's rank rule)."""
    return _rank_filter(input, float(percentile), size, footprint, output, mode, cval, origin, axes,
                        "percentile")


def _derivatives(input, derivative, output, mode, cval, extra_arguments, extra_keywords, axes):
    """derivative(input, axis, dtype, mode, cval, ...) for each filtered
    axis (each in its own mode), and the output dtype."""
    input = asarray(input)
    axes = _axes(axes, input.ndim)
    modes = _per_axis(mode, len(axes), "mode")
    dtype = _output_dtype(input, output)
    keywords = extra_keywords or {}
    terms = (derivative(input, axis, dtype, m, cval, *extra_arguments, **keywords) for axis, m in zip(axes, modes))
    return input, dtype, terms


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                    extra_keywords=None, *, axes=None):
    """The sum over the axes of derivative2 along each, added in the output's dtype as SciPy's."""
    input, dtype, terms = _derivatives(input, derivative2, output, mode, cval, extra_arguments, extra_keywords,
                                       axes)
    total = None
    for term in terms:
        term = asarray(term).astype(str(dtype))
        total = term if total is None else total + term
    return _finish(total if total is not None else _cast(_working(input), dtype), input, output)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0, extra_arguments=(),
                               extra_keywords=None, *, axes=None):
    """sqrt of the sum over the axes of derivative along each, squared; the
    squares and their sum in the output's dtype, the root cast to it, as SciPy's."""
    input, dtype, terms = _derivatives(input, derivative, output, mode, cval, extra_arguments, extra_keywords,
                                       axes)
    total = None
    for term in terms:
        term = asarray(term).astype(str(dtype))
        total = term * term if total is None else total + term * term
    if total is None:
        return _finish(_cast(_working(input), dtype), input, output)
    return _finish(_cast(_core.sqrt(_working(total)), dtype), input, output)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """The sum over the axes of the Gaussian's second derivative along each
    (smoothed along every filtered axis, not along the others)."""
    input = asarray(input)
    filtered = _axes(axes, input.ndim)
    sigmas = [0.0] * input.ndim
    for value, axis in zip(_per_axis(sigma, len(filtered), "sigma"), filtered):
        sigmas[axis] = value

    def second(x, axis, dtype, axis_mode, cval):
        orders = [2 if a == axis else 0 for a in range(x.ndim)]
        return gaussian_filter(x, sigmas, orders, dtype, axis_mode, cval, **kwargs)

    return generic_laplace(input, second, output, mode, cval, axes=axes)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None, **kwargs):
    """The norm of the gradient of the Gaussian-smoothed input (smoothed
    with `sigma` along every axis, as SciPy's)."""
    def first(x, axis, dtype, axis_mode, cval):
        orders = [1 if a == axis else 0 for a in range(x.ndim)]
        return gaussian_filter(x, sigma, orders, dtype, axis_mode, cval, **kwargs)

    return generic_gradient_magnitude(input, first, output, mode, cval, axes=axes)


def generic_filter(input, function, size=None, footprint=None, output=None, mode="reflect", cval=0.0, origin=0,
                   extra_arguments=(), extra_keywords=None, *, axes=None):
    """function of each window's values (in the footprint's order), one
    result a window: a Python function (called on the host, as SciPy does),
    or a RawKernel ``f(const double* window, int size, double* result)``
    or a ReductionKernel over each window's values, run on the array's
    device for every window at once."""
    np = _np()
    from ..._numpy.manipulation.joining import stack

    kind = callable_kind(function, reduction_allowed=True)
    input, dtype, _, views = _windowed(input, size, footprint, output, mode, cval, origin, axes)
    if views is None:
        return _finish(_cast(_working(input), dtype), input, output)
    windows = stack(views, axis=-1)
    count = windows.shape[-1]
    flat = windows.reshape(-1, count)
    keywords = extra_keywords or {}
    if kind == "python":
        values = asnumpy(flat)
        result = asarray(np.array([function(w, *extra_arguments, **keywords) for w in values], dtype=np.float64),
                         device=input.device)
    else:
        result = zeros(flat.shape[0], dtype="float64", device=input.device)
        n = flat.shape[0]
        wrapped_kernel(function, "window")(((n + 127) // 128,), (128,), (flat, np.int64(count), result, np.int64(n)))
    return _finish(_cast(result.reshape(input.shape), dtype), input, output)


def generic_filter1d(input, function, filter_size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0,
                     extra_arguments=(), extra_keywords=None):
    """function(line, out_line) over each line along `axis`: the line
    extended by filter_size - 1 at the boundaries, out_line to fill; a
    Python function (called on the host) or a RawKernel
    ``f(const double* line, ptrdiff_t length, double* out, ptrdiff_t out_length)``."""
    np = _np()
    kind = callable_kind(function, reduction_allowed=False)
    if filter_size < 1:
        raise RuntimeError("invalid filter size")
    input = asarray(input)
    axis = _axes([axis], input.ndim)[0]
    dtype = _output_dtype(input, output)
    if input.size == 0:
        return _finish(_cast(_working(input), dtype), input, output)
    padded = _padded(_working(input), [filter_size], [operator.index(origin)], [_check_mode(mode)], cval, [axis])
    lines = padded.swapaxes(axis, -1)
    moved_shape = lines.shape[:-1] + (input.shape[axis],)
    lines = lines.reshape(-1, lines.shape[-1]).copy()
    n, length, out_length = lines.shape[0], lines.shape[1], input.shape[axis]
    keywords = extra_keywords or {}
    if kind == "python":
        host = asnumpy(lines)
        out = np.zeros((n, out_length))
        for line, out_line in zip(host, out):
            function(line, out_line, *extra_arguments, **keywords)
        result = asarray(out, device=input.device)
    else:
        result = zeros((n, out_length), dtype="float64", device=input.device)
        wrapped_kernel(function, "line")(((n + 127) // 128,), (128,),
                                          (lines, np.int64(length), result, np.int64(out_length), np.int64(n)))
    result = result.reshape(moved_shape).swapaxes(axis, -1)
    return _finish(_cast(result, dtype), input, output)


__all__ = ["convolve", "convolve1d", "correlate", "correlate1d", "gaussian_filter", "gaussian_filter1d",
           "gaussian_gradient_magnitude", "gaussian_laplace", "generic_filter", "generic_filter1d",
           "generic_gradient_magnitude", "generic_laplace", "laplace", "maximum_filter", "maximum_filter1d",
           "median_filter", "minimum_filter", "minimum_filter1d", "percentile_filter", "prewitt", "rank_filter",
           "sobel", "uniform_filter", "uniform_filter1d"]
