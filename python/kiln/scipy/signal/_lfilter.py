"""Rational (IIR and FIR) filters along an axis: scipy.signal's lfilter,
lfiltic, lfilter_zi, filtfilt, sosfilt, sosfilt_zi, sosfiltfilt and
deconvolve, with SciPy's state (zi/zf) convention.

Each line of the signal is one recurrence: include/kiln/device/linear_filter.cuh
runs it in the transposed direct form II, a thread a line, in complex double
precision on either device; the result is rounded to SciPy's type. The small
host-side algebra (initial conditions, steady states) runs in NumPy."""
import numpy as np

import kiln

from ..._cupy_kernels.raw import header_kernels


def _coefficients(b, a):
    b, a = (np.atleast_1d(np.asarray(kiln.asnumpy(c) if isinstance(c, kiln.ndarray) else c)) for c in (b, a))
    if b.ndim != 1 or a.ndim != 1:
        raise ValueError("object of too small depth for desired array: b and a must be 1-d")
    if a.size == 0 or a[0] == 0:
        raise ValueError("Empty or first coefficient of a is zero: a[0] must be nonzero")
    return b, a


def _result_dtype(*dtypes):
    dtype = np.result_type(*dtypes)
    if dtype.kind not in "fc" or dtype == np.float16:
        dtype = np.result_type(dtype, np.float64)
    return dtype


def _run(b, a, x, axis, zi):
    """y and the final state of the filter (b, a) along `axis` of x; zi:
    the initial state, x's shape with axis length k - 1, or None."""
    k = max(b.size, a.size)
    coeff = np.zeros((2, k), dtype=np.complex128)
    coeff[0, :b.size], coeff[1, :a.size] = b, a
    lines = kiln.moveaxis(x, axis, -1).astype(kiln.complex128)  # a fresh contiguous copy
    n = lines.shape[-1]
    count = lines.size // n if n else 0
    shape = lines.shape[:-1] + (k - 1,)
    if zi is None:
        state = kiln.zeros(shape, dtype=kiln.complex128, device=x.device)
    else:
        state = kiln.broadcast_to(kiln.moveaxis(zi, axis, -1), shape).astype(kiln.complex128)
    if count and n:
        b_dev, a_dev = (kiln.asarray(c, device=x.device) for c in coeff)
        kernel, = header_kernels("linear_filter.cuh", ("kiln_linear_filter",))
        kernel(((count + 127) // 128,), (128,),
                  (lines, lines, b_dev, a_dev, state, np.int64(n), np.int64(k), np.int64(count)))
    # SciPy's results are C-contiguous whatever the axis
    return tuple(kiln.ascontiguousarray(kiln.moveaxis(v, -1, axis)) for v in (lines, state))


def _rounded(z, dtype):
    return (z if dtype.kind == "c" else z.real).astype(dtype)


def lfilter(b, a, x, axis=-1, zi=None):
    """Filter x along `axis` with numerator `b` and denominator `a`;
    with `zi` (the delays' initial state, x's shape with k - 1 along
    `axis`) returns (y, zf)."""
    b, a = _coefficients(b, a)
    x = kiln.asarray(x)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-d")
    axis = axis % x.ndim
    k = max(b.size, a.size)
    if zi is not None:
        zi = kiln.asarray(zi, device=x.device)
        expected = x.shape[:axis] + (k - 1,) + x.shape[axis + 1:]
        if zi.ndim != x.ndim or any(z not in (e, 1) for z, e in zip(zi.shape, expected)) \
                or zi.shape[axis] != k - 1:
            raise ValueError(f"Unexpected shape for zi: expected {expected}, found {zi.shape}.")
    dtype = _result_dtype(b.dtype, a.dtype, np.dtype(x.dtype), *([np.dtype(zi.dtype)] if zi is not None else []))
    y, zf = _run(b, a, x, axis, zi)
    y = _rounded(y, dtype)
    return y if zi is None else (y, _rounded(zf, dtype))


def lfiltic(b, a, y, x=None):
    """The state (zi) that continues a filter whose last outputs were `y`
    and last inputs `x`, newest first."""
    b, a = _coefficients(b, a)
    b, a = b / a[0], a / a[0]
    n, m = a.size - 1, b.size - 1
    y = np.asarray(kiln.asnumpy(y) if isinstance(y, kiln.ndarray) else y)
    x = np.zeros(m) if x is None else np.asarray(kiln.asnumpy(x) if isinstance(x, kiln.ndarray) else x)
    dtype = _result_dtype(b.dtype, a.dtype, y.dtype, x.dtype)
    x = np.concatenate([x, np.zeros(max(m - x.size, 0))])
    y = np.concatenate([y, np.zeros(max(n - y.size, 0))])
    zi = np.zeros(max(m, n), dtype=dtype)
    for i in range(m):
        zi[i] = np.sum(b[i + 1:] * x[:m - i])
    for i in range(n):
        zi[i] -= np.sum(a[i + 1:] * y[:n - i])
    return kiln.asarray(zi)


def _steady_state(b, a):
    """The state of filter (b, a) after a long run of ones: the zi that
    makes a step input's output start at its steady value (NumPy, host)."""
    b, a = b / a[0], a / a[0]
    k = max(a.size, b.size)
    b, a = np.pad(b, (0, k - b.size)), np.pad(a, (0, k - a.size))
    if k == 1:
        return np.zeros(0, dtype=np.result_type(b, a))
    companion = np.zeros((k - 1, k - 1), dtype=np.result_type(a))
    companion[0] = -a[1:]
    companion[1:, :-1] += np.eye(k - 2)
    return np.linalg.solve(np.eye(k - 1) - companion.T, b[1:] - a[1:] * b[0])


def lfilter_zi(b, a):
    """The initial state for lfilter that corresponds to the steady state
    of the step response."""
    return kiln.asarray(_steady_state(*_coefficients(b, a)))


def _extend(x, n, axis, padtype):
    """x extended by n values at both ends of `axis`: 'odd' (point
    symmetry about the end), 'even' (mirror) or 'constant' (the end value),
    as kiln.pad's odd and even reflections and its edge mode."""
    if n < 1 or padtype is None:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, "
                         f"which is {x.shape[axis] - 1}.")
    widths = [(0, 0)] * x.ndim
    widths[axis] = (n, n)
    if padtype == "constant":
        return kiln.pad(x, widths, mode="edge")
    return kiln.pad(x, widths, mode="reflect", reflect_type=padtype)


def _forward_backward(run, zi, x, axis, padtype, padlen, edge):
    """filtfilt's scheme: extend, filter forward from the steady state
    scaled to the first value, filter the reversed output likewise, reverse
    back and drop the extension."""
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype.  padtype must be 'even', 'odd', "
                         "'constant', or None.")
    x = kiln.asarray(x)
    axis = axis % x.ndim
    edge = 0 if padtype is None else edge if padlen is None else padlen
    if x.shape[axis] <= edge:
        raise ValueError(f"The length of the input vector x must be greater than padlen, which is {edge}.")
    ext = _extend(x, edge, axis, padtype)

    def ends(y, at):
        index = [slice(None)] * y.ndim
        index[axis] = slice(at, at + 1) if at >= 0 else slice(at, None)
        return y[tuple(index)]

    def reverse(y):
        index = [slice(None)] * y.ndim
        index[axis] = slice(None, None, -1)
        return y[tuple(index)]

    y, _ = run(ext, zi(ext.ndim, axis) * ends(ext, 0))
    y, _ = run(reverse(y), zi(ext.ndim, axis) * ends(y, -1))
    y = reverse(y)
    if edge:
        index = [slice(None)] * y.ndim
        index[axis] = slice(edge, -edge)
        y = y[tuple(index)]
    return y


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """Zero-phase filtering: lfilter forward and backward along `axis`,
    the signal extended at both ends ('pad' method)."""
    if method not in ("pad", "gust"):
        raise ValueError(f"method must be 'pad' or 'gust', not {method!r}")
    b, a = _coefficients(b, a)
    if method == "gust":
        return _gustafsson(b, a, kiln.asarray(x), axis, irlen)[0]
    steady = _steady_state(b, a)

    def zi(ndim, axis):
        shape = [1] * ndim
        shape[axis] = steady.size
        return kiln.asarray(steady.reshape(shape), device=kiln.asarray(x).device)

    return _forward_backward(lambda s, z: lfilter(b, a, s, axis=axis, zi=z), zi, x, axis, padtype, padlen,
                             3 * max(a.size, b.size))


def _gustafsson(b, a, x, axis, irlen):
    """Forward-backward filtering with the initial states of both passes
    chosen so that filtering forward then backward gives the same result as
    backward then forward, in the least-squares sense (F. Gustafsson,
    "Determining the initial states in forward-backward filtering", IEEE
    Trans. Signal Processing 44(4), 1996). Returns y and the two passes'
    initial states. The state maps are small matrices built on the host;
    the signal is filtered on its device, one line a column."""
    axis = axis % x.ndim
    lines = kiln.moveaxis(x, axis, 0)
    n = lines.shape[0]
    order = max(a.size, b.size) - 1
    if order == 0:
        y = lines * float((b[0] / a[0]) ** 2)
        empty = kiln.zeros((0,) + lines.shape[1:], dtype=y.dtype, device=x.device)
        return kiln.ascontiguousarray(kiln.moveaxis(y, 0, axis)), empty, empty
    m = n if irlen is None or n <= 2 * irlen else irlen

    def run(signal, zi=None):
        return lfilter(b, a, signal, axis=0, zi=zi)

    # obs: the response to each unit initial state with zero input (the
    # observability matrix), and s: that response reversed and filtered.
    unit = np.zeros(order)
    unit[0] = 1
    obs = np.zeros((m, order))
    obs[:, 0] = kiln.asnumpy(run(np.zeros(m), zi=unit)[0])
    for k in range(1, order):
        obs[k:, k] = obs[:-k, 0]
    s = kiln.asnumpy(run(obs[::-1]))
    if m == n:
        mismatch = np.hstack((s[::-1] - obs, obs[::-1] - s))
        weights = np.hstack((s[::-1], obs[::-1]))
    else:
        mismatch = np.zeros((2 * m, 2 * order))
        mismatch[:m, :order], mismatch[m:, order:] = s[::-1] - obs, obs[::-1] - s
        weights = np.zeros((2 * m, 2 * order))
        weights[:m, :order], weights[m:, order:] = s[::-1], obs[::-1]

    def reverse(y):
        return y[::-1]

    y_fb = reverse(run(reverse(run(lines))))
    y_bf = run(reverse(run(reverse(lines))))
    delta = (y_bf - y_fb).reshape(n, -1)
    if m != n:
        delta = kiln.concatenate([delta[:m], delta[-m:]])
    # the least-squares states: the pseudo-inverse of the small matrix
    # applied to every column at once
    dtype = np.result_type(np.dtype(delta.dtype), np.float64)
    solve = kiln.asarray(np.linalg.pinv(mismatch).astype(dtype), device=x.device)
    states = solve @ delta
    correction = kiln.asarray(weights.astype(dtype), device=x.device) @ states
    y = y_fb.reshape(n, -1)
    if m == n:
        y = y + correction
    else:
        y = kiln.concatenate([y[:m] + correction[:m], y[m:n - m], y[n - m:] + correction[m:]]) if n > m \
            else y + correction[:m]
    y = y.reshape(lines.shape).astype(y_fb.dtype, copy=False)
    shape = (order,) + lines.shape[1:]
    return (kiln.ascontiguousarray(kiln.moveaxis(y, 0, axis)), states[:order].reshape(shape),
            states[-order:].reshape(shape))


def _sections(sos):
    """sos as a NumPy (n_sections, 6) array; one section may be 1-D (SciPy)."""
    sos = np.atleast_2d(kiln.asnumpy(sos) if isinstance(sos, kiln.ndarray) else sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if not (sos[:, 3] == 1).all():
        raise ValueError("sos[:, 3] should be all ones")
    return sos


def sosfilt(sos, x, axis=-1, zi=None):
    """Filter x along `axis` through a cascade of second-order sections
    (rows b0 b1 b2 a0 a1 a2); with `zi` (n_sections, ..., 2, ...) returns
    (y, zf)."""
    sos = _sections(sos)
    x = kiln.asarray(x)
    axis = axis % x.ndim
    dtype = _result_dtype(sos.dtype, np.dtype(x.dtype), *([np.dtype(kiln.asarray(zi).dtype)] if zi is not None
                                                           else []))
    if zi is not None:
        zi = kiln.asarray(zi, device=x.device)
        expected = (sos.shape[0],) + x.shape[:axis] + (2,) + x.shape[axis + 1:]
        if zi.shape != expected:
            raise ValueError(f"Invalid zi shape. With axis={axis}, an input with shape {x.shape}, and an sos "
                             f"array with {sos.shape[0]} sections, zi must have shape {expected}, got {zi.shape}.")
    y, finals = x, []
    for i, section in enumerate(sos):
        y, zf = _run(section[:3], section[3:], y, axis, None if zi is None else zi[i])
        finals.append(zf)
    y = _rounded(y, dtype)
    return y if zi is None else (y, _rounded(kiln.stack(finals), dtype))


def sosfilt_zi(sos):
    """Initial states for sosfilt: each section's step-response steady
    state, scaled by the DC gain of the sections before it."""
    sos = _sections(sos)
    zi = np.empty((sos.shape[0], 2), dtype=_result_dtype(sos.dtype))
    scale = 1.0
    for i, section in enumerate(sos):
        b, a = section[:3], section[3:]
        zi[i] = scale * _steady_state(b, a)
        scale *= b.sum() / a.sum()
    return kiln.asarray(zi)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """Zero-phase filtering through second-order sections (sosfilt
    forward and backward)."""
    sos = _sections(sos)
    steady = kiln.asarray(sosfilt_zi(sos), device=kiln.asarray(x).device)
    trailing_zeros = min(int((sos[:, 2] == 0).sum()), int((sos[:, 5] == 0).sum()))

    def zi(ndim, axis):
        shape = [1] * (ndim + 1)
        shape[0], shape[axis + 1] = sos.shape[0], 2
        return steady.reshape(shape)

    return _forward_backward(lambda s, z: sosfilt(sos, s, axis=axis, zi=z), zi, x, axis, padtype, padlen,
                             3 * (2 * sos.shape[0] + 1 - trailing_zeros))


def deconvolve(signal, divisor):
    """Polynomial division: (quotient, remainder) with
    signal = convolve(divisor, quotient) + remainder."""
    from ._convolve import convolve

    num = kiln.atleast_1d(kiln.asarray(signal))
    den = kiln.atleast_1d(kiln.asarray(divisor, device=num.device))
    if num.ndim > 1 or den.ndim > 1:
        raise ValueError("signal and divisor must be 1-D")
    n, d = num.size, den.size
    if d > n:
        return kiln.asarray([], dtype=kiln.float64, device=num.device), num
    impulse = kiln.zeros(n - d + 1, dtype=kiln.float64, device=num.device)
    impulse[0] = 1
    quotient = lfilter(kiln.asnumpy(num), kiln.asnumpy(den), impulse)
    return quotient, num - convolve(den, quotient, mode="full")
