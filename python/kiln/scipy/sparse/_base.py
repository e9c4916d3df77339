"""What every sparse matrix and array of kiln.scipy.sparse shares: shape, dtype and
device, conversions between the formats and to the host's SciPy, the
arithmetic operators (each format's own work is done in CSR), reductions,
and the helpers that build index arrays with kiln's array operations, so
that every format runs on every device; and the two interfaces SciPy
offers over them, spmatrix (``csr_matrix``...) and sparray (``csr_array``...)."""
import operator
import warnings

from ..._numpy.math import elementwise as _elementwise
from ..._numpy.creation import arange, asarray, full, zeros


def _np():
    import numpy

    return numpy


# The matrix class of each format, registered by its module ("csr": csr_matrix,
# ...), so that the formats convert into one another without importing each other.
# The classes of each format: FORMATS the matrices, ARRAY_FORMATS the arrays.
FORMATS = {}
ARRAY_FORMATS = {}


def _is_host_sparse(x):
    """Whether x is one of SciPy's sparse matrices or arrays (host memory)."""
    module = type(x).__module__
    return module.startswith("scipy.sparse") and hasattr(x, "tocoo")


def _dense(x, device):
    """x as a kiln array on `device` (NumPy arrays and lists are copied there)."""
    from ..._core import ndarray

    if isinstance(x, str):
        raise ValueError(f"invalid input format: {x!r} is not an array")
    if isinstance(x, ndarray):
        return x
    return asarray(x, device=device)


class SparseEfficiencyWarning(UserWarning):
    """A change of sparsity structure that is costly in this format (SciPy's)."""


class SparseWarning(UserWarning):
    pass


def index_dtype(*maxima):
    """SciPy's index dtype: int32 while every index and count fits, else int64."""
    return "int32" if max((int(m) for m in maxima), default=0) < 2 ** 31 else "int64"


def expand_pointers(indptr, count):
    """The major index of each stored entry: i repeated indptr[i+1] - indptr[i] times."""
    from ..._numpy.manipulation.rearranging import diff, repeat

    return repeat(arange(indptr.shape[0] - 1, dtype="int64", device=indptr.device), diff(indptr))[:count]


def pointers(major, n_major, device):
    """indptr for entries sorted by their major index."""
    from ..._core import bincount
    from ..._numpy.manipulation.joining import concatenate
    from ..._numpy.statistics.reductions import cumsum

    counts = bincount(major, minlength=n_major) if major.shape[0] else zeros(n_major, dtype="int64", device=device)
    return concatenate([zeros(1, dtype="int64", device=device), cumsum(counts)])


def line_sums(lines, values, count):
    """The sum of the values of each line 0..count-1 (lines: the line of each
    value), in the values' dtype. Float and complex values go through
    bincount's weighted count (one pass, in double precision); others and
    2-d values through add.at."""
    from ..._core import bincount

    dtype = str(values.dtype)
    if values.ndim == 1 and values.dtype.kind in "fc":
        if lines.shape[0] == 0:
            return zeros(count, dtype=dtype, device=values.device)
        if values.dtype.kind == "c":
            real = bincount(lines, weights=values.real, minlength=count)
            imag = bincount(lines, weights=values.imag, minlength=count)
            return (real + 1j * imag).astype(dtype)
        return bincount(lines, weights=values, minlength=count).astype(dtype)
    result = zeros((count,) + tuple(values.shape[1:]), dtype=dtype, device=values.device)
    if lines.shape[0]:
        _elementwise.add.at(result, lines, values)
    return result


def segment_sums(keys, values):
    """For keys sorted ascending: the distinct keys and the sum of the values
    of each (in the values' dtype)."""
    from ..._numpy.manipulation.joining import concatenate
    from ..._numpy.statistics.reductions import cumsum

    if keys.shape[0] == 0:
        return keys, values
    first = concatenate([asarray([True], device=keys.device), keys[1:] != keys[:-1]])
    group = cumsum(first) - 1
    return keys[first], line_sums(group, values, int(group[-1]) + 1)


def stable_order(keys):
    from ..._numpy.sorting import argsort

    return argsort(keys, kind="stable")


def sorted_sums(keys, values):
    """The distinct keys in ascending order and the sum of the values of each."""
    order = stable_order(keys)
    return segment_sums(keys[order], values[order])


def with_dtype(data, dtype):
    """(data as `dtype` (itself when None or already so), whether it was cast)."""
    if dtype is None or str(_np().dtype(dtype)) == str(data.dtype):
        return data, False
    return data.astype(str(_np().dtype(dtype))), True


def warn_efficiency(message, stacklevel=3):
    """SciPy's SparseEfficiencyWarning, attributed `stacklevel` frames up
    from here (3: the caller of the function that warns)."""
    warnings.warn(message, SparseEfficiencyWarning, stacklevel=stacklevel)


def result_dtype(*dtypes):
    from ..._core import result_type

    return str(result_type(*dtypes))


def is_scalar(x):
    import numbers

    np = _np()
    return isinstance(x, (numbers.Number, np.generic)) or (hasattr(x, "ndim") and x.ndim == 0 and
                                                          not isinstance(x, spmatrix))


def check_shape(shape):
    """A 2-tuple of non-negative ints (SciPy's matrices are 2-d)."""
    try:
        shape = tuple(operator.index(s) for s in shape)
    except TypeError as e:
        raise TypeError("invalid shape") from e
    if len(shape) != 2:
        raise ValueError("shape must be a 2-tuple")
    if any(s < 0 for s in shape):
        raise ValueError("'shape' elements cannot be negative")
    return shape


class _spbase:
    """What kiln's sparse matrices and arrays share; spmatrix and sparray
    below say which of SciPy's two interfaces a class speaks, and ``_family``
    (FORMATS or ARRAY_FORMATS) is where its results' classes come from."""

    __array_priority__ = 101
    ndim = 2
    maxprint = 50
    format = None

    def __init__(self, device=None):
        if type(self) is _spbase:
            raise ValueError("This class is not intended to be instantiated directly.")
        self._device = device

    # -- description ------------------------------------------------------
    @property
    def device(self):
        return self._device

    @property
    def size(self):
        return self._stored_count()

    @property
    def nnz(self):
        return self._stored_count()

    def _stored_count(self):
        return int(self.data.shape[0])

    def getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("getnnz over an axis is not supported")
        return self._stored_count()

    def count_nonzero(self):
        """The number of stored entries that are not zero (after summing duplicates)."""
        csr = self.tocsr()
        csr.sum_duplicates()
        return int((csr.data != 0).sum())

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Reshape in place (SciPy's)."""
        reshaped = self.reshape(check_shape(shape)).asformat(self.format)
        self.__dict__ = reshaped.__dict__

    shape = property(get_shape, set_shape)

    def getformat(self):
        return self.format

    def getmaxprint(self):
        """How many entries printing shows (SciPy's)."""
        return self.maxprint

    def __len__(self):
        raise TypeError("sparse matrix length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    def __iter__(self):
        for r in range(self.shape[0]):
            yield self[r]

    def __repr__(self):
        return (f"<{_FORMAT_NAMES.get(self.format, self.format)} sparse {self._kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    def __str__(self):
        return str(self.get())

    # -- conversions ------------------------------------------------------
    def asformat(self, format):
        if format is None or format == self.format:
            return self
        converter = getattr(self, "to" + format, None)
        if converter is None:
            raise ValueError(f"Format {format} is unknown.")
        return converter()

    def tocoo(self, copy=False):
        return self.tocsr().tocoo(copy=False)

    def tocsc(self, copy=False):
        return self.tocsr().tocsc(copy=False)

    def todia(self, copy=False):
        return self._family["dia"].from_coo(self.tocoo())

    def tolil(self, copy=False):
        raise NotImplementedError("kiln.scipy.sparse has no LIL format")

    def todok(self, copy=False):
        raise NotImplementedError("kiln.scipy.sparse has no DOK format")

    def todense(self, order=None, out=None):
        return self.toarray(order=order, out=out)

    @property
    def A(self):
        return self.toarray()

    def asfptype(self):
        if self.dtype.kind in "fc" and self.dtype.itemsize >= 4:
            return self
        return self.astype("float32" if self.dtype.itemsize <= 2 else "float64")

    def conj(self, copy=True):
        return self.conjugate(copy=copy)

    @property
    def T(self):
        return self.transpose()

    @property
    def H(self):
        return self.getH()

    def getH(self):
        return self.transpose().conj()

    def get(self, stream=None):
        """The matrix as SciPy's, on the host."""
        return self.tocsr().get()

    def __array__(self, *args, **kwargs):
        raise TypeError("kiln sparse matrices do not convert implicitly to NumPy arrays; use .get() or "
                        ".toarray()")

    # -- arithmetic (done in CSR) -----------------------------------------
    def __neg__(self):
        return -self.tocsr()

    def __pos__(self):
        return self.copy()

    def __add__(self, other):
        return self.tocsr().__add__(other)

    def __radd__(self, other):
        return self.tocsr().__radd__(other)

    def __sub__(self, other):
        return self.tocsr().__sub__(other)

    def __rsub__(self, other):
        return self.tocsr().__rsub__(other)

    def __mul__(self, other):
        return self.tocsr().__mul__(other)

    def __rmul__(self, other):
        return self.tocsr().__rmul__(other)

    def __matmul__(self, other):
        if is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.dot(other)

    def __rmatmul__(self, other):
        if is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.tocsr().__rmul__(other)

    def __truediv__(self, other):
        return self.tocsr().__truediv__(other)

    def __div__(self, other):
        return self.__truediv__(other)

    def __pow__(self, other):
        """The matrix power (``*`` is the matrix product for spmatrix)."""
        if self.shape[0] != self.shape[1]:
            raise TypeError("matrix is not square")
        if not is_scalar(other) or int(other) != other:
            raise ValueError("exponent must be an integer")
        other = int(other)
        if other < 0:
            raise ValueError("exponent must be >= 0")
        if other == 0:
            n = self.shape[0]
            return self._family["csr"]((full(n, 1, dtype=str(self.dtype), device=self.device),
                                   arange(n, dtype="int32", device=self.device),
                                   arange(n + 1, dtype="int32", device=self.device)), shape=(n, n))
        result = self.tocsr()
        for _ in range(other - 1):
            result = result.dot(self)
        return result

    def dot(self, other):
        return self.tocsr().dot(other)

    def multiply(self, other):
        return self.tocsr().multiply(other)

    def power(self, n, dtype=None):
        return self.tocsr().power(n, dtype=dtype)

    def maximum(self, other):
        return self.tocsr().maximum(other)

    def minimum(self, other):
        return self.tocsr().minimum(other)

    def __abs__(self):
        return abs(self.tocsr())

    def __eq__(self, other):
        return self.tocsr().__eq__(other)

    def __ne__(self, other):
        return self.tocsr().__ne__(other)

    def __lt__(self, other):
        return self.tocsr().__lt__(other)

    def __gt__(self, other):
        return self.tocsr().__gt__(other)

    def __le__(self, other):
        return self.tocsr().__le__(other)

    def __ge__(self, other):
        return self.tocsr().__ge__(other)

    __hash__ = None

    # -- reductions -------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        return self.tocsr().sum(axis=axis, dtype=dtype, out=out)

    def mean(self, axis=None, dtype=None, out=None):
        """The mean over all entries or along an axis (as a 2-d array), zeros included."""
        np = _np()
        axis = None if axis is None else _axis(axis)
        if axis is None:
            count = self.shape[0] * self.shape[1]
        else:
            count = self.shape[axis]
        if dtype is None:
            dtype = "float64" if self.dtype.kind in "biu" else str(self.dtype)
        total = self.astype(dtype).sum(axis=axis, dtype=dtype)
        result = total / np.array(count, dtype=np.dtype(dtype).type(0).real.dtype)
        if out is not None:
            out[...] = result
            return out
        return result

    def diagonal(self, k=0):
        return self.tocsr().diagonal(k=k)

    def setdiag(self, values, k=0):
        raise NotImplementedError(f"setdiag is not supported for the {self.format} format")

    def reshape(self, *shape, order="C"):
        return self.tocoo().reshape(*shape, order=order)

    def transpose(self, axes=None, copy=False):
        return self.tocsr().transpose(axes=axes, copy=copy)

    def copy(self):
        return self.__class__(self, copy=True)

    def _canonical_copy(self, format="csr"):
        """This matrix in `format` (CSR or CSC) with repeats summed and each
        line sorted, never self: self keeps its layout."""
        result = self.asformat(format)
        result = result.copy() if result is self else result
        result.sum_duplicates()
        return result

    def _with_summed_data(self, function):
        """function of the stored values, repeats summed first, in this format."""
        csr = self._canonical_copy()
        return csr._with(function(csr.data)).asformat(self.format)

    def __getstate__(self):
        # The device is found again from the arrays (Device objects do not pickle).
        state = dict(self.__dict__)
        state.pop("_device", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._device = self.data.device

    def getrow(self, i):
        """Row i as a 1 x n matrix of this format (CSR for the others)."""
        source = self if self.format in ("csr", "csc") else self.tocsr()
        return source[i, :]

    def getcol(self, j):
        """Column j as an m x 1 matrix of this format (CSR for the others)."""
        source = self if self.format in ("csr", "csc") else self.tocsr()
        return source[:, j]



def _axis(axis):
    """An axis (0 or 1), or None for both (SciPy takes (0, 1) as both)."""
    if isinstance(axis, tuple):
        axes = {_axis(a) for a in axis}
        if len(axes) != len(axis):
            raise ValueError("duplicate value in 'axis'")
        return None if len(axes) == 2 else axes.pop()
    axis = operator.index(axis)
    if axis < -2 or axis > 1:
        raise ValueError("axis out of range")
    return axis % 2


# NumPy's functions that keep zero at zero, which SciPy's matrices offer as
# methods acting on the stored values (repeats summed first).
_ZERO_PRESERVING = ("arcsin", "arcsinh", "arctan", "arctanh", "ceil", "deg2rad", "expm1", "floor", "log1p",
                    "rad2deg", "rint", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc")


def _zero_preserving_method(name):
    def method(self):
        from ..._numpy.math import elementwise as _elementwise

        return self._with_summed_data(getattr(_elementwise, name))

    method.__name__ = name
    method.__doc__ = f"{name} of each stored value (zero stays zero)."
    return method


_FORMAT_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate",
                 "dia": "DIAgonal"}


for _name in _ZERO_PRESERVING:
    setattr(_spbase, _name, _zero_preserving_method(_name))


class spmatrix(_spbase):
    """SciPy's sparse matrix interface (CuPy's ``cupyx.scipy.sparse.spmatrix``):
    ``*`` and ``**`` are the matrix product and power, reductions along an
    axis give 2-d results; ``.A`` and ``.H`` still work, with SciPy's
    deprecation warning."""

    _kind = "matrix"
    _family = FORMATS

    @property
    def A(self):
        warnings.warn("`spmatrix.A` is deprecated, use `.toarray()` instead", DeprecationWarning, stacklevel=2)
        return self.toarray()

    @property
    def H(self):
        warnings.warn("`spmatrix.H` is deprecated, use `.T.conj()` instead", DeprecationWarning, stacklevel=2)
        return self.getH()


def _matrix_only(name):
    """An attribute sparse arrays do not have (SciPy's): reading it raises
    AttributeError, so hasattr says False."""
    def absent(self):
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}' (it is a sparse "
                             "matrix's; sparse arrays do without it)")
    return property(absent)


class sparray(_spbase):
    """SciPy's sparse array interface (``csr_array`` and friends): ``*`` and
    ``**`` act elementwise (a zeroth power is refused, as SciPy's, since it
    would make every absent entry 1), reductions along an axis give 1-d
    arrays, the shape cannot be assigned, and the matrix-only spellings
    (``.A``, ``.H``, ``getnnz``, ``getrow``...) are absent. Every result
    built from an array is an array. kiln's arrays are 2-d: indexing that
    would give SciPy's 1-d sparse arrays is refused by name."""

    _kind = "array"
    _family = ARRAY_FORMATS

    for _name in ("A", "H", "asfptype", "get_shape", "getformat", "getmaxprint", "getnnz", "getrow", "getcol",
                  "set_shape", "getH"):
        locals()[_name] = _matrix_only(_name)
    del _name

    @property
    def shape(self):
        return self._shape

    @property
    def mT(self):
        return self.transpose()

    def __mul__(self, other):
        return super().__mul__(other) if is_scalar(other) else self.multiply(other)

    def __rmul__(self, other):
        return super().__rmul__(other) if is_scalar(other) else self.multiply(other)

    def __pow__(self, other):
        if not is_scalar(other):
            raise NotImplementedError("a sparse array to a non-scalar power is not supported (SciPy's)")
        return self.power(other)

    def sum(self, axis=None, dtype=None, out=None):
        total = super().sum(axis=axis, dtype=dtype)
        if axis is None:
            return total
        total = total.reshape(-1)
        if out is not None:
            out[...] = total
            return out
        return total
