"""scipy.ndimage's spline interpolation for kiln.scipy.ndimage, on every
device: spline_filter1d and spline_filter (the B-spline prefilter),
map_coordinates, affine_transform, shift, zoom, rotate and
geometric_transform.

Each is one kernel per output (include/kiln/device/spline_interpolation.cuh)
that finds every output point's coordinates in the input (from a coordinate
array, an affine matrix, or a zoom and shift per axis), brings them inside
by the boundary mode and sums the spline's taps, in double precision and in
the order SciPy's C code sums them; the prefilter runs SciPy's recursive
filter, a line a thread. The result is stored in the output's dtype the
way SciPy stores it (integers rounded half away from zero and clipped).
Complex inputs are interpolated a part at a time, as SciPy does."""
import math
import operator
import warnings

from ... import _core, asnumpy
from ..._numpy.creation import asarray, ascontiguousarray, empty, full
from ..._numpy.math.elementwise import clip, where
from ..._numpy.manipulation.padding import pad
from ..._cupy_kernels.raw import header_kernels, launch_size
from ._filters import _cast, _per_axis
from ._util import _check_cval, _finish, _is_array, _np, _output_dtype

__all__ = ["affine_transform", "geometric_transform", "map_coordinates", "rotate", "shift", "spline_filter",
           "spline_filter1d", "zoom"]

# scipy.ndimage's numbering of the boundary modes (the kernels' too).
_MODES = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3, "constant": 4, "grid-wrap": 5,
          "grid-constant": 6}
_MAX_DIMS = 8  # KILN_SPLINE_MAX_DIMS
_FROM_COORDINATES, _FROM_MATRIX, _FROM_ZOOM_SHIFT = 0, 1, 2
_ZOOMS, _SHIFTS, _GRID_MODE = 1, 2, 4
_PREPAD = 12  # SciPy's: the border the modes without an exact prefilter boundary are extended by first


def _kernels():
    return header_kernels("spline_interpolation.cuh", ("kiln_spline_interpolate", "kiln_spline_filter1d"))


def _mode_code(mode):
    if mode not in _MODES:
        raise RuntimeError(f"mode: boundary mode not supported: {mode!r}")
    return _MODES[mode]


def _check_order(order, lowest=0):
    order = operator.index(order)
    if not lowest <= order <= 5:
        raise RuntimeError(f"order: spline order {order} not supported (from {lowest} to 5)")
    return order


def _check_rank(ndim):
    if ndim > _MAX_DIMS:
        raise ValueError(f"input: kiln interpolates arrays of up to {_MAX_DIMS} dimensions, not {ndim}")


def _filter_axis(c, axis, order, mode):
    """spline_filter1d of the C-contiguous double array c along `axis`, in place."""
    np = _np()
    length = c.shape[axis]
    if length <= 1 or c.size == 0:
        return
    inner = int(np.prod(c.shape[axis + 1:], dtype=np.int64))
    lines = c.size // length
    grid, block = launch_size(lines)
    _kernels()[1](grid, block, (c, np.int64(length), np.int64(inner), np.int64(lines), np.int32(order),
                                np.int32(_mode_code(mode))))


def _by_parts(input, output, dtype, real_result, store):
    """real_result(real input, part index): double values, for a real
    input or for each part of a complex one, stored in `dtype` by `store`
    (into `output` if it is an array)."""
    if input.dtype.kind != "c":
        return _finish(store(real_result(input, 0), dtype), input, output)
    real, imag = (ascontiguousarray(part) for part in (input.real, input.imag))
    values = real_result(real, 0) + real_result(imag, 1) * 1j
    return _finish(values.astype(str(dtype)), input, output)


def spline_filter1d(input, order=3, axis=-1, output="float64", mode="mirror"):
    """The B-spline prefilter of `order` along one axis (orders 0 and 1 copy)."""
    order = _check_order(order)
    input = asarray(input)
    dtype = _output_dtype(input, output)
    _mode_code(mode)
    if input.ndim:
        axis = operator.index(axis)
        if not -input.ndim <= axis < input.ndim:
            raise _np().exceptions.AxisError(axis, input.ndim)
        axis %= input.ndim

    def filtered(part, _):
        c = ascontiguousarray(part.astype("float64"))
        if order > 1 and part.ndim:
            _filter_axis(c, axis, order, mode)
        return c

    return _by_parts(input, output, dtype, filtered, _cast)


def _coefficients(x, order, mode, dtype=None):
    """x's B-spline coefficients of `order` along every axis (a C-contiguous
    double array); for an integer `dtype`, stored in it after each axis but
    the last, as SciPy's spline_filter stores them."""
    c = ascontiguousarray(x.astype("float64"))
    for axis in range(x.ndim):
        _filter_axis(c, axis, order, mode)
        if dtype is not None and dtype.kind not in "fc" and axis < x.ndim - 1:
            c = ascontiguousarray(_cast(c, dtype).astype("float64"))
    return c


def spline_filter(input, order=3, output="float64", mode="mirror"):
    """The B-spline prefilter of `order` (2 to 5) along every axis, the
    result stored in the output's dtype after each axis, as SciPy's is."""
    order = _check_order(order, lowest=2)
    input = asarray(input)
    dtype = _output_dtype(input, output)
    _mode_code(mode)
    return _by_parts(input, output, dtype, lambda part, _: _coefficients(part, order, mode, dtype), _cast)


def _prefiltered(input, order, mode, cval, prefilter):
    """(spline coefficients, border) the interpolation reads: the input
    itself unless an order above 1 is to be prefiltered; the modes without
    an exact prefilter boundary are first extended by a border of 12."""
    if not prefilter or order < 2:
        return input, 0
    border = 0
    if mode == "nearest":
        input, border = pad(input, _PREPAD, mode="edge"), _PREPAD
    elif mode == "grid-constant":
        input, border = pad(input, _PREPAD, mode="constant", constant_values=cval), _PREPAD
    return _coefficients(input, order, mode), border


def _store(values, dtype):
    """Double values in `dtype` as SciPy's interpolation stores them:
    integers rounded half away from zero and clipped to the type's range."""
    np = _np()
    if dtype.kind == "b":
        return values != 0
    if dtype.kind not in "iu":
        return values.astype(str(dtype))
    info = np.iinfo(dtype)
    high = float(info.max) if info.max < 2 ** 53 else float(np.nextafter(float(info.max), 0))
    rounded = where(values > 0, values + 0.5, values - 0.5 if dtype.kind == "i" else 0.0)
    return _core.trunc(clip(rounded, float(info.min), high)).astype(str(dtype))


def _interpolated(coefficients, border, out_shape, source, params, flags, order, mode, cval):
    """The double values at the output points (of out_shape) the source gives."""
    np = _np()
    device = coefficients.device
    points = int(np.prod(out_shape, dtype=np.int64))
    if coefficients.size == 0:
        return full(out_shape, float(cval), dtype="float64", device=device)
    out = empty(out_shape, dtype="float64", device=device)
    if points == 0:
        return out
    x = ascontiguousarray(coefficients.astype("float64"))
    shape = asarray(np.asarray(x.shape, dtype=np.int64), device=device)
    out_dims = asarray(np.asarray(out_shape, dtype=np.int64), device=device)
    grid, block = launch_size(points)
    _kernels()[0](grid, block, (x, out, np.int64(points), np.int32(x.ndim), shape, np.int32(len(out_shape)),
                                out_dims, np.int32(source), params, np.int32(flags), np.int32(order),
                                np.int32(_mode_code(mode)), np.float64(cval), np.int64(border)))
    return out


def _transform(input, output, dtype, out_shape, order, mode, cval, prefilter, source, params, flags=0):
    """The interpolation every public function comes to, into `output` of
    `dtype` (the caller's _output_dtype): `params` (a kiln double array on the
    input's device) give the coordinates as `source` says."""
    _check_cval(mode, cval, dtype.kind in "iu")
    cvals = (complex(cval).real, complex(cval).imag)

    def part(real, which):
        coefficients, border = _prefiltered(real, order, mode, cvals[which], prefilter)
        return _interpolated(coefficients, border, out_shape, source, params, flags, order, mode, cvals[which])

    return _by_parts(input, output, dtype, part, _store)


def _start(input, order, mode):
    order = _check_order(order)
    _mode_code(mode)
    input = asarray(input)
    if input.ndim < 1:
        raise RuntimeError("input: input and output rank must be > 0")
    _check_rank(input.ndim)
    return input, order


def _doubles(values, device):
    return asarray(_np().ascontiguousarray(values, dtype="float64"), device=device)


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """The input's spline interpolation at `coordinates` (ndim, ...): the
    output has coordinates.shape[1:]."""
    order = _check_order(order)
    input = asarray(input)
    coordinates = asarray(coordinates, device=input.device)
    if coordinates.dtype.kind == "c":
        raise TypeError("coordinates: complex type not supported")
    out_shape = tuple(coordinates.shape[1:])
    if input.ndim < 1 or len(out_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if coordinates.shape[0] != input.ndim:
        raise RuntimeError("coordinates: invalid shape for coordinate array")
    input, order = _start(input, order, mode)
    dtype = _output_dtype(input, output, shape=out_shape)
    params = ascontiguousarray(coordinates.astype("float64").reshape(input.ndim, -1))
    return _transform(input, output, dtype, out_shape, order, mode, cval, prefilter, _FROM_COORDINATES, params)


def _texture_checks(input, matrix, output, output_shape, mode):
    """CuPy's texture_memory=True accepts only what a CUDA texture can do;
    kiln takes the same arguments and computes the ordinary interpolation."""
    np = _np()
    if input.ndim not in (2, 3):
        raise ValueError("texture_memory: defined only for 2-D and 3-D arrays without channel dimension")
    if str(input.dtype) != "float32":
        raise ValueError(f"texture_memory: available only for float32 data (not {input.dtype})")
    if tuple(matrix.shape) != (input.ndim + 1,) * 2:
        raise ValueError("texture_memory: the matrix must have shape (ndim + 1, ndim + 1)")
    if mode not in ("constant", "nearest"):
        raise ValueError(f"texture_memory: mode must be 'constant' or 'nearest', not {mode!r}")
    if _is_array(output):
        if str(output.dtype) != "float32" or (output_shape is not None and tuple(output.shape) != tuple(output_shape)):
            raise ValueError("texture_memory: output must be a float32 array of output_shape")
    elif output is not None:
        try:
            dtype = np.dtype(output)
        except TypeError:
            dtype = None
        if dtype != np.float32:
            raise ValueError(f"texture_memory: output must be float32 (not {output!r})")
    if output_shape is not None and len(output_shape) != input.ndim:
        raise ValueError("texture_memory: output_shape must have the input's number of dimensions")


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3, mode="constant", cval=0.0,
                     prefilter=True, *, texture_memory=False):
    """The input at ``matrix @ o + offset`` for each output index o (SciPy's
    matrix forms: (ndim,) diagonal, (ndim, out_ndim), homogeneous
    (ndim + 1, ndim + 1) or (ndim, ndim + 1))."""
    np = _np()
    input = asarray(input)
    matrix_host = np.asarray(asnumpy(matrix), dtype=np.float64)
    if texture_memory:
        _texture_checks(input, matrix_host, output, output_shape, mode)
        order = min(operator.index(order), 1)
    input, order = _start(input, order, mode)
    if output_shape is None:
        output_shape = tuple(output.shape) if _is_array(output) else tuple(input.shape)
    output_shape = tuple(operator.index(n) for n in output_shape)
    if len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    dtype = _output_dtype(input, output, shape=output_shape)  # SciPy checks the output before the matrix
    ndim = input.ndim
    if matrix_host.ndim not in (1, 2) or matrix_host.shape[0] < 1:
        raise RuntimeError("matrix: no proper affine matrix provided")
    if matrix_host.ndim == 2 and matrix_host.shape[1] == ndim + 1 and matrix_host.shape[0] in (ndim, ndim + 1):
        if matrix_host.shape[0] == ndim + 1 and not np.all(matrix_host[ndim] == [0] * ndim + [1]):
            raise ValueError(f"matrix: expected a homogeneous transformation matrix with shape {matrix_host.shape} "
                             f"for image shape {tuple(input.shape)}, but its bottom row is not {[0] * ndim + [1]}")
        offset = matrix_host[:ndim, ndim]
        matrix_host = matrix_host[:ndim, :ndim]
    if matrix_host.shape[0] != ndim:
        raise RuntimeError("matrix: affine matrix has wrong number of rows")
    if matrix_host.ndim == 2 and matrix_host.shape[1] != len(output_shape):
        raise RuntimeError("matrix: affine matrix has wrong number of columns")
    offset = np.asarray(asnumpy(offset), dtype=np.float64)
    offset = np.asarray(_per_axis(offset.tolist() if offset.ndim else float(offset), ndim, "offset"), dtype=np.float64)
    if matrix_host.ndim == 1:  # a zoom and shift per axis, as SciPy computes it
        with np.errstate(divide="ignore", invalid="ignore"):
            params = _doubles(np.concatenate([matrix_host, offset / matrix_host]), input.device)
        return _transform(input, output, dtype, output_shape, order, mode, cval, prefilter, _FROM_ZOOM_SHIFT, params,
                          _ZOOMS | _SHIFTS)
    params = _doubles(np.concatenate([matrix_host.ravel(), offset]), input.device)
    return _transform(input, output, dtype, output_shape, order, mode, cval, prefilter, _FROM_MATRIX, params)


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """The input moved by `shift` (a scalar or one per axis)."""
    np = _np()
    input, order = _start(input, order, mode)
    shifts = [-float(s) for s in _per_axis(shift, input.ndim, "shift")]
    params = _doubles(np.concatenate([np.ones(input.ndim), shifts]), input.device)
    return _transform(input, output, _output_dtype(input, output), tuple(input.shape), order, mode, cval, prefilter,
                      _FROM_ZOOM_SHIFT, params, _SHIFTS)


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *, grid_mode=False):
    """The input resampled to round(shape * zoom) points per axis; with
    grid_mode, the pixels' outer edges (not their centres) are aligned."""
    np = _np()
    input, order = _start(input, order, mode)
    zooms = [float(z) for z in _per_axis(zoom, input.ndim, "zoom")]
    out_shape = tuple(int(round(n * z)) for n, z in zip(input.shape, zooms))
    dtype = _output_dtype(input, output, shape=out_shape)
    _check_cval(mode, cval, dtype.kind in "iu")
    if all(z == 1 for z in zooms) and prefilter:  # SciPy returns the input unchanged
        return _finish(input.astype(str(dtype)), input, output)
    if grid_mode and mode in ("constant", "wrap"):
        warnings.warn(f"It is recommended to use mode = grid-{mode} instead of {mode} when grid_mode is True.",
                      UserWarning, stacklevel=2)
    divisor = np.asarray(out_shape, dtype=np.float64) - (0 if grid_mode else 1)
    numerator = np.asarray(input.shape, dtype=np.float64) - (0 if grid_mode else 1)
    factors = np.divide(numerator, divisor, out=np.ones(input.ndim), where=divisor != 0)
    params = _doubles(np.concatenate([factors, np.zeros(input.ndim)]), input.device)
    return _transform(input, output, dtype, out_shape, order, mode, cval, prefilter, _FROM_ZOOM_SHIFT, params,
                      _ZOOMS | (_GRID_MODE if grid_mode else 0))


def _cos_sin_degrees(angle):
    """cos and sin of `angle` degrees, exact at the multiples of 90 (as
    scipy.special.cosdg and sindg are), so a quarter turn moves no point."""
    turn = math.fmod(float(angle), 360.0)
    exact = {0.0: (1.0, 0.0), 90.0: (0.0, 1.0), 180.0: (-1.0, 0.0), 270.0: (0.0, -1.0)}
    turn = turn + 360.0 if turn < 0 else turn
    if turn in exact:
        return exact[turn]
    return math.cos(math.radians(turn)), math.sin(math.radians(turn))


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant", cval=0.0,
           prefilter=True):
    """The input rotated by `angle` degrees in the plane of `axes`; with
    reshape the output grows to hold the whole rotated input. Arrays of more
    than two dimensions are rotated a plane at a time, as SciPy does."""
    import itertools

    np = _np()
    input = asarray(input)
    ndim = input.ndim
    if ndim < 2:
        raise ValueError("input: input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes: axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes: axes should contain only integer values")
    axes = [int(ax) + ndim if ax < 0 else int(ax) for ax in axes]
    if any(ax < 0 or ax >= ndim for ax in axes):
        raise ValueError("axes: invalid rotation plane specified")
    axes.sort()
    c, s = _cos_sin_degrees(angle)
    rotation = np.array([[c, s], [-s, c]])
    shape = np.asarray(input.shape)
    in_plane = shape[axes]
    if reshape:
        rows, cols = in_plane
        bounds = rotation @ [[0, 0, rows, rows], [0, cols, 0, cols]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = shape[axes]
    offset = (in_plane - 1) / 2 - rotation @ ((out_plane - 1) / 2)
    out_shape = shape.copy()
    out_shape[axes] = out_plane
    out_shape = tuple(int(n) for n in out_shape)
    if ndim == 2:  # affine_transform reads the output argument
        return affine_transform(input, rotation, offset, out_shape, output, order, mode, cval, prefilter)
    dtype = _output_dtype(input, output, shape=out_shape)
    result = output if _is_array(output) else empty(out_shape, dtype=str(dtype), device=input.device)
    planes = itertools.product(*[[slice(None)] if ax in axes else range(shape[ax]) for ax in range(ndim)])
    for plane in planes:
        result[plane] = affine_transform(input[plane], rotation, offset, tuple(int(n) for n in out_plane),
                                         str(dtype), order, mode, cval, prefilter)
    return result


def geometric_transform(input, mapping, output_shape=None, output=None, order=3, mode="constant", cval=0.0,
                        prefilter=True, extra_arguments=(), extra_keywords=None):
    """The input at ``mapping(o)`` for each output index o: `mapping` is a
    Python callable, called on the host once a point (as SciPy calls it)."""
    np = _np()
    input, order = _start(input, order, mode)
    out_shape = tuple(input.shape) if output_shape is None else tuple(operator.index(n) for n in output_shape)
    if len(out_shape) < 1:
        raise RuntimeError("output_shape: input and output rank must be > 0")
    keywords = extra_keywords or {}
    coordinates = np.empty((input.ndim,) + out_shape, dtype=np.float64)
    for index in np.ndindex(*out_shape):
        coordinates[(slice(None),) + index] = mapping(index, *extra_arguments, **keywords)
    params = _doubles(coordinates.reshape(input.ndim, -1), input.device)
    dtype = _output_dtype(input, output, shape=out_shape)
    return _transform(input, output, dtype, out_shape, order, mode, cval, prefilter, _FROM_COORDINATES, params)
