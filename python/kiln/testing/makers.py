"""The arrays tests build their inputs from, made on the host by NumPy (so
the same values come out for kiln and for NumPy) and handed to ``xp``."""
import math

import numpy


def _kiln():
    import kiln

    return kiln


def _filled(values, dtype):
    """`values` (a NumPy array of numbers) as `dtype`: bool as "is even",
    complex as v + vj."""
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        return values % 2 == 0
    if dtype.kind == "c":
        values = values + values * 1j
    return values.astype(dtype)


def shaped_arange(shape, xp=None, dtype=numpy.float32, order="C"):
    """An array of `shape` holding 1, 2, ..., N (N its size) in `dtype`
    (bool: True at the even numbers; complex: k + kj)."""
    xp = xp or _kiln()
    values = _filled(numpy.arange(1, math.prod(shape) + 1), dtype)
    return xp.array(values.reshape(shape), order=order)


def shaped_reverse_arange(shape, xp=None, dtype=numpy.float32):
    """An array of `shape` holding N, ..., 2, 1, as shaped_arange's values reversed."""
    xp = xp or _kiln()
    return xp.array(_filled(numpy.arange(math.prod(shape), 0, -1), dtype).reshape(shape))


def shaped_linspace(start, stop, shape, xp=None, dtype=numpy.float32):
    """`start` to `stop` evenly over an array of `shape` (bool clipped to
    [0, 1], unsigned to start at 0)."""
    xp = xp or _kiln()
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        start, stop = max(start, 0), min(stop, 1)
    elif dtype.kind == "u":
        start = max(start, 0)
    return xp.array(numpy.linspace(start, stop, math.prod(shape)).astype(dtype).reshape(shape))


def shaped_random(shape, xp=None, dtype=numpy.float32, scale=10, seed=0, order="C"):
    """Uniform samples over [0, scale) of `shape` (bool: fair coin flips;
    complex: real and imaginary parts drawn apart), the same for a seed."""
    xp = xp or _kiln()
    rng = numpy.random.RandomState(seed)
    dtype = numpy.dtype(dtype)
    if dtype == numpy.bool_:
        values = rng.randint(2, size=shape)
    elif dtype.kind == "c":
        values = (rng.rand(*shape) + 1j * rng.rand(*shape)) * scale
    else:
        values = rng.rand(*shape) * scale
    return xp.asarray(values, dtype=dtype, order=order)


def shaped_sparse_random(shape, sp=None, dtype=numpy.float32, density=0.01, format="coo", seed=0):
    """A random sparse matrix of `shape` (SciPy's sampler), in module `sp`'s
    type (kiln.scipy.sparse by default) and `format`."""
    import scipy.sparse

    if sp is None:
        import kiln.scipy.sparse as sp
    rows, cols = shape
    matrix = scipy.sparse.random(rows, cols, density, random_state=seed).astype(dtype)
    if not hasattr(sp, "coo_matrix"):
        raise ValueError(f"sp: module {sp.__name__} has no sparse matrices")
    return sp.coo_matrix(matrix).asformat(format)


def generate_matrix(shape, xp=None, dtype=numpy.float32, *, singular_values=None):
    """A random matrix (or stack of them) of `shape` (..., M, N) with the
    given singular values, broadcast to (..., min(M, N)): U @ diag(s) @ V^H
    with U and V random unitary factors."""
    xp = xp or _kiln()
    if len(shape) <= 1:
        raise ValueError(f"shape: {shape} has too few axes for matrices")
    if singular_values is None:
        raise TypeError("singular_values is not given")
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"dtype: {dtype} is not a float or complex type")
    s = numpy.asarray(singular_values.get() if hasattr(singular_values, "get") else singular_values)
    if not numpy.isrealobj(s):
        raise TypeError("singular_values: expected real values")
    if (s < 0).any():
        raise ValueError("singular_values: expected non-negative values")
    *batch, m, n = shape
    k = min(m, n)
    s = numpy.broadcast_to(s, (*batch, k))
    rng = numpy.random.RandomState(0)

    def unitary(size):
        z = rng.standard_normal((*batch, size, size))
        if dtype.kind == "c":
            z = z + 1j * rng.standard_normal((*batch, size, size))
        q, _ = numpy.linalg.qr(z)
        return q

    u, v = unitary(m)[..., :k], unitary(n)[..., :k]
    a = numpy.einsum("...ik,...k,...jk->...ij", u, s, v.conj())
    return xp.asarray(a.astype(dtype))
