"""kiln.cusparse's in-place index sorts (CuPy's cupyx.cusparse.csrsort,
cscsort and coosort), against SciPy's sorted matrices."""
import numpy as np
import pytest
import scipy.sparse as sp

import kiln
import kiln.cusparse as cusparse
import kiln.scipy.sparse as ks


def _unsorted(dtype):
    rng = np.random.default_rng(5)
    dense = (rng.random((6, 7)) < 0.4) * rng.integers(1, 9, (6, 7))
    return sp.csr_matrix(dense.astype(dtype)), dense.astype(dtype)


def _shuffled(matrix, rng):
    """The compressed matrix with each line's entries in a random order."""
    indices, data = matrix.indices.copy(), matrix.data.copy()
    for start, stop in zip(matrix.indptr[:-1], matrix.indptr[1:]):
        order = rng.permutation(stop - start) + start
        indices[start:stop], data[start:stop] = indices[order], data[order]
    return indices, data


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_compressed_sorts_match_scipy(device, dtype, fmt):
    reference, dense = _unsorted(dtype)
    reference = reference.asformat(fmt)
    indices, data = _shuffled(reference, np.random.default_rng(1))
    cls = ks.csr_matrix if fmt == "csr" else ks.csc_matrix
    x = cls((kiln.asarray(data, device=device), kiln.asarray(indices, device=device),
             kiln.asarray(reference.indptr, device=device)), shape=reference.shape)
    assert getattr(cusparse, f"{fmt}sort")(x) is None  # in place, as CuPy's
    assert np.array_equal(kiln.asnumpy(x.indices), reference.indices)
    assert np.array_equal(kiln.asnumpy(x.data), reference.data)
    assert np.array_equal(kiln.asnumpy(x.toarray()), dense)


@pytest.mark.parametrize("sort_by", ["r", "c"])
def test_coosort_orders_by_row_or_column(device, sort_by):
    _, dense = _unsorted("float64")
    coo = sp.coo_matrix(dense)
    order = np.random.default_rng(2).permutation(coo.nnz)
    x = ks.coo_matrix((kiln.asarray(coo.data[order], device=device), (kiln.asarray(coo.row[order], device=device),
                       kiln.asarray(coo.col[order], device=device))), shape=coo.shape)
    cusparse.coosort(x, sort_by)
    row, col = kiln.asnumpy(x.row), kiln.asnumpy(x.col)
    keys = list(zip(row, col)) if sort_by == "r" else list(zip(col, row))
    assert keys == sorted(keys)
    assert np.array_equal(kiln.asnumpy(x.toarray()), dense)


def test_the_wrong_format_or_order_is_refused():
    x = ks.csr_matrix(kiln.eye(3))
    with pytest.raises(TypeError, match="x: cscsort takes a csc_matrix"):
        cusparse.cscsort(x)
    with pytest.raises(ValueError, match="sort_by"):
        cusparse.coosort(x.tocoo(), "x")
