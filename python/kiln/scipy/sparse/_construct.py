"""SciPy's constructors of sparse matrices: eye/identity, diags/spdiags,
random, kron/kronsum, the block builders (bmat, hstack, vstack,
block_diag), tril/triu and find, and of sparse arrays (eye_array,
diags_array, random_array, block_array). Each builds coordinate entries
with kiln's array operations, on the default device unless told. Built
from sparse arrays, the result is an array (SciPy's rule), else a matrix."""
import numbers
import operator

from ..._numpy.creation import arange, asarray, full, zeros
from ._base import ARRAY_FORMATS, FORMATS, _np, _spbase, check_shape, index_dtype, result_dtype, sparray


def _dtype(dtype, default="float64"):
    return str(_np().dtype(default if dtype is None else dtype))


def _family_of(*operands):
    """The classes a result of these operands takes: arrays if any is one."""
    return ARRAY_FORMATS if any(isinstance(a, sparray) for a in operands) else FORMATS


def _sparse(A, family):
    """A as a kiln sparse matrix or array (dense and SciPy's inputs in COO)."""
    return A if isinstance(A, _spbase) else family["coo"](A)


def _coo(data, rows, cols, shape, family=FORMATS):
    kind = index_dtype(max(shape), rows.shape[0])
    return family["coo"]((data, (rows.astype(kind), cols.astype(kind))), shape=shape)


def eye(m, n=None, k=0, dtype=float, format=None, *, device=None, _family=FORMATS):
    """Ones on diagonal k of an m x n matrix (SciPy's default format: dia)."""
    n = m if n is None else n
    m, n, k = operator.index(m), operator.index(n), operator.index(k)
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    start = arange(length, dtype="int64", device=device)
    coo = _coo(full(length, 1, dtype=_dtype(dtype), device=device), start - min(k, 0), start + max(k, 0), (m, n),
               _family)
    return coo.asformat(format or "dia")


def identity(n, dtype="d", format=None, *, device=None):
    return eye(n, n, dtype=dtype, format=format, device=device)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None, *, device=None, _family=FORMATS):
    """The matrix with each of `diagonals` laid along its offset."""
    from ..._numpy.manipulation.joining import concatenate

    np = _np()
    if isinstance(offsets, numbers.Integral) or (hasattr(offsets, "ndim") and offsets.ndim == 0):
        if len(diagonals) == 0 or _is_scalar_like(diagonals[0]):
            diagonals = [diagonals]
        offsets = [int(offsets)]
    else:
        offsets = [int(o) for o in (offsets.tolist() if hasattr(offsets, "tolist") else offsets)]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if len(set(offsets)) != len(offsets):
        raise ValueError("Repeated diagonal offsets.")
    arrays = [asarray(d, device=device) for d in diagonals]
    device = arrays[0].device if arrays else device
    if shape is None:
        length = max((a.size + abs(o) for a, o in zip(arrays, offsets)), default=0)
        shape = (length, length)
    m, n = check_shape(shape)
    if dtype is None:
        dtype = str(np.result_type(*[np.dtype(str(a.dtype)) for a in arrays])) if arrays else "float64"
    rows, cols, values = [], [], []
    for index, (values_k, k) in enumerate(zip(arrays, offsets)):
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        values_k = values_k.ravel()
        if values_k.size != 1 and values_k.size < length:
            raise ValueError(f"Diagonal length (index {index}: {values_k.size} at offset {k}) does not agree "
                             f"with matrix size ({m}, {n}).")
        if length == 0:
            continue
        start = arange(length, dtype="int64", device=device)
        rows.append(start - min(k, 0))
        cols.append(start + max(k, 0))
        values.append(full(length, values_k[0], dtype=_dtype(dtype), device=device) if values_k.size == 1
                      else values_k[:length].astype(_dtype(dtype)))
    if not rows:
        empty = zeros(0, dtype="int64", device=device)
        return _coo(zeros(0, dtype=_dtype(dtype), device=device), empty, empty, (m, n), _family).asformat(
            format or "dia")
    return _coo(concatenate(values), concatenate(rows), concatenate(cols), (m, n), _family).asformat(format or "dia")


def _is_scalar_like(x):
    return isinstance(x, numbers.Number) or (hasattr(x, "ndim") and x.ndim == 0)


def spdiags(data, diags, m=None, n=None, format=None):
    """The matrix whose diagonals at offsets `diags` are the rows of `data`."""
    if n is None and m is not None and not isinstance(m, numbers.Integral):
        m, n = m
    return FORMATS["dia"]((data, diags), shape=(m, n)).asformat(format)


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None, data_rvs=None, *, device=None,
           _family=FORMATS):
    """An m x n matrix with round(density * m * n) entries at distinct places
    drawn uniformly, their values uniform in [0, 1) (or from data_rvs(k))."""
    from ... import random as kiln_random

    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dtype = _dtype(dtype)
    if dtype not in ("float32", "float64"):
        raise NotImplementedError("type %s not supported" % dtype)
    size = m * n
    k = int(round(density * size))
    if random_state is None or isinstance(random_state, numbers.Integral):
        random_state = kiln_random.RandomState(random_state)
    places = random_state.choice(size, k, replace=False) if k else zeros(0, dtype="int64", device=device)
    places = asarray(places, device=device).astype("int64")
    values = data_rvs(k) if data_rvs is not None else random_state.rand(k)
    values = asarray(values, device=places.device).astype(dtype)
    return _coo(values, places // max(n, 1), places % max(n, 1), (m, n), _family).asformat(format)


def rand(m, n, density=0.01, format="coo", dtype=None, random_state=None, *, device=None):
    return random(m, n, density=density, format=format, dtype=dtype, random_state=random_state, device=device)


def kron(A, B, format=None):
    """The Kronecker product: block (i, j) is A[i, j] * B."""
    from ..._numpy.manipulation.rearranging import repeat, tile

    family = _family_of(A, B)
    A, B = _sparse(A, family).tocoo(), _sparse(B, family).tocoo()
    (ma, na), (mb, nb) = A.shape, B.shape
    shape = (ma * mb, na * nb)
    if A.nnz == 0 or B.nnz == 0:  # SciPy's empty product: float64, whatever the operands
        return _coo(zeros(0, dtype="float64", device=A.device), zeros(0, dtype="int64", device=A.device),
                    zeros(0, dtype="int64", device=A.device), shape, family).asformat(format or "coo")
    count_a, count_b = A.data.shape[0], B.data.shape[0]
    rows = repeat(A.row.astype("int64") * mb, count_b) + tile(B.row.astype("int64"), count_a)
    cols = repeat(A.col.astype("int64") * nb, count_b) + tile(B.col.astype("int64"), count_a)

    dtype = result_dtype(A.data.dtype, B.data.dtype)
    data = repeat(A.data.astype(dtype), count_b) * tile(B.data.astype(dtype), count_a)
    return _coo(data, rows, cols, shape, family).asformat(format or "coo")


def kronsum(A, B, format=None):
    """kron(I_n, A) + kron(B, I_m) for square A (m x m) and B (n x n)."""
    family = _family_of(A, B)
    A, B = _sparse(A, family), _sparse(B, family)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")

    dtype = result_dtype(A.data.dtype, B.data.dtype)
    left = kron(eye(B.shape[0], dtype=dtype, device=A.device, _family=family), A, format="coo")
    right = kron(B, eye(A.shape[0], dtype=dtype, device=A.device, _family=family), format="coo")
    return (left + right).asformat(format or "csr")


def bmat(blocks, format=None, dtype=None):
    """The matrix built of a 2-d grid of sparse blocks (None for zeros)."""
    from ..._numpy.manipulation.joining import concatenate

    grid = [list(row) for row in blocks]
    family = _family_of(*[b for row in grid for b in row])
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise ValueError("blocks must be 2-D")
    n_rows, n_cols = len(grid), len(grid[0])
    heights, widths = [None] * n_rows, [None] * n_cols
    for i in range(n_rows):
        for j in range(n_cols):
            block = grid[i][j]
            if block is None:
                continue
            block = _sparse(block, family)
            grid[i][j] = block
            if heights[i] is None:
                heights[i] = block.shape[0]
            elif heights[i] != block.shape[0]:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got blocks[{i},{j}].shape[0] "
                                 f"== {block.shape[0]}, expected {heights[i]}.")
            if widths[j] is None:
                widths[j] = block.shape[1]
            elif widths[j] != block.shape[1]:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got "
                                 f"blocks[{i},{j}].shape[1] == {block.shape[1]}, expected {widths[j]}.")
    heights = [h or 0 for h in heights]
    widths = [w or 0 for w in widths]
    present = [b for row in grid for b in row if b is not None]
    np = _np()
    if dtype is None:
        dtype = str(np.result_type(*[np.dtype(str(b.dtype)) for b in present])) if present else "float64"
    shape = (sum(heights), sum(widths))
    kinds = {b.format for b in present}
    rows, cols, values = [], [], []
    row_start = 0
    for i in range(n_rows):
        col_start = 0
        for j in range(n_cols):
            block = grid[i][j]
            if block is not None:
                coo = block.tocoo()
                rows.append(coo.row.astype("int64") + row_start)
                cols.append(coo.col.astype("int64") + col_start)
                values.append(coo.data.astype(str(np.dtype(dtype))))
            col_start += widths[j]
        row_start += heights[i]
    device = present[0].device if present else None
    if rows:
        result = _coo(concatenate(values), concatenate(rows), concatenate(cols), shape, family)
    else:
        empty = zeros(0, dtype="int64", device=device)
        result = _coo(zeros(0, dtype=str(np.dtype(dtype)), device=device), empty, empty, shape, family)
    if format is None and len(kinds) == 1 and kinds <= {"csr", "csc"} and (n_cols == 1 or n_rows == 1):
        format = kinds.pop()  # SciPy stacks CSR (CSC) blocks into CSR (CSC)
    return result.asformat(format or "coo")


def hstack(blocks, format=None, dtype=None):
    return bmat([list(blocks)], format=format, dtype=dtype)


def vstack(blocks, format=None, dtype=None):
    return bmat([[b] for b in blocks], format=format, dtype=dtype)


def block_diag(mats, format=None, dtype=None):
    mats = list(mats)
    grid = [[m if i == j else None for j in range(len(mats))] for i, m in enumerate(mats)]
    return bmat(grid, format=format, dtype=dtype)


def _triangle(A, k, format, lower):
    family = _family_of(A)
    A = _sparse(A, family).tocoo()
    rows, cols = A.row.astype("int64"), A.col.astype("int64")
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return _coo(A.data[keep], rows[keep], cols[keep], A.shape, family).asformat(format or "coo")


def tril(A, k=0, format=None):
    """The entries on and below diagonal k."""
    return _triangle(A, k, format, True)


def triu(A, k=0, format=None):
    """The entries on and above diagonal k."""
    return _triangle(A, k, format, False)


def find(A):
    """(rows, columns, values) of A's nonzero entries, repeats summed, in row-major order."""
    coo = FORMATS["coo"](A, copy=True)
    coo.sum_duplicates()
    keep = coo.data != 0
    return coo.row[keep], coo.col[keep], coo.data[keep]


def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    """eye as a sparse array."""
    return eye(m, n, k=k, dtype=dtype, format=format, device=device, _family=ARRAY_FORMATS)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=None, device=None):
    """diags as a sparse array."""
    return diags(diagonals, offsets, shape, format, dtype, device=device, _family=ARRAY_FORMATS)


def random_array(shape, *, density=0.01, format="coo", dtype=None, random_state=None, data_sampler=None,
                 device=None):
    """random as a sparse array of `shape` (data_sampler(size=k) draws the values)."""
    m, n = check_shape(shape)
    data_rvs = None if data_sampler is None else (lambda k: data_sampler(size=k))
    return random(m, n, density, format, dtype, random_state, data_rvs, device=device, _family=ARRAY_FORMATS)


def block_array(blocks, *, format=None, dtype=None):
    """bmat as a sparse array, whatever its blocks are."""
    result = bmat(blocks, format=format, dtype=dtype)
    return result if isinstance(result, sparray) else ARRAY_FORMATS[result.format](result)
