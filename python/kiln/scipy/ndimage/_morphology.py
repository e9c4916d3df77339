"""scipy.ndimage's mathematical morphology for kiln.scipy.ndimage, on every
device: binary erosion and dilation and what is built of them (opening,
closing, hit-or-miss, propagation, hole filling), and the grey-level
operations on the minimum and maximum filters.

A binary erosion is the AND, a dilation the OR, of the input's shifted views
over the structuring element's set places (the input extended by
``border_value``), each pass fused into one kernel; iterated operations run
pass after pass until the count is reached or, for ``iterations < 1``,
nothing changes. A dilation is the erosion of the complement with the
element reflected, which is how SciPy places its origin; the grey operations
take SciPy's ``structure`` values off (erosion) or add them (dilation) in
double precision before the result is cast, as SciPy's C code does."""
import operator
import warnings

from ... import _core, asnumpy
from ..._numpy.math import elementwise as _elementwise
from ..._numpy.creation import asarray, full, zeros
from ._filters import _axes, _cast, _extremum_filter, _min_or_max, _offsets, _padded, _per_axis, _window, _windowed
from ._util import _finish, _is_array, _np


def _reflected(a):
    return a[(slice(None, None, -1),) * a.ndim]


def _origins(origin, count):
    return [operator.index(o) for o in _per_axis(origin, count, "origin")]


def _mirrored_origins(origins, shape):
    """The origins of an element reflected about its centre: negated, and
    one lower along axes of even length, whose centre is not a place."""
    return [-o - (0 if size & 1 else 1) for o, size in zip(origins, shape)]


def generate_binary_structure(rank, connectivity):
    """The structuring element of `rank` dimensions, 3 places a side, whose
    set places are those at most `connectivity` unit steps from the centre."""
    np = _np()
    connectivity = max(connectivity, 1)
    if rank < 1:
        return asarray(np.array(True))
    steps = np.abs(np.indices([3] * rank) - 1).sum(axis=0)
    return asarray(steps <= connectivity)


def iterate_structure(structure, iterations, origin=None):
    """The structuring element dilated by itself `iterations - 1` times, and,
    when `origin` is given, the origin scaled to match."""
    np = _np()
    structure = asnumpy(structure)
    if iterations < 2:
        grown = asarray(structure.copy())
    else:
        extra = iterations - 1
        shape = [size + extra * (size - 1) for size in structure.shape]
        seed = np.zeros(shape, bool)
        seed[tuple(slice(extra * (size // 2), extra * (size // 2) + size) for size in structure.shape)] = \
            structure != 0
        grown = binary_dilation(seed, structure, iterations=extra)
    if origin is None:
        return grown
    return grown, [iterations * o for o in _origins(origin, structure.ndim)]


def _binary_structure(structure, count):
    """The structuring element as a NumPy bool array over `count` axes; as
    in CuPy, an int or a tuple gives a box of that side or shape."""
    np = _np()
    if structure is None:
        return np.abs(np.indices([3] * count) - 1).sum(axis=0) <= 1 if count else np.array(True)
    if isinstance(structure, int):
        structure = (structure,) * count
    if isinstance(structure, tuple):
        return np.ones(structure, bool)
    structure = asnumpy(structure).astype(bool)
    if structure.ndim != count:
        raise RuntimeError("structure and input must have same dimensionality")
    if structure.size < 1:
        raise RuntimeError("structure must not be empty")
    return structure


def _binary_pass(x, structure, origins, border_value, axes, dilate):
    """One erosion (AND) or dilation (OR) pass of the bool array x over the
    element's set places, x extended by `border_value` beyond its edges."""
    padded = _padded(x, structure.shape, origins, ["constant"] * len(axes), bool(border_value), axes)
    result = None
    for offsets in _offsets(structure):
        view = _window(padded, axes, offsets, x.shape)
        result = view if result is None else (result | view if dilate else result & view)
    if result is None:  # an element with no set place: the empty AND or OR
        result = full(x.shape, not dilate, dtype="bool", device=x.device)
    return result


def _binary_morphology(input, structure, iterations, mask, output, border_value, origin, axes, dilate):
    """Binary erosion or dilation, iterated, kept to the mask's set places."""
    try:
        iterations = operator.index(iterations)
    except TypeError as e:
        raise TypeError("iterations parameter should be an integer") from e
    input = asarray(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    axes = _axes(axes, input.ndim)
    structure = _binary_structure(structure, len(axes))
    origins = _origins(origin, len(axes))
    if dilate:
        structure = _reflected(structure)
        origins = _mirrored_origins(origins, structure.shape)
    if _is_array(output) and output.dtype.kind == "c":
        raise TypeError("Complex output type not supported")
    x = input != 0
    keep = None
    if mask is not None:
        mask = asarray(mask, device=input.device)
        if tuple(mask.shape) != tuple(input.shape):
            raise RuntimeError("mask and input must have equal sizes")
        keep = mask == 0
    if input.size:
        count = 0
        while True:
            result = _binary_pass(x, structure, origins, border_value, axes, dilate)
            if keep is not None:
                result = _core._where(keep, x, result)
            count += 1
            if count == iterations or (iterations < 1 and not bool((result != x).any())):
                x = result
                break
            x = result
    if _is_array(output):
        if tuple(output.shape) != tuple(input.shape):
            raise RuntimeError("output shape not correct")
        output[...] = x
        return output
    return x


def binary_erosion(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                   brute_force=False, *, axes=None):
    """Where the structuring element, placed at each element, fits inside the
    input's set (non-zero) elements; `iterations` times, or until nothing
    changes when below 1."""
    return _binary_morphology(input, structure, iterations, mask, output, border_value, origin, axes, False)


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0,
                    brute_force=False, *, axes=None):
    """Where the reflected structuring element, placed at each element, meets
    one of the input's set elements; `iterations` times, or until nothing
    changes when below 1."""
    return _binary_morphology(input, structure, iterations, mask, output, border_value, origin, axes, True)


def _structure_for(input, structure, axes):
    """SciPy's default element for the opening and closing: connectivity 1
    over the filtered axes."""
    if structure is not None:
        return structure
    return _binary_structure(None, len(_axes(axes, asarray(input).ndim)))


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """The dilation of the erosion: removes set regions smaller than the element."""
    structure = _structure_for(input, structure, axes)
    eroded = binary_erosion(input, structure, iterations, mask, None, border_value, origin, axes=axes)
    return binary_dilation(eroded, structure, iterations, mask, output, border_value, origin, axes=axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0,
                   brute_force=False, *, axes=None):
    """The erosion of the dilation: fills gaps smaller than the element."""
    structure = _structure_for(input, structure, axes)
    dilated = binary_dilation(input, structure, iterations, mask, None, border_value, origin, axes=axes)
    return binary_erosion(dilated, structure, iterations, mask, output, border_value, origin, axes=axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0, origin2=None, *,
                       axes=None):
    """Where structure1 fits the set elements and structure2 (by default
    structure1's complement) fits the unset ones."""
    input = asarray(input)
    count = len(_axes(axes, input.ndim))
    structure1 = _binary_structure(structure1, count)
    structure2 = ~structure1 if structure2 is None else _binary_structure(structure2, count)
    origins1 = _origins(origin1, count)
    origins2 = origins1 if origin2 is None else _origins(origin2, count)
    hits = _binary_morphology(input, structure1, 1, None, None, 0, origins1, axes, False)
    # The misses: no set element under structure2, placed unreflected.
    x = input != 0
    axes = _axes(axes, input.ndim)
    misses = ~_binary_pass(x, structure2, origins2, 0, axes, True) if input.size else x
    result = hits & misses
    if _is_array(output):
        output[...] = result
        return output
    return result


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0, origin=0, *, axes=None):
    """The input dilated within the mask until nothing changes."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin, axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """The input with every unset region that the border cannot reach set:
    the background grown in from the border through unset elements, inverted."""
    input = asarray(input)
    background = zeros(input.shape, dtype="bool", device=input.device)
    reached = binary_dilation(background, structure, -1, input == 0, None, 1, origin, axes=axes)
    if _is_array(output):
        output[...] = ~reached
        return output
    return ~reached


def _grey(input, size, footprint, structure, output, mode, cval, origin, axes, minimum):
    """SciPy's minimum (maximum) filter with a structuring function: the
    extremum of the input less (plus) the structure's value at each place of
    the footprint (all of the structure's when None)."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=4)
    if structure is None:
        return _extremum_filter(input, size, footprint, output, mode, cval, origin, axes, minimum)
    structure = asnumpy(structure).astype("float64")
    footprint = _np().ones(structure.shape, bool) if footprint is None else asnumpy(footprint).astype(bool)
    if structure.shape != footprint.shape:
        raise RuntimeError("structure array has incorrect shape")
    input, dtype, footprint, windows = _windowed(input, None, footprint, output, mode, cval, origin, axes)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if windows is None:
        return _finish(input.astype(str(dtype)), input, output)
    sign = -1.0 if minimum else 1.0
    shifted = (view + sign * structure[offsets].item() for view, offsets in zip(windows, _offsets(footprint)))
    return _finish(_cast(_min_or_max(shifted, minimum), dtype), input, output)


def _need_element(size, footprint, structure):
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")


def grey_erosion(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """The minimum of input - structure over each placement of the footprint."""
    _need_element(size, footprint, structure)
    return _grey(input, size, footprint, structure, output, mode, cval, origin, axes, True)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    """The maximum of input + structure over each placement of the reflected
    footprint."""
    _need_element(size, footprint, structure)
    input = asarray(input)
    count = len(_axes(axes, input.ndim))
    if structure is not None:
        structure = _reflected(asnumpy(structure))
    if footprint is not None:
        footprint = _reflected(asnumpy(footprint))
    element = footprint if footprint is not None else structure
    shape = element.shape if element is not None else _per_axis(size, count, "size")
    origins = _mirrored_origins(_origins(origin, count), shape)
    return _grey(input, size, footprint, structure, output, mode, cval, origins, axes, False)


def grey_opening(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """The grey dilation of the grey erosion."""
    eroded = grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_dilation(eroded, size, footprint, structure, output, mode, cval, origin, axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """The grey erosion of the grey dilation."""
    dilated = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    return grey_erosion(dilated, size, footprint, structure, output, mode, cval, origin, axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                           cval=0.0, origin=0, *, axes=None):
    """The grey dilation less the grey erosion (a dtype `output` is not
    used, as in SciPy, whose composite operations pass only arrays on)."""
    dilated = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    if _is_array(output):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin, axes=axes)
        return _elementwise.subtract(dilated, output, out=output)
    return dilated - grey_erosion(input, size, footprint, structure, None, mode, cval, origin, axes=axes)


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None, mode="reflect",
                          cval=0.0, origin=0, *, axes=None):
    """The grey dilation plus the grey erosion less twice the input, each
    step in the erosion's dtype."""
    input = asarray(input)
    dilated = grey_dilation(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    target = output if _is_array(output) else None
    total = grey_erosion(input, size, footprint, structure, target, mode, cval, origin, axes=axes)
    _elementwise.add(dilated, total, out=total)
    _elementwise.subtract(total, input, out=total)
    return _elementwise.subtract(total, input, out=total)


def _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, white):
    input = asarray(input)
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    first, second = (grey_erosion, grey_dilation) if white else (grey_dilation, grey_erosion)
    result = first(input, size, footprint, structure, None, mode, cval, origin, axes=axes)
    result = second(result, size, footprint, structure, output, mode, cval, origin, axes=axes)
    if input.dtype.kind == "b" and result.dtype.kind == "b":
        return _elementwise.bitwise_xor(input, result, out=result)
    operands = (input, result) if white else (result, input)
    return _elementwise.subtract(*operands, out=result)


def white_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """The input less its grey opening."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, True)


def black_tophat(input, size=None, footprint=None, structure=None, output=None, mode="reflect", cval=0.0,
                 origin=0, *, axes=None):
    """The grey closing less the input."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, False)


__all__ = ["binary_closing", "binary_dilation", "binary_erosion", "binary_fill_holes", "binary_hit_or_miss",
           "binary_opening", "binary_propagation", "black_tophat", "generate_binary_structure", "grey_closing",
           "grey_dilation", "grey_erosion", "grey_opening", "iterate_structure", "morphological_gradient",
           "morphological_laplace", "white_tophat"]
