"""The diagonal format (SciPy's dia_matrix): ``data[d, j]`` is the entry
in column j of the diagonal at ``offsets[d]`` (row j - offsets[d]).
Arithmetic and conversions go through the coordinate format."""
from ..._numpy.creation import arange, asarray, zeros
from ._base import ARRAY_FORMATS, FORMATS, _dense, _is_host_sparse, _np, _spbase, check_shape, index_dtype, sparray, spmatrix, with_dtype


class _dia_base(_spbase):
    """A sparse matrix as a block of diagonals and their offsets."""

    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, _spbase):
            source = arg1 if arg1.format == "dia" else arg1.todia()
            data, offsets, shape = source.data, source.offsets, source.shape
            copy = copy or source is arg1
        elif _is_host_sparse(arg1):
            source = arg1.todia()
            data, offsets, shape = asarray(source.data), asarray(source.offsets), source.shape
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2 and not hasattr(arg1[0], "__len__") \
                and not hasattr(arg1[0], "shape"):
            shape = check_shape(arg1)
            data = zeros((0, 0), dtype=str(_np().dtype(dtype or "float64")))
            offsets = zeros(0, dtype="int32")
            copy = False
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            if shape is None:
                raise ValueError("expected a shape argument")
            data = _dense(arg1[0], getattr(arg1[0], "device", None))
            offsets = _dense(arg1[1], data.device)
            if data.ndim == 1:
                data = data.reshape(1, -1)
            if offsets.ndim == 0:
                offsets = offsets.reshape(1)
            if data.ndim != 2:
                raise ValueError("expected a 2-d array for data")
            if offsets.ndim != 1:
                raise ValueError("offsets array must have rank 1")
        else:
            coo_matrix = self._family["coo"]

            source = coo_matrix(_dense(arg1, None), dtype=dtype).todia()
            data, offsets, shape = source.data, source.offsets, source.shape
            copy = False
        super().__init__(data.device)
        self._shape = check_shape(shape)
        data, cast = with_dtype(data, dtype)
        copy = copy and not cast
        if data.shape[0] != offsets.shape[0]:
            raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the number of offsets "
                             f"({offsets.shape[0]})")
        if offsets.shape[0] and _np().unique(offsets.get()).shape[0] != offsets.shape[0]:
            raise ValueError("offset array contains duplicate values")
        self.data = data.copy() if copy else data
        self.offsets = offsets.astype("int32") if copy or str(offsets.dtype) != "int32" else offsets

    @property
    def dtype(self):
        from ..._ndarray.dtypes import dtype

        return dtype(str(self.data.dtype))

    def _stored_count(self):
        """The stored places that lie inside the matrix."""
        m, n = self._shape
        total = 0
        width = self.data.shape[1] if self.data.ndim == 2 else 0
        for k in self.offsets.get().tolist():
            total += max(0, min(m + k, n, width) - max(0, k))
        return total

    def tocoo(self, copy=False):
        """Every stored place inside the matrix, zeros included (as SciPy's)."""
        from ..._numpy.manipulation.shape import broadcast_to
        coo_matrix = self._family["coo"]

        m, n = self._shape
        count, width = self.data.shape if self.data.ndim == 2 else (0, 0)
        columns = broadcast_to(arange(width, dtype="int64", device=self.device), (count, width))
        rows = columns - self.offsets.astype("int64").reshape(-1, 1)
        inside = (rows >= 0) & (rows < m) & (columns < n)
        kind = index_dtype(max(self._shape), count * width)
        result = coo_matrix((self.data[inside], (rows[inside].astype(kind), columns[inside].astype(kind))),
                            shape=self._shape)
        return result

    def tocsr(self, copy=False):
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        return self.tocoo().tocsc()

    def todia(self, copy=False):
        return self.copy() if copy else self

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def get(self, stream=None):
        import scipy.sparse

        return getattr(scipy.sparse, f"dia_{self._kind}")((self.data.get(), self.offsets.get()), shape=self._shape)

    def copy(self):
        return type(self)((self.data.copy(), self.offsets.copy()), shape=self._shape)

    def astype(self, t):
        return type(self)((self.data.astype(str(_np().dtype(t))), self.offsets), shape=self._shape)

    def conjugate(self, copy=True):
        data = self.data.conj() if self.dtype.kind == "c" else (self.data.copy() if copy else self.data)
        return type(self)((data, self.offsets), shape=self._shape)

    def _with_data(self, data):
        return type(self)((data, self.offsets), shape=self._shape)

    def __neg__(self):
        return self._with_data(-self.data)

    def __abs__(self):
        return self._with_data(abs(self.data))

    def diagonal(self, k=0):
        m, n = self._shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        matches = (self.offsets == k).get()
        if not matches.any():
            return zeros(length, dtype=str(self.data.dtype), device=self.device)
        row = int(_np().flatnonzero(matches)[0])
        start = max(0, k)
        values = self.data[row, start:start + length]
        if values.shape[0] < length:  # a short data block: the rest is zero
            from ..._numpy.manipulation.joining import concatenate

            values = concatenate([values, zeros(length - values.shape[0], dtype=str(self.data.dtype),
                                                device=self.device)])
        return values.copy()

    def transpose(self, axes=None, copy=False):
        return self.tocoo().transpose().todia()

    def __getitem__(self, key):
        raise TypeError("'dia_matrix' object is not subscriptable")

    @classmethod
    def from_coo(cls, coo):
        """A COO matrix's entries laid out by diagonal (repeats summed)."""
        from ..._numpy.math import elementwise as _elementwise
        from ..._numpy.sets import unique
        from ..._numpy.sorting import searchsorted

        rows, cols = coo.row.astype("int64"), coo.col.astype("int64")
        offsets = unique(cols - rows) if rows.shape[0] else zeros(0, dtype="int64", device=coo.device)
        width = int(cols.max()) + 1 if cols.shape[0] else 0
        data = zeros((offsets.shape[0], max(width, 0)), dtype=str(coo.data.dtype), device=coo.device)
        if rows.shape[0]:
            which = searchsorted(offsets, cols - rows)
            _elementwise.add.at(data, (which, cols), coo.data)
        return cls((data, offsets.astype("int32")), shape=coo.shape)


class dia_matrix(spmatrix, _dia_base):
    """A sparse matrix by diagonals (SciPy's dia_matrix)."""


class dia_array(sparray, _dia_base):
    """A sparse array by diagonals (SciPy's dia_array)."""


FORMATS["dia"], ARRAY_FORMATS["dia"] = dia_matrix, dia_array
