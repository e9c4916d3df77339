"""scipy.ndimage's Fourier filters (fourier_gaussian, fourier_uniform,
fourier_ellipsoid, fourier_shift): the transform of an image multiplied by
the transform of a Gaussian, box, ellipsoid or shift, on the array's device.
Each axis contributes its signed frequency index k (0 .. n-1 along the axis
a real transform of length n left unfolded), in double precision, and the
result takes SciPy's output type."""
import math

import kiln

from ... import _core
from ..._numpy.manipulation.adding_removing import _axis


def _output(output, input, complex_only=False):
    """SciPy's output array: `output`, a new one of its type, or one of the input's kind."""
    if output is None:
        kind = str(input.dtype)
        if complex_only:
            dtype = kind if kind in ("complex64", "complex128") else "complex128"
        else:
            dtype = kind if kind in ("complex64", "complex128", "float32") else "float64"
        return kiln.zeros(input.shape, dtype=dtype, device=input.device)
    if isinstance(output, kiln.ndarray):
        if output.shape != input.shape:
            raise RuntimeError("output shape not correct")
        return output
    dtype = kiln.dtype(output)
    allowed = ("complex64", "complex128") if complex_only else ("complex64", "complex128", "float32", "float64")
    if str(dtype) not in allowed:
        raise RuntimeError("output type not supported")
    return kiln.zeros(input.shape, dtype=dtype, device=input.device)


def _per_axis(value, ndim, name):
    values = list(value) if isinstance(value, (list, tuple)) or (
        isinstance(value, kiln.ndarray) and value.ndim) else [value] * ndim
    if len(values) != ndim:
        raise RuntimeError(f"{name}: sequence argument must have length equal to input rank")
    return [float(v) for v in values]


def _indices(input, n, axis):
    """Per axis, the frequency indices k (float64, shaped to broadcast) and the length they divide by."""
    out = []
    for d, size in enumerate(input.shape):
        k = kiln.arange(size, dtype="float64", device=input.device)
        if d == axis and n >= 0:
            length = n
        else:
            length = size
            k = kiln.where(k < (size + 1) // 2, k, k - size)
        shape = [1] * input.ndim
        shape[d] = size
        out.append((k.reshape(shape), length))
    return out


def _prepare(input, n, axis):
    input = kiln.asarray(input)
    return input, _axis(axis, input.ndim)


def _apply(input, factor, output):
    wide = input.astype("complex128" if input.dtype.kind == "c" else "float64")
    kiln.copyto(output, (wide * factor).astype(output.dtype), casting="unsafe")
    return output


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """Multiplies by a Gaussian's transform: exp(-2 (pi sigma k / N) ** 2) per axis."""
    input, axis = _prepare(input, n, axis)
    output = _output(output, input)
    factor = 1.0
    for (k, length), s in zip(_indices(input, n, axis), _per_axis(sigma, input.ndim, "sigma")):
        exponent = -2.0 * (s * math.pi / length) ** 2 * k * k
        factor = factor * kiln.where(abs(exponent) > 50.0, 0.0, kiln.exp(exponent))
    return _apply(input, factor, output)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """Multiplies by a box's transform: sin(pi size k / N) / (pi size k / N) per axis."""
    input, axis = _prepare(input, n, axis)
    output = _output(output, input)
    factor = 1.0
    for (k, length), s in zip(_indices(input, n, axis), _per_axis(size, input.ndim, "size")):
        if k.size <= 1:
            continue
        t = math.pi * s / length * k
        factor = factor * kiln.where(k == 0, 1.0, kiln.sin(t) / kiln.where(t == 0, 1.0, t) if s > 0 else 0.0)
    return _apply(input, factor, output)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """Multiplies by the transform of an ellipsoid of the given semi-axes (1 to 3 dimensions)."""
    input, axis = _prepare(input, n, axis)
    if input.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    output = _output(output, input)
    if input.size == 0:
        return output
    p = [math.pi * s / length * k for (k, length), s in
         zip(_indices(input, n, axis), _per_axis(size, input.ndim, "size"))]
    if input.ndim == 1:
        factor = kiln.where(p[0] != 0, kiln.sin(p[0]) / kiln.where(p[0] == 0, 1.0, p[0]), 1.0)
    else:
        r2 = 0.0
        for q in p:
            r2 = r2 + q * q
        r = kiln.sqrt(r2)
        safe = kiln.where(r > 0, r, 1.0)
        if input.ndim == 2:
            from ..special import j1

            factor = kiln.where(r > 0, 2.0 * j1(safe) / safe, 1.0)
        else:
            factor = kiln.where(r > 0, 3.0 * (kiln.sin(safe) - safe * kiln.cos(safe)) / safe ** 3, 1.0)
    return _apply(input, factor, output)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """Multiplies by exp(-2 pi i shift k / N) summed over the axes: a shift of the image."""
    input, axis = _prepare(input, n, axis)
    output = _output(output, input, complex_only=True)
    phase = 0.0
    for (k, length), s in zip(_indices(input, n, axis), _per_axis(shift, input.ndim, "shift")):
        if k.size > 1:
            phase = phase + (-2.0 * math.pi * s / length) * k
    factor = _core.exp(1j * phase) if not isinstance(phase, float) else 1.0
    return _apply(input, factor, output)


__all__ = ["fourier_ellipsoid", "fourier_gaussian", "fourier_shift", "fourier_uniform"]
