"""Indexing CSR and CSC matrices as SciPy does: ints, slices, integer and
boolean arrays on each axis.

Outer selections (an int, a slice or a 1-d array on each axis) are matrix
products with selection matrices (one entry of 1 a row), so they stay
sparse and run on every device; inner selections (arrays on both axes,
broadcast together) and single elements look up each place among the
matrix's sorted keys. Assignment merges the new entries into the sorted
keys: existing places are overwritten, new ones inserted (with SciPy's
SparseEfficiencyWarning), the last of repeated places winning."""
import operator

from ..._numpy.creation import arange, asarray, ones, zeros
from ._base import _np, _spbase, index_dtype, stable_order, warn_efficiency


def _expand_key(key):
    """The key as (row key, column key), Ellipsis filled in."""
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is Ellipsis for k in key):
        at = next(i for i, k in enumerate(key) if k is Ellipsis)
        rest = [k for k in key if k is not Ellipsis]
        if len(rest) != len(key) - 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        key = tuple(rest[:at]) + (slice(None),) * (2 - len(rest)) + tuple(rest[at:])
    if len(key) == 1:
        key = (key[0], slice(None))
    if len(key) != 2:
        raise IndexError("invalid number of indices")
    return key


def _as_index(k, size, device):
    """('int', i), ('slice', positions) or ('array', positions) for one axis."""
    from ..._core import ndarray

    np = _np()
    if k is None:
        raise IndexError("None (newaxis) is not supported for sparse matrices")
    if isinstance(k, slice):
        return "slice", arange(*k.indices(size), dtype="int64", device=device)
    if isinstance(k, _spbase):
        raise IndexError("sparse matrices are not supported as indices")
    if isinstance(k, (bool, np.bool_)):
        raise IndexError("boolean scalars are not supported as indices")
    if isinstance(k, ndarray) and k.ndim == 0 and k.dtype.kind in "iu":
        k = int(k)
    elif isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu":
        k = int(k)
    if not isinstance(k, (list, tuple, ndarray, np.ndarray)):
        try:
            i = operator.index(k)
        except TypeError as e:
            raise IndexError(f"invalid index: {k!r}") from e
        if not -size <= i < size:
            raise IndexError(f"index ({i}) out of range")
        return "int", i % size
    positions = asarray(k, device=device)
    if positions.dtype.kind == "b":
        if positions.ndim != 1 or positions.shape[0] != size:
            raise IndexError(f"boolean index did not match indexed array along axis; size is {size} but "
                             f"corresponding boolean size is {positions.shape[0] if positions.ndim else 0}")
        from ..._numpy.indexing.nonzero import nonzero

        return "array", nonzero(positions)[0]
    if positions.size == 0:
        positions = positions.astype("int64")
    if positions.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    positions = positions.astype("int64")
    if positions.size:
        if int(positions.max()) >= size or int(positions.min()) < -size:
            raise IndexError("index out of bounds")
        positions = positions % size if size else positions
    return "array", positions


def _selection(positions, size, dtype, device, family, columns=False):
    """The matrix (of `family`'s CSR class) whose product picks `positions`
    out of `size` lines (rows of the result for a row selection, columns for
    a column one)."""
    count = positions.shape[0]
    kind = index_dtype(max(size, count), count)
    picker = family["csr"]((ones(count, dtype=dtype, device=device), positions.astype(kind),
                         arange(count + 1, dtype=kind, device=device)), shape=(count, size))
    return picker.transpose().tocsr() if columns else picker


def _look_up(matrix, rows, cols):
    """The values at the places (rows, cols) (arrays of one shape)."""
    from ..._numpy.math import elementwise as _elementwise
    from ..._core import _where
    from ..._numpy.sorting import searchsorted

    csr = matrix._canonical_copy()
    keys, data = csr._keys(), csr.data
    wanted = rows * max(matrix.shape[1], 1) + cols
    if keys.shape[0] == 0:
        return zeros(wanted.shape, dtype=str(data.dtype), device=matrix.device)
    at = _elementwise.minimum(searchsorted(keys, wanted.ravel()), keys.shape[0] - 1)
    found = keys[at] == wanted.ravel()
    return _where(found, data[at], zeros(1, dtype=str(data.dtype), device=matrix.device)).reshape(wanted.shape)


def _whole(key, size):
    """Whether an axis's key is a slice taking the whole axis in order."""
    return isinstance(key, slice) and key.indices(size) == (0, size, 1)


def get_item(matrix, key):
    from ..._numpy.manipulation.shape import broadcast_arrays

    row_key, col_key = _expand_key(key)
    m, n = matrix.shape
    device = matrix.device
    row_kind, rows = _as_index(row_key, m, device)
    col_kind, cols = _as_index(col_key, n, device)
    if matrix._kind == "array" and (row_kind == "int") != (col_kind == "int"):
        raise NotImplementedError("indexing a sparse array with one integer gives SciPy's 1-d sparse array, "
                                  "which kiln's 2-d sparse arrays do not offer; take a slice (A[i:i + 1]) or use "
                                  "a sparse matrix")
    if row_kind == "int" and col_kind == "int":
        return _look_up(matrix, asarray([rows], device=device), asarray([cols], device=device)).reshape(())
    if row_kind == "array" and col_kind == "array":
        rows, cols = broadcast_arrays(rows, cols)
        values = _look_up(matrix, rows, cols)
        if values.ndim <= 1:
            if values.size == 0:  # SciPy's empty selection stays sparse
                return type(matrix)((1, 0), dtype=str(matrix.dtype))
            return values.reshape(1, -1)  # SciPy's (1, k) dense matrix
        return type(matrix)(values)
    if (row_kind == "array" and rows.ndim != 1) or (col_kind == "array" and cols.ndim != 1):
        raise IndexError("multi-dimensional index arrays need an array on the other axis too")
    if row_kind == "int":
        rows = asarray([rows], device=device)
    if col_kind == "int":
        cols = asarray([cols], device=device)
    result = matrix.tocsr()
    if not _whole(row_key, m):
        result = _selection(rows, m, str(matrix.dtype), device, matrix._family).dot(result)
    if not _whole(col_key, n):
        result = result.dot(_selection(cols, n, str(matrix.dtype), device, matrix._family, columns=True))
    result = result.asformat(matrix.format)
    return result.copy() if result is matrix else result


def _assignment_places(matrix, key):
    """The rows and columns (int64 arrays of one shape) a key assigns to."""
    from ..._numpy.manipulation.shape import broadcast_arrays

    row_key, col_key = _expand_key(key)
    m, n = matrix.shape
    row_kind, rows = _as_index(row_key, m, matrix.device)
    col_kind, cols = _as_index(col_key, n, matrix.device)
    if row_kind == "int":
        rows = asarray([rows], device=matrix.device)
    if col_kind == "int":
        cols = asarray([cols], device=matrix.device)
    if row_kind == "array" and col_kind == "array":
        return broadcast_arrays(rows, cols)
    if row_kind != "array" or rows.ndim == 1:
        rows = rows.reshape(-1, 1)
    if col_kind == "array" and cols.ndim == 2 and row_kind != "array":
        return broadcast_arrays(rows, cols)
    return broadcast_arrays(rows, cols.reshape(1, -1))


def set_item(matrix, key, value):
    from ..._numpy.math import elementwise as _elementwise
    from ..._numpy.manipulation.joining import concatenate
    from ..._numpy.manipulation.shape import broadcast_to
    from ..._numpy.sorting import searchsorted

    rows, cols = _assignment_places(matrix, key)
    dtype = str(matrix.data.dtype)
    stored = None  # for a sparse value: its stored places (SciPy inserts only those)
    if isinstance(value, _spbase):
        pattern = value.copy()
        pattern.data = pattern.data * 0 + 1
        stored = asarray(pattern.toarray() != 0, device=matrix.device)
        value = value.toarray()
    values = asarray(value, device=matrix.device)
    if values.dtype.kind == "c" and matrix.dtype.kind != "c":
        raise TypeError("cannot assign complex values to a real sparse matrix")
    values = values.astype(dtype)
    # As SciPy: values of the places' shape but for axes of length one are reshaped.
    if tuple(values.squeeze().shape) == tuple(rows.squeeze().shape):
        values = values.reshape(rows.shape)
        stored = None if stored is None else stored.reshape(rows.shape)
    try:
        values = broadcast_to(values, rows.shape)
    except ValueError as e:
        raise ValueError(f"shape mismatch in assignment: {tuple(values.shape)} into {tuple(rows.shape)}") from e
    stored = None if stored is None else broadcast_to(stored, rows.shape).ravel()
    n_minor = matrix._swap(matrix.shape)[1]
    major, minor = matrix._swap((rows.ravel(), cols.ravel()))
    wanted = major * max(n_minor, 1) + minor
    values = values.ravel()
    if wanted.shape[0] == 0:
        return
    # The last assignment to a place wins, as in NumPy.
    order = stable_order(wanted)
    wanted, values = wanted[order], values[order]
    last = concatenate([wanted[1:] != wanted[:-1], asarray([True], device=matrix.device)])
    wanted, values = wanted[last], values[last]
    if stored is not None:
        stored = stored[order][last]
    matrix.sum_duplicates()
    keys = matrix._keys()
    if keys.shape[0]:
        at = _elementwise.minimum(searchsorted(keys, wanted), keys.shape[0] - 1)
        found = keys[at] == wanted
    else:
        at = zeros(wanted.shape, dtype="int64", device=matrix.device)
        found = zeros(wanted.shape, dtype="bool", device=matrix.device)
    data = matrix.data.copy()
    if bool(found.any()):
        data[at[found]] = values[found]
    # A place the value stores nothing at stays absent if it was (SciPy
    # zeroes the places it had, then inserts the value's stored entries).
    new = ~found if stored is None else ~found & stored
    if bool(new.any()):
        warn_efficiency("Changing the sparsity structure of a matrix is expensive.", stacklevel=4)
        keys = concatenate([keys, wanted[new]])
        data = concatenate([data, values[new]])
        order = stable_order(keys)
        keys, data = keys[order], data[order]
    matrix._set_entries(keys, data, n_minor)
    matrix._canonical = (True, True)
