"""scipy.ndimage's label and find_objects for kiln.scipy.ndimage, on every
device: the connected components of an n-d array's nonzero elements under a
3 x 3 x ... structuring element, numbered 1, 2, ... in the raster order of
their first elements, as SciPy numbers them.

The components come from parallel union-find over the grid
(include/kiln/device/connected_components.cuh: three kernels, each element
joined with its neighbours under the smaller root); every root is its
component's smallest flat index, so a running count of the roots numbers
the components in raster order."""
import operator

from ... import _core, asnumpy
from ..._numpy.creation import arange, asarray, ascontiguousarray, empty, zeros
from ..._numpy.math.elementwise import maximum, minimum, where
from ..._numpy.statistics.reductions import cumulative_sum
from ._measurements import _unravel
from ._morphology import generate_binary_structure
from ._util import _is_array, _np

_MAX_DIMS = 32  # KILN_CC_MAX_DIMS


def _structure(structure, ndim):
    """The structuring element as a NumPy bool array, checked as SciPy checks it."""
    np = _np()
    element = generate_binary_structure(ndim, 1) if structure is None else structure
    element = np.asarray(asnumpy(element), dtype=bool)
    if element.ndim != ndim:
        raise RuntimeError("structure: structure and input must have equal rank")
    if any(side != 3 for side in element.shape):
        raise ValueError("structure: structure dimensions must be equal to 3")
    return element


def _roots(foreground, offsets):
    """Each element's component root (its smallest flat index), -1 for background."""
    np = _np()
    from ..._cupy_kernels.raw import header_kernels, launch_size

    start, join, flatten = header_kernels("connected_components.cuh",
                                          ("kiln_cc_start", "kiln_cc_join_neighbours", "kiln_cc_flatten"))
    device, n = foreground.device, foreground.size
    marks = ascontiguousarray(foreground.astype("uint8")).reshape(-1)
    parent = empty(n, dtype="int64", device=device)
    grid, block = launch_size(n)
    count = np.int64(n)
    start(grid, block, (marks, parent, count))
    if offsets:
        shape = asarray(np.asarray(foreground.shape, dtype=np.int64), device=device)
        steps = asarray(np.asarray(offsets, dtype=np.int64).reshape(-1), device=device)
        join(grid, block, (marks, parent, shape, np.int32(foreground.ndim), steps, np.int32(len(offsets)), count))
    flatten(grid, block, (parent, count))
    return parent


def label(input, structure=None, output=None):
    """(labels, count): the connected components of input's nonzero
    elements, numbered 1 to count in raster order (0: background); with an
    output array, that array filled and the count alone returned."""
    np = _np()
    input = asarray(input)
    if input.dtype.kind == "c":
        raise TypeError("input: complex type not supported")
    element = _structure(structure, input.ndim)
    if _is_array(output):
        if tuple(output.shape) != tuple(input.shape):
            raise ValueError("output: output shape not correct")
        result = output
    else:
        dtype = "int32" if output is None else str(np.dtype(output))
        result = empty(input.shape, dtype=dtype, device=input.device)
    if input.ndim == 0 or input.size == 0:
        count = (1 if bool(input != 0) else 0) if input.ndim == 0 else 0
        result[...] = count
        return count if _is_array(output) else (result, count)
    foreground = input != 0
    centre = (1,) * input.ndim
    offsets = [tuple(int(i) - 1 for i in place) for place in zip(*np.nonzero(element)) if tuple(place) != centre]
    if input.ndim > _MAX_DIMS:
        raise ValueError(f"input: kiln labels arrays of up to {_MAX_DIMS} dimensions, not {input.ndim}")
    parent = _roots(foreground, offsets)
    is_root = parent == arange(input.size, dtype="int64", device=input.device)
    number = cumulative_sum(is_root.astype("int64"))
    count = int(number[-1])
    numbered = where(parent >= 0, number[where(parent >= 0, parent, 0)], 0).reshape(input.shape)
    if result.dtype.kind in "iu" and count > int(np.iinfo(str(result.dtype)).max):
        raise RuntimeError("output: insufficient bit-depth in requested output type")
    result[...] = numbered.astype(str(result.dtype))
    return count if _is_array(output) else (result, count)


def find_objects(input, max_label=0):
    """For each label 1 .. max_label (default: the largest in input), the
    tuple of slices of the smallest box holding it, or None where the label
    does not occur."""
    input = asarray(input)
    if input.dtype.kind not in "iub":
        raise TypeError("input: find_objects needs an integer array of labels")
    max_label = operator.index(max_label)
    flat = input.reshape(-1).astype("int64")
    if max_label < 1:
        max_label = int(flat.max()) if flat.size else 0
    if max_label < 1:
        return []
    labelled = (flat > 0) & (flat <= max_label)
    group = flat[labelled] - 1
    present = asnumpy(_core.bincount(group, minlength=max_label) > 0)
    places = _unravel(arange(input.size, dtype="int64", device=input.device)[labelled], input.shape)
    low, high = [], []
    for side, coordinate in zip(input.shape, places):
        # each label's smallest and largest coordinate along the axis
        smallest = zeros(max_label, dtype="int64", device=input.device) + side
        largest = zeros(max_label, dtype="int64", device=input.device) - 1
        minimum.at(smallest, group, coordinate)
        maximum.at(largest, group, coordinate)
        low.append(asnumpy(smallest))
        high.append(asnumpy(largest))
    return [tuple(slice(int(lo[i]), int(hi[i]) + 1) for lo, hi in zip(low, high)) if present[i] else None
            for i in range(max_label)]

__all__ = ["find_objects", "label"]
