"""The coordinate format (SciPy's coo_matrix): ``data`` with the ``row`` and
``col`` of each entry, in any order and with repeats. It converts to the
compressed formats by one stable sort of (row, column) keys, summing
repeats as SciPy does."""
from ..._numpy.creation import asarray, zeros
from ._base import (ARRAY_FORMATS, FORMATS, _dense, _is_host_sparse, _np, check_shape, index_dtype, is_scalar, pointers,
                    sorted_sums, _spbase, sparray, spmatrix, with_dtype)


class _coo_base(_spbase):
    """A sparse matrix or array as (data, (row, col)) triples."""

    format = "coo"

    @property
    def coords(self):
        """(row, col), SciPy's name for the index arrays together."""
        return (self.row, self.col)

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, _spbase):
            source = arg1.tocoo() if arg1.format != "coo" else arg1
            copy = copy or source is arg1
            data, row, col, shape = source.data, source.row, source.col, source.shape if shape is None else shape
        elif _is_host_sparse(arg1):
            source = arg1.tocoo()
            data, row, col = asarray(source.data), asarray(source.row), asarray(source.col)
            shape = source.shape if shape is None else shape
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2 and is_scalar(arg1[0]) and is_scalar(arg1[1]):
            shape = check_shape(arg1)
            data = zeros(0, dtype=str(_np().dtype(dtype or "float64")))
            row = col = zeros(0, dtype="int32")
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, coordinates = arg1
            if not isinstance(coordinates, tuple) or len(coordinates) != 2:
                raise TypeError("invalid input format: expected (data, (row, col))")
            data = _dense(data, getattr(data, "device", None))
            row, col = _dense(coordinates[0], data.device), _dense(coordinates[1], data.device)
            if shape is None:
                if row.shape[0] == 0:
                    raise ValueError("cannot infer dimensions from zero sized index arrays")
                shape = (int(row.max()) + 1, int(col.max()) + 1)
        else:
            from ..._numpy.indexing.nonzero import nonzero

            dense = _dense(arg1, None)
            if dense.ndim < 2:
                dense = dense.reshape(1, -1)
            if dense.ndim != 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            row, col = nonzero(dense)
            data = dense[row, col]
            shape = tuple(dense.shape) if shape is None else shape
            copy = False
        super().__init__(data.device)
        self._shape = check_shape(shape)
        data, cast = with_dtype(data, dtype)
        copy = copy and not cast
        if not (data.ndim == row.ndim == col.ndim == 1):
            raise ValueError("row, column, and data arrays must be 1-D")
        if not (data.shape[0] == row.shape[0] == col.shape[0]):
            raise ValueError("row, column, and data array must all be the same length")
        if row.shape[0]:
            if int(row.max()) >= self._shape[0] or int(col.max()) >= self._shape[1]:
                raise ValueError("row index exceeds matrix dimensions" if int(row.max()) >= self._shape[0]
                                 else "column index exceeds matrix dimensions")
            if int(row.min()) < 0 or int(col.min()) < 0:
                raise ValueError("negative row index found" if int(row.min()) < 0
                                 else "negative column index found")
        kind = index_dtype(max(self._shape), data.shape[0])
        self.data = data.copy() if copy else data
        self.row = row.astype(kind) if copy or str(row.dtype) != kind else row
        self.col = col.astype(kind) if copy or str(col.dtype) != kind else col
        self._canonical = False

    @property
    def dtype(self):
        from ..._ndarray.dtypes import dtype

        return dtype(str(self.data.dtype))

    @property
    def has_canonical_format(self):
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = bool(value)

    def _keys(self):
        return self.row.astype("int64") * max(self._shape[1], 1) + self.col.astype("int64")

    def sum_duplicates(self):
        """Sort the entries by (row, column) and add up repeats, in place."""
        if self._canonical:
            return
        keys, data = sorted_sums(self._keys(), self.data)
        width = max(self._shape[1], 1)
        kind = str(self.row.dtype)
        self.row, self.col, self.data = (keys // width).astype(kind), (keys % width).astype(kind), data
        self._canonical = True

    def eliminate_zeros(self):
        keep = self.data != 0
        self.data, self.row, self.col = self.data[keep], self.row[keep], self.col[keep]

    def _compressed(self, format):
        """The CSR or CSC matrix, repeats summed and lines sorted."""
        rows, cols = self.row.astype("int64"), self.col.astype("int64")
        major, minor = (rows, cols) if format == "csr" else (cols, rows)
        n_major, n_minor = self._shape if format == "csr" else (self._shape[1], self._shape[0])
        keys, data = sorted_sums(major * max(n_minor, 1) + minor, self.data)
        major = keys // max(n_minor, 1)
        kind = index_dtype(max(self._shape), keys.shape[0])
        result = self._family[format]((data, (keys - major * max(n_minor, 1)).astype(kind),
                                   pointers(major, n_major, self.device).astype(kind)), shape=self._shape)
        result._canonical = (True, True)
        return result

    def tocsr(self, copy=False):
        return self._compressed("csr")

    def tocsc(self, copy=False):
        return self._compressed("csc")

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def toarray(self, order=None, out=None):
        from ..._numpy.math import elementwise as _elementwise

        if out is None:
            out = zeros(self._shape, dtype=str(self.data.dtype), order=order or "C", device=self.device)
        else:
            out[...] = 0
        if self.data.shape[0]:
            _elementwise.add.at(out, (self.row.astype("int64"), self.col.astype("int64")), self.data)
        return out

    def get(self, stream=None):
        import scipy.sparse

        return getattr(scipy.sparse, f"coo_{self._kind}")((self.data.get(), (self.row.get(), self.col.get())), shape=self._shape)

    def copy(self):
        result = type(self)((self.data.copy(), (self.row.copy(), self.col.copy())), shape=self._shape)
        result._canonical = self._canonical
        return result

    def astype(self, t):
        result = type(self)((self.data.astype(str(_np().dtype(t))), (self.row, self.col)), shape=self._shape)
        result._canonical = self._canonical
        return result

    def conjugate(self, copy=True):
        data = self.data.conj() if self.dtype.kind == "c" else (self.data.copy() if copy else self.data)
        return type(self)((data, (self.row, self.col)), shape=self._shape)

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        return type(self)((self.data, (self.col, self.row)), shape=(self._shape[1], self._shape[0]), copy=copy)

    def reshape(self, *shape, order="C"):
        shape = check_shape(shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape)
        if shape == self._shape:
            return self
        if shape[0] * shape[1] != self._shape[0] * self._shape[1]:
            raise ValueError("cannot reshape array of size "
                             f"{self._shape[0] * self._shape[1]} into shape {shape}")
        rows, cols = self.row.astype("int64"), self.col.astype("int64")
        if order == "C":
            flat = rows * self._shape[1] + cols
            new_rows, new_cols = flat // shape[1], flat % shape[1]
        elif order == "F":
            flat = cols * self._shape[0] + rows
            new_cols, new_rows = flat // shape[0], flat % shape[0]
        else:
            raise ValueError("'order' must be 'C' or 'F'")
        kind = index_dtype(max(shape), self.data.shape[0])
        return type(self)((self.data, (new_rows.astype(kind), new_cols.astype(kind))), shape=shape)

    def _with_data(self, data):
        return type(self)((data, (self.row, self.col)), shape=self._shape)

    def __neg__(self):
        return self._with_data(-self.data)

    def __abs__(self):
        return self._with_data(abs(self.data))

    def diagonal(self, k=0):
        return self.tocsr().diagonal(k=k)

    def __getitem__(self, key):
        raise TypeError("'coo_matrix' object is not subscriptable")


class coo_matrix(spmatrix, _coo_base):
    """A sparse matrix as (data, (row, col)) triples (SciPy's coo_matrix)."""


class coo_array(sparray, _coo_base):
    """A sparse array as (data, (row, col)) triples (SciPy's coo_array)."""


FORMATS["coo"], ARRAY_FORMATS["coo"] = coo_matrix, coo_array
