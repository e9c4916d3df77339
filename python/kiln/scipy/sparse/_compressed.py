"""The compressed formats, CSR and CSC, as one class over a major and a
minor axis (rows and columns for CSR, the other way round for CSC).

Each operation works on the stored entries with kiln's array operations,
so it runs on every device: sorting by (major, minor) key canonicalises,
``add.at`` sums entries into rows or dense results, the product of two
matrices expands each entry of the left one over the matching row of the
right one and sums the products that land on one place. Results keep
SciPy's formats and its rules on explicit zeros (sums and products drop
them, conversions keep them)."""
from ..._numpy.math import elementwise as _elementwise
from ..._numpy.creation import arange, asarray, zeros
from ._base import (FORMATS, _axis, _dense, _is_host_sparse, _np, check_shape, expand_pointers, index_dtype,
                    is_scalar, line_sums, pointers, result_dtype, sorted_sums, _spbase, stable_order,
                    warn_efficiency, with_dtype)


def _array_types():
    """kiln's and NumPy's array types (a 0-d array is not a scalar to dot)."""
    from ..._core import ndarray

    return (ndarray, _np().ndarray)


class _compressed_matrix(_spbase):
    """A CSR or CSC matrix: ``data``, ``indices`` (minor index of each
    entry) and ``indptr`` (where each major line's entries start)."""

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        coo_matrix = self._family["coo"]

        device = None
        if isinstance(arg1, _spbase):
            source = arg1.asformat(self.format)
            copy = copy or source is arg1
            data, indices, indptr = source.data, source.indices, source.indptr
            shape = source.shape if shape is None else shape
            device = source.device
        elif _is_host_sparse(arg1):
            source = arg1.asformat(self.format)
            data, indices, indptr = (asarray(source.data), asarray(source.indices), asarray(source.indptr))
            shape = source.shape if shape is None else shape
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2 and is_scalar(arg1[0]) and is_scalar(arg1[1]):
            shape = check_shape(arg1)
            major, _ = self._swap(shape)
            device = None
            data = zeros(0, dtype=dtype or "float64")
            indices = zeros(0, dtype="int32")
            indptr = zeros(major + 1, dtype="int32")
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            coo = coo_matrix(arg1, shape=shape, dtype=dtype).asformat(self.format)
            data, indices, indptr, shape = coo.data, coo.indices, coo.indptr, coo.shape
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = arg1
            device = getattr(data, "device", None)
            data = _dense(data, device)
            indices, indptr = _dense(indices, data.device), _dense(indptr, data.device)
            if shape is None:
                major = indptr.shape[0] - 1
                minor = int(indices.max()) + 1 if indices.shape[0] else 0
                shape = self._swap((major, minor))
        else:
            dense = _dense(arg1, None)
            if dense.ndim < 2:
                dense = dense.reshape(1, -1)
            if dense.ndim != 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            coo = coo_matrix(dense, dtype=dtype).asformat(self.format)
            data, indices, indptr, shape = coo.data, coo.indices, coo.indptr, coo.shape
            copy = False
        super().__init__(data.device)
        self._shape = check_shape(shape)
        data, cast = with_dtype(data, dtype)
        copy = copy and not cast
        if data.ndim != 1 or indices.ndim != 1 or indptr.ndim != 1:
            raise ValueError("data, indices, and indptr should be 1-D")
        if indptr.shape[0] != self._swap(self._shape)[0] + 1:
            raise ValueError(f"index pointer size ({indptr.shape[0]}) should be "
                             f"({self._swap(self._shape)[0] + 1})")
        if data.shape[0] != indices.shape[0]:
            raise ValueError("indices and data should have the same size")
        kind = index_dtype(max(self._shape), indices.shape[0])
        self.data = data.copy() if copy else data
        self.indices = indices.astype(kind) if str(indices.dtype) != kind or copy else indices
        self.indptr = indptr.astype(kind) if str(indptr.dtype) != kind or copy else indptr
        self._canonical = None

    # -- the two orientations ---------------------------------------------
    def _swap(self, pair):
        """(rows, columns) as (major, minor) for this format, and back."""
        return pair if self.format == "csr" else (pair[1], pair[0])

    def _with(self, data, indices=None, indptr=None, shape=None, format=None):
        """A matrix of this (or the given) format sharing the structure unless given."""
        cls = self._family[format or self.format]
        return cls((data, self.indices if indices is None else indices, self.indptr if indptr is None else indptr),
                   shape=self._shape if shape is None else shape)

    @property
    def dtype(self):
        from ..._ndarray.dtypes import dtype

        return dtype(str(self.data.dtype))

    def _majors(self):
        """The major index of each entry, kept while indptr is the same array
        (every product and conversion needs it; building it is a repeat)."""
        cached = getattr(self, "_majors_of", None)
        if cached is None or cached[0] is not self.indptr or cached[1].shape[0] != self.data.shape[0]:
            cached = (self.indptr, expand_pointers(self.indptr, self.data.shape[0]))
            self._majors_of = cached
        return cached[1]

    def _coordinates(self):
        """(rows, columns) of the stored entries, int64."""
        major, minor = self._majors(), self.indices.astype("int64")
        return (major, minor) if self.format == "csr" else (minor, major)

    def _keys(self):
        n_minor = self._swap(self._shape)[1]
        return self._majors() * max(n_minor, 1) + self.indices.astype("int64")

    # -- structure ----------------------------------------------------------
    def _structure_flags(self):
        if self._canonical is None:
            keys = self._keys()
            if keys.shape[0] < 2:
                self._canonical = (True, True)
            else:
                step = keys[1:] - keys[:-1]
                self._canonical = (bool((step >= 0).all()), bool((step > 0).all()))
        return self._canonical

    @property
    def has_sorted_indices(self):
        return self._structure_flags()[0]

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._canonical = (bool(value), bool(value) and self._structure_flags()[1])

    @property
    def has_canonical_format(self):
        return self._structure_flags()[1]

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        sorted_ = self._structure_flags()[0]
        self._canonical = (sorted_ or bool(value), bool(value))

    def _set_entries(self, keys, data, n_minor):
        n_major = self._swap(self._shape)[0]
        major = keys // max(n_minor, 1)
        kind = index_dtype(max(self._shape), keys.shape[0])
        self.indptr = pointers(major, n_major, self.device).astype(kind)
        self.indices = (keys - major * max(n_minor, 1)).astype(kind)
        self.data = data

    def sum_duplicates(self):
        """Sort each line's entries and add up those at one place, in place."""
        if self.has_canonical_format:
            return
        keys, data = sorted_sums(self._keys(), self.data)
        self._set_entries(keys, data, self._swap(self._shape)[1])
        self._canonical = (True, True)

    def sort_indices(self):
        """Sort each line's entries by minor index, in place (duplicates kept)."""
        if self.has_sorted_indices:
            return
        order = stable_order(self._keys())
        self.indices, self.data = self.indices[order], self.data[order]
        self._canonical = None

    def sorted_indices(self):
        result = self.copy()
        result.sort_indices()
        return result

    def eliminate_zeros(self):
        """Drop the stored zeros, in place."""
        keep = self.data != 0
        if bool(keep.all()):
            return
        keys = self._keys()[keep]
        flags = self._canonical
        self._set_entries(keys, self.data[keep], self._swap(self._shape)[1])
        self._canonical = flags

    def prune(self):
        nnz = int(self.indptr[-1])
        self.indices, self.data = self.indices[:nnz], self.data[:nnz]

    # -- conversions --------------------------------------------------------
    def tocoo(self, copy=False):
        coo_matrix = self._family["coo"]

        rows, cols = self._coordinates()
        kind = str(self.indices.dtype)
        result = coo_matrix((self.data.copy() if copy else self.data, (rows.astype(kind), cols.astype(kind))),
                            shape=self._shape)
        result._canonical = self.format == "csr" and self.has_canonical_format
        return result

    def _reoriented(self, format):
        """The same matrix in the other compressed format: entries sorted by
        the new major index, then the old (duplicates kept, as SciPy's)."""
        rows, cols = self._coordinates()
        major, minor = (rows, cols) if format == "csr" else (cols, rows)
        n_major, n_minor = self._shape if format == "csr" else (self._shape[1], self._shape[0])
        order = stable_order(major * max(n_minor, 1) + minor)
        kind = index_dtype(max(self._shape), self.data.shape[0])
        return self._family[format]((self.data[order], minor[order].astype(kind),
                                 pointers(major[order], n_major, self.device).astype(kind)), shape=self._shape)

    def tocsr(self, copy=False):
        if self.format == "csr":
            return self.copy() if copy else self
        return self._reoriented("csr")

    def tocsc(self, copy=False):
        if self.format == "csc":
            return self.copy() if copy else self
        return self._reoriented("csc")

    def toarray(self, order=None, out=None):
        rows, cols = self._coordinates()
        if out is None:
            out = zeros(self._shape, dtype=str(self.data.dtype), order=order or "C", device=self.device)
        else:
            out[...] = 0
        if rows.shape[0]:
            _elementwise.add.at(out, (rows, cols), self.data)
        return out

    def get(self, stream=None):
        import scipy.sparse

        cls = getattr(scipy.sparse, f"{self.format}_{self._kind}")
        return cls((self.data.get(), self.indices.get(), self.indptr.get()), shape=self._shape)

    def astype(self, t):
        dtype = str(_np().dtype(t))
        if dtype == str(self.data.dtype):
            return self.copy()
        return self._with(self.data.astype(dtype))

    def conjugate(self, copy=True):
        if self.dtype.kind != "c":
            return self.copy() if copy else self
        return self._with(self.data.conj())

    def copy(self):
        result = self._with(self.data.copy(), self.indices.copy(), self.indptr.copy())
        result._canonical = self._canonical
        return result

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        other = "csc" if self.format == "csr" else "csr"
        data, indices, indptr = self.data, self.indices, self.indptr
        if copy:
            data, indices, indptr = data.copy(), indices.copy(), indptr.copy()
        return self._family[other]((data, indices, indptr), shape=(self._shape[1], self._shape[0]))

    def reshape(self, *shape, order="C"):
        return self.tocoo().reshape(*shape, order=order).asformat(self.format)

    # -- elementwise on the stored values -----------------------------------
    def _map(self, function):
        return self._with(function(self.data))

    def __neg__(self):
        if self.dtype.kind == "b":
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._map(lambda d: -d)

    def __abs__(self):
        return self._map(abs)

    def __round__(self, ndigits=0):
        return self._map(lambda d: _elementwise.round(d, ndigits))

    def power(self, n, dtype=None):
        if not is_scalar(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:  # SciPy's refusal: every absent entry would become 1
            raise NotImplementedError("zero power is not supported as it would densify the matrix. "
                                      "Use `ones(A.shape, dtype=A.dtype)` for this case.")
        data = self.data if dtype is None else self.data.astype(str(_np().dtype(dtype)))
        return self._with(data ** n)

    def _scaled(self, factor):
        return self._with(self.data * factor)

    # -- arithmetic -----------------------------------------------------------
    def _entries(self):
        rows, cols = self._coordinates()
        return rows, cols, self.data

    def _from_entries(self, shape, rows, cols, data, format=None, drop_zeros=True):
        """The canonical matrix of `format` holding the entries (summed where
        they share a place; zeros dropped unless told)."""
        coo_matrix = self._family["coo"]

        kind = index_dtype(max(shape), rows.shape[0])
        result = coo_matrix((data, (rows.astype(kind), cols.astype(kind))), shape=shape).asformat(
            format or self.format)
        result.sum_duplicates()
        if drop_zeros:
            result.eliminate_zeros()
        return result

    def _add_sparse(self, other, sign):
        if other.shape != self._shape:
            raise ValueError("inconsistent shapes")
        from ..._numpy.manipulation.joining import concatenate

        rows, cols, data = self._entries()
        orows, ocols, odata = other.tocsr()._entries() if other.format not in ("csr", "csc") else other._entries()
        dtype = result_dtype(self.data.dtype, odata.dtype)
        values = concatenate([data.astype(dtype), (odata if sign > 0 else -odata).astype(dtype)])
        return self._from_entries(self._shape, concatenate([rows, orows]), concatenate([cols, ocols]), values)

    def __add__(self, other):
        if is_scalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse matrix is not supported")
        if isinstance(other, _spbase):
            return self._add_sparse(other, 1)
        dense = _dense(other, self.device)
        return self.toarray() + dense

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        if is_scalar(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("subtracting a nonzero scalar from a sparse matrix is not supported")
        if isinstance(other, _spbase):
            return self._add_sparse(other, -1)
        return self.toarray() - _dense(other, self.device)

    def __rsub__(self, other):
        if is_scalar(other):
            if other == 0:
                return -self.copy()
            raise NotImplementedError("subtracting a sparse matrix from a nonzero scalar is not supported")
        return _dense(other, self.device) - self.toarray()

    def __mul__(self, other):
        if is_scalar(other):
            return self._scaled(other)
        return self.dot(other)

    def __rmul__(self, other):
        if is_scalar(other):
            return self._scaled(other)
        # other @ self == (self.T @ other.T).T
        other = _dense(other, self.device)
        if other.ndim == 1:
            return self.transpose().dot(other)
        return self.transpose().dot(other.T).T

    def __truediv__(self, other):
        """Division by a scalar (real data in float64, as SciPy's), by a
        sparse matrix (dense: 0/0 is NaN), or by a dense array (sparse: the
        stored values times the reciprocal)."""
        if is_scalar(other):
            data = self.data if self.dtype.kind == "c" else self.data.astype("float64")
            return self._with(data * (1.0 / other))
        if isinstance(other, _spbase):
            return self.toarray() / other.toarray()
        return self.multiply(_elementwise.true_divide(1.0, _dense(other, self.device)))

    def dot(self, other):
        """The matrix product with a sparse matrix (sparse result) or a dense
        vector or matrix (dense result)."""
        if is_scalar(other) and not isinstance(other, _array_types()):
            return self._scaled(other)
        if isinstance(other, _spbase):
            return self._matmul_sparse(other)
        other = _dense(other, self.device)
        if other.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if other.ndim == 1:
            if other.shape[0] != self._shape[1]:
                raise ValueError("dimension mismatch")
            return self._matvec(other)
        if other.ndim == 2:
            if other.shape[0] != self._shape[1]:
                raise ValueError("dimension mismatch")
            return self._matmat(other)
        raise ValueError("could not interpret dimensions")

    def _matvec(self, x):
        dtype = result_dtype(self.data.dtype, x.dtype)
        if dtype in ("float32", "float64", "complex64", "complex128"):
            # The backend's product (cuSPARSE's SpMV on a GPU): CSR as it is,
            # CSC as its transpose's CSR form, transposed.
            from ..._core import _csr_matvec

            n_major, n_minor = self._swap(self._shape)
            return _csr_matvec(self.indptr, self.indices, self.data, x, n_major, n_minor,
                               self.format == "csc").astype(dtype, copy=False)
        rows, cols = self._coordinates()
        return line_sums(rows, self.data.astype(dtype) * x[cols].astype(dtype), self._shape[0])

    def _matmat(self, x):
        from ..._numpy.manipulation.joining import stack

        dtype = result_dtype(self.data.dtype, x.dtype)
        if x.shape[1] == 0 or x.shape[1] > 16:
            rows, cols = self._coordinates()
            y = zeros((self._shape[0], x.shape[1]), dtype=dtype, device=self.device)
            if rows.shape[0] and x.shape[1]:
                _elementwise.add.at(y, rows, self.data.astype(dtype)[:, None] * x[cols].astype(dtype))
            return y
        return stack([self._matvec(x[:, j]) for j in range(x.shape[1])], axis=1)

    def _matmul_sparse(self, other):
        """The product of two sparse matrices: each entry (i, j, a) of self
        meets every entry (j, k, b) of other's row j, giving a*b at (i, k)."""
        from ..._numpy.manipulation.rearranging import diff, repeat
        from ..._numpy.statistics.reductions import cumsum

        if self._shape[1] != other.shape[0]:
            raise ValueError("dimension mismatch")
        right = other.tocsr()
        rows, cols, data = self._entries()
        starts = right.indptr.astype("int64")
        lengths = diff(starts)[cols] if cols.shape[0] else zeros(0, dtype="int64", device=self.device)
        total = int(lengths.sum()) if lengths.shape[0] else 0
        dtype = result_dtype(self.data.dtype, right.data.dtype)
        shape = (self._shape[0], other.shape[1])
        if total == 0:
            empty = zeros(0, dtype="int64", device=self.device)
            return self._from_entries(shape, empty, empty, zeros(0, dtype=dtype, device=self.device))
        left = repeat(arange(cols.shape[0], dtype="int64", device=self.device), lengths)
        first = cumsum(lengths) - lengths
        position = arange(total, dtype="int64", device=self.device) - first[left] + starts[cols[left]]
        values = data[left].astype(dtype) * right.data[position].astype(dtype)
        return self._from_entries(shape, rows[left], right.indices[position].astype("int64"), values)

    def multiply(self, other):
        """The elementwise product: with a scalar, a sparse matrix of the same
        shape (entries where both have one), or a dense array (broadcast)."""
        if is_scalar(other):
            return self._scaled(other)
        if isinstance(other, _spbase):
            return self._multiply_sparse(other)
        other = _dense(other, self.device)
        from ..._numpy.manipulation.shape import broadcast_to

        if other.ndim > 2:
            raise ValueError("inconsistent shapes")
        shape = _np().broadcast_shapes(self._shape, tuple(other.shape))
        if shape != self._shape:
            return self.toarray() * other
        rows, cols, data = self._entries()
        full = broadcast_to(other, self._shape)
        dtype = result_dtype(self.data.dtype, other.dtype)
        coo_matrix = self._family["coo"]

        return coo_matrix((data.astype(dtype) * full[rows, cols].astype(dtype), (rows, cols)), shape=self._shape)

    def _multiply_sparse(self, other):
        from ..._numpy.sorting import searchsorted

        if other.shape != self._shape:
            if other.shape in ((1, self._shape[1]), (self._shape[0], 1)):
                return self.multiply(other.toarray())
            raise ValueError("inconsistent shapes")
        left, right = self._canonical_copy(), other._canonical_copy()
        dtype = result_dtype(left.data.dtype, right.data.dtype)
        keys, rkeys = left._keys(), right._keys()
        if keys.shape[0] == 0 or rkeys.shape[0] == 0:
            empty = zeros(0, dtype="int64", device=self.device)
            return self._from_entries(self._shape, empty, empty, zeros(0, dtype=dtype, device=self.device))
        at = searchsorted(rkeys, keys)
        at = _elementwise.minimum(at, rkeys.shape[0] - 1)
        both = rkeys[at] == keys
        rows, cols = left._coordinates()
        values = left.data[both].astype(dtype) * right.data[at[both]].astype(dtype)
        return self._from_entries(self._shape, rows[both], cols[both], values)

    def _union_values(self, other):
        """The places where self or other (same shape) store an entry, row-major
        keys, and each matrix's value there (zero where it stores none)."""
        from ..._numpy.manipulation.joining import concatenate
        from ..._numpy.sets import unique
        from ..._numpy.sorting import searchsorted

        left, right = self._canonical_copy(), other._canonical_copy()
        keys, rkeys = left._keys(), right._keys()
        union = unique(concatenate([keys, rkeys]))
        values = zeros(union.shape, dtype=str(left.data.dtype), device=self.device)
        other_values = zeros(union.shape, dtype=str(right.data.dtype), device=self.device)
        if keys.shape[0]:
            values[searchsorted(union, keys)] = left.data
        if rkeys.shape[0]:
            other_values[searchsorted(union, rkeys)] = right.data
        return union, values, other_values

    def _sparse_from_dense(self, dense):
        coo_matrix = self._family["coo"]

        return coo_matrix(dense).asformat(self.format)

    def _elementwise_op(self, other, function, comparison=False):
        """function(self, other) elementwise, as SciPy gives it: sparse (this
        format) for a scalar or sparse operand, dense for a dense one. A
        comparison true where both are zero fills the matrix, with SciPy's
        SparseEfficiencyWarning."""
        width = max(self._shape[1], 1)
        if is_scalar(other):
            at_zero = function(zeros(1, dtype=str(self.data.dtype), device=self.device), other)
            if bool((at_zero != 0).any()):
                if comparison:
                    warn_efficiency("Comparing a sparse matrix with a scalar that makes the result dense is "
                                     "inefficient.")
                return self._sparse_from_dense(function(self.toarray(), other))
            canonical = self._canonical_copy()
            keys, values = canonical._keys(), function(canonical.data, other)
        elif isinstance(other, _spbase):
            if other.shape != self._shape:
                if _np().broadcast_shapes(self._shape, other.shape) == self._shape:
                    probe = function(zeros(1, dtype=str(self.data.dtype), device=self.device),
                                     zeros(1, dtype=str(other.dtype), device=self.device))
                    if comparison and bool((probe != 0).any()):
                        warn_efficiency("Comparing sparse matrices with a test true at zero is inefficient.")
                    return self._sparse_from_dense(function(self.toarray(), other.toarray()))
                raise ValueError("inconsistent shapes")
            probe = function(zeros(1, dtype=str(self.data.dtype), device=self.device),
                             zeros(1, dtype=str(other.dtype), device=self.device))
            if bool((probe != 0).any()):
                if comparison:
                    warn_efficiency("Comparing sparse matrices with a test true at zero is inefficient.")
                return self._sparse_from_dense(function(self.toarray(), other.toarray()))
            keys, mine, theirs = self._union_values(other)
            values = function(mine, theirs)
        else:
            return function(self.toarray(), _dense(other, self.device))
        keep = values != 0
        return self._from_entries(self._shape, keys[keep] // width, keys[keep] % width, values[keep])

    def maximum(self, other):
        return self._elementwise_op(other, _elementwise.maximum)

    def minimum(self, other):
        return self._elementwise_op(other, _elementwise.minimum)

    def __eq__(self, other):
        return self._elementwise_op(other, _elementwise.equal, True)

    def __ne__(self, other):
        return self._elementwise_op(other, _elementwise.not_equal, True)

    def __lt__(self, other):
        return self._elementwise_op(other, _elementwise.less, True)

    def __gt__(self, other):
        return self._elementwise_op(other, _elementwise.greater, True)

    def __le__(self, other):
        return self._elementwise_op(other, _elementwise.less_equal, True)

    def __ge__(self, other):
        return self._elementwise_op(other, _elementwise.greater_equal, True)

    __hash__ = None

    # -- reductions -----------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        """The sum of all entries, or along an axis as a 2-d (1, n) or (m, 1) array."""
        from ..._numpy.statistics.reductions import sum as total

        axis = None if axis is None else _axis(axis)
        if axis is None:
            result = total(self.data, dtype=dtype)
            if out is not None:
                out[...] = result
                return out
            return result
        sum_dtype = str(total(zeros(0, dtype=str(self.data.dtype), device=self.device), dtype=dtype).dtype)
        rows, cols = self._coordinates()
        lines = cols if axis == 0 else rows
        result = line_sums(lines, self.data.astype(sum_dtype), self._shape[1 - axis])
        result = result.reshape((1, -1) if axis == 0 else (-1, 1))
        if out is not None:
            out[...] = result
            return out
        return result

    def _extreme_places(self, axis):
        """For min/max: (line of each entry, place of it along the line, the
        number of lines, the line length), over the canonical entries."""
        # Entries sorted by line, then by place along it.
        canonical = self._canonical_copy("csc" if axis == 0 else "csr")
        rows, cols = canonical._coordinates()
        m, n = self._shape
        if axis is None:
            return canonical, zeros(rows.shape, dtype="int64", device=self.device), rows * n + cols, 1, m * n
        if axis == 0:
            return canonical, cols, rows, n, m
        return canonical, rows, cols, m, n

    def _min_or_max(self, axis, maximum, explicit=False):
        """The extreme over all places (implicit zeros included unless
        `explicit`): a scalar, or SciPy's sparse (1, n) or (m, 1) matrix."""
        from ..._core import bincount
        coo_matrix = self._family["coo"]

        axis = None if axis is None else _axis(axis)
        if self._shape[0] * self._shape[1] == 0 and (axis is None or self._shape[axis] == 0):
            raise ValueError("zero-size array to reduction operation, which has no identity")
        canonical, lines, _, count, length = self._extreme_places(axis)
        ufunc = _elementwise.maximum if maximum else _elementwise.minimum
        stored = bincount(lines, minlength=count) if lines.shape[0] else zeros(count, dtype="int64",
                                                                                device=self.device)
        result = zeros(count, dtype=str(self.data.dtype), device=self.device)
        full = stored == length
        if bool(full.any()):
            # Lines with no implicit zero start from one of their own values.
            from ..._core import _where
            from ..._numpy.sorting import searchsorted

            first = searchsorted(lines, arange(count, dtype="int64", device=self.device))
            first = _elementwise.minimum(first, max(lines.shape[0] - 1, 0))
            result = _where(full, canonical.data[first] if lines.shape[0] else result, result)
        if explicit:  # the stored values only; a line with none gives zero
            from ..._core import _where

            has = stored > 0
            if bool(has.any()):
                from ..._numpy.sorting import searchsorted

                first = _elementwise.minimum(searchsorted(lines, arange(count, dtype="int64", device=self.device)),
                                             max(lines.shape[0] - 1, 0))
                result = _where(has, canonical.data[first], result)
        if lines.shape[0]:
            ufunc.at(result, lines, canonical.data)
        if axis is None:
            return result.reshape(())
        positions = arange(count, dtype="int64", device=self.device)
        zero = zeros(count, dtype="int64", device=self.device)
        shape = (1, count) if axis == 0 else (count, 1)
        rows, cols = (zero, positions) if axis == 0 else (positions, zero)
        keep = result != 0
        return coo_matrix((result[keep], (rows[keep], cols[keep])), shape=shape)

    def max(self, axis=None, out=None, *, explicit=False):
        return self._min_or_max(axis, True, explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._min_or_max(axis, False, explicit)

    def _arg_extreme(self, axis, maximum):
        """The place of the first maximum (minimum) of each line, implicit
        zeros included: a flat C-order index for axis None, else a 2-d array."""
        from ..._core import _where, bincount

        axis = None if axis is None else _axis(axis)
        if axis is not None and self._shape[1 - axis] == 0 or self._shape[0] * self._shape[1] == 0 and axis is None:
            raise ValueError("cannot apply argmax/argmin to an empty sparse matrix")
        canonical, lines, places, count, length = self._extreme_places(axis)
        ufunc = _elementwise.maximum if maximum else _elementwise.minimum
        big = length + 1
        best_place = zeros(count, dtype="int64", device=self.device) + big
        stored = bincount(lines, minlength=count) if lines.shape[0] else zeros(count, dtype="int64",
                                                                                device=self.device)
        # The first place of each line that holds no entry (length when full).
        from ..._numpy.sorting import searchsorted

        starts = searchsorted(lines, arange(count, dtype="int64", device=self.device))
        rank = arange(lines.shape[0], dtype="int64", device=self.device) - starts[lines] if lines.shape[0] \
            else lines
        missing = stored.copy()
        if lines.shape[0]:
            _elementwise.minimum.at(missing, lines, _where(places != rank, rank, length))
            first = _elementwise.minimum(starts, lines.shape[0] - 1)
            extreme = canonical.data[first]
            ufunc.at(extreme, lines, canonical.data)
            hit = canonical.data == extreme[lines]
            _elementwise.minimum.at(best_place, lines, _where(hit, places, big))
            beats_zero = ((extreme > 0) if maximum else (extreme < 0)) & (stored > 0)
            ties_zero = (extreme == 0) & (stored > 0)
        else:
            extreme = zeros(count, dtype=str(self.data.dtype), device=self.device)
            beats_zero = ties_zero = zeros(count, dtype="bool", device=self.device)
        has_zero = stored < length
        answer = _where(~has_zero | beats_zero, best_place,
                        _where(ties_zero, _elementwise.minimum(best_place, missing), missing))
        if axis is None:
            return int(answer[0])
        return answer.reshape((1, -1) if axis == 0 else (-1, 1))

    def argmax(self, axis=None, out=None):
        return self._arg_extreme(axis, True)

    def argmin(self, axis=None, out=None):
        return self._arg_extreme(axis, False)

    def setdiag(self, values, k=0):
        """Set diagonal k to `values` (a scalar, or one value a place; a
        shorter sequence sets that many places)."""
        m, n = self._shape
        if not -m < k < n and not (m == 0 or n == 0):
            raise ValueError("k exceeds matrix dimensions")
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        values = asarray(values, device=self.device)
        if values.ndim > 0:
            length = min(length, values.shape[0])
            values = values[:length]
        start = arange(length, dtype="int64", device=self.device)
        from ._index import set_item

        set_item(self, (start - min(k, 0), start + max(k, 0)), values)

    def diagonal(self, k=0):
        rows, cols = self._coordinates()
        m, n = self._shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        result = zeros(length, dtype=str(self.data.dtype), device=self.device)
        on = (cols - rows) == k
        if length and bool(on.any()):
            _elementwise.add.at(result, rows[on] if k >= 0 else cols[on], self.data[on])
        return result

    # -- indexing -------------------------------------------------------------
    def __getitem__(self, key):
        from ._index import get_item

        return get_item(self, key)

    def __setitem__(self, key, value):
        from ._index import set_item

        set_item(self, key, value)


