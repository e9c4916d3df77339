"""scipy.ndimage's exact Euclidean distance transform for
kiln.scipy.ndimage, on every device and in any number of dimensions.

Each axis in turn is laid out last and contiguous and handed to one kernel
(include/kiln/device/distance_transform.cuh) that finds, along every line,
the nearest root of the squared distances so far; after the last axis these
are the squared distances to the nearest feature (zero element) in the
whole image. The roots each pass took give, gathered back through the
passes, the coordinates of that feature (``return_indices``)."""

from ..._numpy.creation import asarray, empty
from ..._numpy.math.elementwise import maximum, sqrt, where
from ..._numpy.indexing.gathering import take_along_axis
from ..._numpy.manipulation.joining import stack
from ..._numpy.manipulation.shape import moveaxis
from ..._cupy_kernels.raw import header_kernels, launch_size
from ._filters import _per_axis
from ._util import _is_array, _np


def _axis_pass(squared, axis, weight):
    """The squared distances after the pass along `axis`, and the root
    (coordinate along `axis`) each place took, -1 where there was none."""
    np = _np()
    lines = moveaxis(squared, axis, -1).copy()
    n = lines.shape[-1]
    count = lines.size // n
    out = empty(lines.shape, dtype="float64", device=squared.device)
    nearest = empty(lines.shape, dtype="int64", device=squared.device)
    roots = empty((count, n), dtype="int64", device=squared.device)
    bounds = empty((count, n + 1), dtype="float64", device=squared.device)
    kernel, = header_kernels("distance_transform.cuh", ("kiln_distance_transform_axis",))
    kernel(*launch_size(count, threads=128, max_blocks=None),
           (lines, out, nearest, roots, bounds, np.int64(n), np.int64(count), np.float64(weight)))
    return moveaxis(out, -1, axis), moveaxis(nearest, -1, axis)


def _check_arguments(distances, indices, return_distances, return_indices):
    errors = []
    if not return_distances and not return_indices:
        errors.append("at least one of return_distances/return_indices must be True")
    if _is_array(distances) and not return_distances:
        errors.append("return_distances must be True if distances is supplied")
    if _is_array(indices) and not return_indices:
        errors.append("return_indices must be True if indices is supplied")
    if errors:
        raise RuntimeError(", ".join(errors))


def _check_distances(distances, shape, dtype):
    if tuple(distances.shape) != shape:
        raise RuntimeError("distances array has wrong shape")
    if str(distances.dtype) != dtype:
        raise RuntimeError(f"distances array must be {dtype}")


def _check_indices(indices, shape):
    """An indices array of shape (ndim,) + shape and an integer dtype of at
    least 16 bits (CuPy's smallest) that holds every coordinate."""
    np = _np()
    if tuple(indices.shape) != (len(shape),) + shape:
        raise RuntimeError("indices array has wrong shape")
    dtype = np.dtype(str(indices.dtype))
    if dtype.kind not in "iu" or dtype.itemsize < 2 or np.iinfo(dtype).max < max(shape, default=1) - 1:
        raise RuntimeError("indices array must be of an integer dtype of at least 16 bits that holds "
                           "every coordinate")


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False, distances=None,
                           indices=None, *, block_params=None, float64_distances=True):
    """The Euclidean distance of every element to the nearest zero element
    (a feature), with `sampling` the spacing along each axis; and/or the
    coordinates of that feature (int32, one array an axis, stacked).

    ``distances``/``indices`` are arrays to write into (then not returned).
    CuPy's ``float64_distances=False`` gives float32 distances; its
    ``block_params`` tune CuPy's own algorithm and change no result here, so
    they are accepted and not used."""
    _check_arguments(distances, indices, return_distances, return_indices)
    input = asarray(input)
    if input.ndim == 0:
        input = input.reshape(1)
    shape = tuple(input.shape)
    distance_dtype = "float64" if float64_distances else "float32"
    if _is_array(distances):
        _check_distances(distances, shape, distance_dtype)
    if _is_array(indices):
        _check_indices(indices, shape)
    spacing = [float(s) for s in _per_axis(1.0 if sampling is None else sampling, input.ndim, "sampling")]
    squared = where(input != 0, -1.0, 0.0)
    coordinates = []
    if input.size:
        for axis in range(input.ndim):
            squared, nearest = _axis_pass(squared, axis, spacing[axis] ** 2)
            if return_indices:
                taken = maximum(nearest, 0)
                coordinates = [take_along_axis(c, taken, axis) for c in coordinates] + [nearest]
    results = []
    if return_distances:
        result = sqrt(maximum(squared, 0.0)).astype(distance_dtype)
        if _is_array(distances):
            distances[...] = result
        else:
            results.append(result)
    if return_indices:
        result = stack(coordinates) if coordinates else empty((input.ndim,) + shape, dtype="int32",
                                                               device=input.device)
        if _is_array(indices):
            indices[...] = result
        else:
            results.append(result.astype("int32"))
    if len(results) == 2:
        return tuple(results)
    return results[0] if results else None


__all__ = ["distance_transform_edt"]
