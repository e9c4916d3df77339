"""SciPy's LinearOperator for kiln.scipy.sparse.linalg: an operator known by
its products, and aslinearoperator for sparse matrices and dense arrays."""
from ..._numpy.math import elementwise as _elementwise
from ..._numpy.creation import asarray, zeros
from ._base import _spbase


def _np():
    import numpy

    return numpy


def _by_columns(product, X):
    """A block product one column at a time: product(X[:, j]) side by side."""
    from ..._numpy.manipulation.joining import stack

    return stack([asarray(product(X[:, j])).reshape(-1) for j in range(X.shape[1])], axis=1)


class LinearOperator:
    """An m x n operator known by its products (SciPy's LinearOperator):
    ``matvec`` (required), and ``rmatvec``, ``matmat``, ``rmatmat`` for the
    adjoint and for blocks of vectors. As in SciPy, a subclass may instead
    set ``shape`` and ``dtype`` itself and define ``_matvec`` or ``_matmat``
    (and ``_rmatvec`` or ``_adjoint``); each product falls back on the other."""

    ndim = 2
    _device = None  # the device of the array or sparse matrix it was made from, where known

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2 or shape[0] < 0 or shape[1] < 0:
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.shape = shape
        self._matvec_fn, self._rmatvec_fn = matvec, rmatvec
        self._matmat_fn, self._rmatmat_fn = matmat, rmatmat
        if dtype is None:
            dtype = self.matvec(zeros(shape[1], dtype="float64")).dtype
        self.dtype = _np().dtype(str(dtype))

    def _overrides(self, name):
        return getattr(type(self), name) is not getattr(LinearOperator, name)

    def _matvec(self, x):
        if getattr(self, "_matvec_fn", None) is not None:
            return self._matvec_fn(x)
        if self._overrides("_matmat"):
            return self._matmat(x.reshape(-1, 1))
        raise NotImplementedError("the operator defines neither matvec nor matmat")

    def _matmat(self, X):
        if getattr(self, "_matmat_fn", None) is not None:
            return self._matmat_fn(X)
        return _by_columns(self._matvec, X)

    def _rmatvec(self, x):
        if getattr(self, "_rmatvec_fn", None) is not None:
            return self._rmatvec_fn(x)
        if self._overrides("_adjoint"):
            return self._adjoint().matvec(x)
        raise NotImplementedError("rmatvec is not defined")

    def _rmatmat(self, X):
        if getattr(self, "_rmatmat_fn", None) is not None:
            return self._rmatmat_fn(X)
        return _by_columns(self._rmatvec, X)

    def _adjoint(self):
        return LinearOperator((self.shape[1], self.shape[0]), self.rmatvec, self.matvec, dtype=self.dtype)

    def matvec(self, x):
        """A x for a vector x (shape (n,) or (n, 1), kept)."""
        x = asarray(x)
        if x.shape not in ((self.shape[1],), (self.shape[1], 1)):
            raise ValueError(f"dimension mismatch: {tuple(x.shape)} for an operator of shape {self.shape}")
        y = asarray(self._matvec(x.reshape(-1)))
        return y.reshape(-1, 1) if x.ndim == 2 else y.reshape(-1)

    def rmatvec(self, x):
        """A^H x."""
        x = asarray(x)
        if x.shape not in ((self.shape[0],), (self.shape[0], 1)):
            raise ValueError(f"dimension mismatch: {tuple(x.shape)} for the adjoint of an operator of shape "
                             f"{self.shape}")
        y = asarray(self._rmatvec(x.reshape(-1)))
        return y.reshape(-1, 1) if x.ndim == 2 else y.reshape(-1)

    def matmat(self, X):
        """A X for a 2-d X: the given matmat, else one matvec a column."""
        X = asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {tuple(X.shape)} for an operator of shape {self.shape}")
        return asarray(self._matmat(X))

    def rmatmat(self, X):
        """A^H X for a 2-d X."""
        X = asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {tuple(X.shape)} for the adjoint of an operator of shape "
                             f"{self.shape}")
        return asarray(self._rmatmat(X))

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductOperator(self, x)
        if _np().isscalar(x):
            return _ScaledOperator(self, x)
        x = asarray(x)
        return self.matvec(x) if x.ndim == 1 or x.shape == (self.shape[1], 1) else self.matmat(x)

    __matmul__ = dot

    def __mul__(self, x):
        return self.dot(x)

    def __rmul__(self, x):
        if _np().isscalar(x):
            return _ScaledOperator(self, x)
        return NotImplemented

    def __call__(self, x):
        return self.dot(x)

    def __add__(self, other):
        if not isinstance(other, LinearOperator):
            return NotImplemented
        if other.shape != self.shape:
            raise ValueError("cannot add operators of different shapes")
        return LinearOperator(self.shape, lambda x: self.matvec(x) + other.matvec(x),
                              lambda x: self.rmatvec(x) + other.rmatvec(x),
                              dtype=_np().promote_types(self.dtype, other.dtype))

    def __neg__(self):
        return _ScaledOperator(self, -1)

    def __sub__(self, other):
        return self + (-other)

    def adjoint(self):
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        def matvec(x):
            return _elementwise.conj(self.rmatvec(_elementwise.conj(x)))

        def rmatvec(x):
            return _elementwise.conj(self.matvec(_elementwise.conj(x)))

        return LinearOperator((self.shape[1], self.shape[0]), matvec, rmatvec, dtype=self.dtype)

    T = property(transpose)

    def __repr__(self):
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with dtype={self.dtype}>"


def _ScaledOperator(operator, scale):
    return LinearOperator(operator.shape, lambda x: operator.matvec(x) * scale,
                          lambda x: operator.rmatvec(x) * _np().conj(scale),
                          dtype=_np().result_type(operator.dtype, _np().asarray(scale).dtype))


def _ProductOperator(left, right):
    if left.shape[1] != right.shape[0]:
        raise ValueError("cannot multiply operators of incompatible shapes")
    return LinearOperator((left.shape[0], right.shape[1]), lambda x: left.matvec(right.matvec(x)),
                          lambda x: right.rmatvec(left.rmatvec(x)),
                          dtype=_np().promote_types(left.dtype, right.dtype))


def aslinearoperator(A):
    """A as a LinearOperator: itself, or the products of a sparse matrix or
    a dense 2-d array."""
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, _spbase):
        operator = LinearOperator(A.shape, A.dot, lambda x: A.getH().dot(x), matmat=A.dot, dtype=str(A.dtype),
                                  rmatmat=lambda X: A.getH().dot(X))
        operator._device = A.data.device  # where the products run (eigsh starts its vectors there)
        return operator
    if hasattr(A, "shape") and hasattr(A, "dtype"):
        if len(A.shape) > 2:
            raise ValueError("array must have ndim <= 2")
        dense = asarray(A)
        if dense.ndim < 2:  # a row, as SciPy's atleast_2d reads it
            dense = dense.reshape(1, -1)
        operator = LinearOperator(dense.shape, dense.__matmul__, lambda x: _elementwise.conj(dense.T) @ x,
                                  matmat=dense.__matmul__, dtype=str(dense.dtype),
                                  rmatmat=lambda X: _elementwise.conj(dense.T) @ X)
        operator._device = dense.device
        return operator
    raise TypeError("type not understood")
