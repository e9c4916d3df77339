"""kiln.numba: defaults and keywords in calls (from Python and between
compiled functions), register_jitable, lazy decoration, Numba's threading
API (set_num_threads, set_parallel_chunksize, parallel_chunksize, in Python
and in compiled code), and the ufuncs and reductions added for Numba's CPU
tests (np.gcd, np.lcm, np.ldexp, np.divmod, argmax/argmin), against NumPy
and the functions run as Python."""
import numpy as np
import pytest

import kiln.numba as kn
from kiln.numba import njit, prange
from kiln.numba.extending import register_jitable


@njit
def _scaled(x, scale=2.0, *, shift=1):
    return x * scale + shift


def test_defaults_and_keywords_from_python():
    assert _scaled(2.0) == _scaled.py_func(2.0)
    assert _scaled(2.0, shift=3) == _scaled.py_func(2.0, shift=3)
    assert _scaled(x=1.0, scale=4.0) == _scaled.py_func(x=1.0, scale=4.0)
    with pytest.raises(TypeError, match="missing a required argument"):
        _scaled()


def test_defaults_and_keywords_between_compiled_functions():
    @njit
    def outer(a):
        s = 0.0
        for v in a:
            s += _scaled(v) + _scaled(v, 3.0) + _scaled(v, shift=5) + _scaled(scale=1.0, x=v)
        return s

    a = np.random.default_rng(1).standard_normal(7)
    assert outer(a) == pytest.approx(outer.py_func(a), rel=1e-15)


def test_decorating_never_compiles():
    @njit
    def star(*args):  # refused at the first call, as Numba compiles lazily
        return len(args)

    with pytest.raises(Exception, match=r"variable arguments"):
        star(1, 2)


def test_register_jitable():
    @register_jitable
    def clamp(x, low, high):
        return min(max(x, low), high)

    @njit
    def clamped(a):
        out = np.empty_like(a)
        for i in range(a.size):
            out[i] = clamp(a[i], -0.5, 0.5)
        return out

    a = np.linspace(-1, 1, 9)
    assert clamp(3, 0, 1) == 1  # still Python's function
    np.testing.assert_array_equal(clamped(a), clamped.py_func(a))


def test_chunksize_from_python():
    assert kn.get_parallel_chunksize() == 0
    assert kn.set_parallel_chunksize(8) == 0
    assert kn.get_parallel_chunksize() == 8
    with kn.parallel_chunksize(3):
        assert kn.get_parallel_chunksize() == 3
    assert kn.set_parallel_chunksize(0) == 8
    with pytest.raises(ValueError, match="greater than or equal to zero"):
        kn.set_parallel_chunksize(-1)
    with pytest.raises(TypeError, match="chunksize must be an integer"):
        kn.set_parallel_chunksize("x")


def test_chunksize_in_compiled_code():
    @njit
    def set_cs(n):
        return kn.set_parallel_chunksize(n)

    @njit
    def scoped():
        before = kn.get_parallel_chunksize()
        with kn.parallel_chunksize(8):
            inside = kn.get_parallel_chunksize()
        return before, inside, kn.get_parallel_chunksize()

    @njit(parallel=True)
    def loop(cs, n):
        res = np.zeros(n)
        seen = np.full(n, -13)
        with kn.parallel_chunksize(cs):
            for i in prange(n):
                seen[i] = kn.get_parallel_chunksize()  # 0 in the loop's threads, as Numba's
                res[i] = i
        return res, seen

    try:
        assert set_cs(5) == 0 and kn.get_parallel_chunksize() == 5  # the thread keeps it
        assert set_cs(0) == 5
        assert scoped() == (0, 8, 0)
        for cs in (1, 3, 7):
            res, seen = loop(cs, 997)
            np.testing.assert_array_equal(res, np.arange(997.0))
            assert (seen == 0).all()

        @njit
        def negative():
            kn.set_parallel_chunksize(-1)

        with pytest.raises(ValueError, match="greater than or equal to zero"):
            negative()
    finally:
        kn.set_parallel_chunksize(0)


def test_num_threads():
    n = kn.get_num_threads()
    assert n >= 1 and kn.get_thread_id() == 0
    with pytest.raises(ValueError, match="between 1 and"):
        kn.set_num_threads(n + 1000)

    @njit(parallel=True)
    def ids(m):
        out = np.zeros(m, np.int64)
        for i in prange(m):
            out[i] = kn.get_thread_id()
        return out

    @njit(parallel=True)
    def counted(threads):
        kn.set_num_threads(threads)
        acc = 0
        for i in prange(8):
            acc += kn.get_num_threads()
        return acc

    try:
        kn.set_num_threads(1)
        assert kn.get_num_threads() == 1
        assert set(ids(1000).tolist()) == {0}
        assert counted(1) == 8
    finally:
        kn.set_num_threads(n)
    assert set(ids(1000).tolist()) <= set(range(n))


@pytest.mark.parametrize("dtype", ["i1", "u1", "i4", "i8", "u8"])
def test_gcd_lcm(dtype):
    @njit
    def both(a, b, g, m):
        np.gcd(a, b, g)
        np.lcm(a, b, m)

    rng = np.random.default_rng(2)
    low = -60 if dtype[0] == "i" else 0
    a, b = rng.integers(low, 60, 40).astype(dtype), rng.integers(low, 40, 40).astype(dtype)
    a[:2], b[1:3] = 0, 0
    g, m = np.empty_like(a), np.empty_like(a)
    both(a, b, g, m)
    np.testing.assert_array_equal(g, np.gcd(a, b))
    np.testing.assert_array_equal(m, np.lcm(a, b))


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("exponent", ["i4", "i8"])
def test_ldexp(dtype, exponent):
    @njit
    def scaled(x, e, out):
        np.ldexp(x, e, out)

    rng = np.random.default_rng(3)
    x, e = rng.standard_normal(20).astype(dtype), rng.integers(-140, 140, 20).astype(exponent)
    out = np.empty_like(x)
    scaled(x, e, out)
    with np.errstate(over="ignore"):  # some overflow to inf, as they should
        np.testing.assert_array_equal(out, np.ldexp(x, e))


@pytest.mark.parametrize("dtype", ["i4", "u2", "f8"])
def test_divmod(dtype):
    @njit
    def into(a, b, q, r):
        np.divmod(a, b, q, r)

    @njit
    def of_numbers(x, y):
        return np.divmod(x, y)

    a = np.array([7, 0, 5, 9, 13], dtype)
    b = np.array([2, 3, 3, 4, 5], dtype) * (np.array([1, 1, -1, 1, -1], dtype) if dtype[0] != "u" else 1)
    q, r = np.empty_like(a), np.empty_like(a)
    into(a, b, q, r)
    expected = np.divmod(a, b)
    np.testing.assert_array_equal(q, expected[0])
    np.testing.assert_array_equal(r, expected[1])
    assert of_numbers(7, -2) == divmod(7, -2)
    assert of_numbers(-7.5, 2.0) == divmod(-7.5, 2.0)


@pytest.mark.parametrize("values", [[3, 1, 4, 1, 5, 9, 2, 6], [1.0, np.nan, 3.0, np.nan], [True, False, True],
                                    [1 + 2j, 1 + 3j, 0 + 9j, 1 + 3j]])
def test_argmax_argmin(values):
    @njit
    def extremes(a):
        return a.argmax(), a.argmin(), np.argmax(a), np.argmin(a)

    a = np.array(values)
    assert extremes(a) == (a.argmax(), a.argmin(), np.argmax(a), np.argmin(a))
    view = np.arange(24.0).reshape(4, 6)[::2, ::-3]
    assert extremes(view) == (view.argmax(), view.argmin(), view.argmax(), view.argmin())
    with pytest.raises(ValueError, match="empty sequence"):
        extremes(a[:0])


def test_signatures_and_complex_variance():
    @njit
    def spread(a):
        return np.var(a), np.std(a), a.var(), np.nanvar(a), np.nanstd(a)

    rng = np.random.default_rng(4)
    a = rng.standard_normal(12) + 1j * rng.standard_normal(12)
    a[5] = np.nan
    for array in (a, a.astype("c8"), np.delete(a, 5)):
        got, expected = spread(array), (np.var(array), np.std(array), array.var(), np.nanvar(array),
                                        np.nanstd(array))
        np.testing.assert_allclose(got, expected, rtol=2e-6 if array.dtype == "c8" else 1e-14)
    assert len(spread.signatures) == 2 and spread.signatures[0][0].layout == "C"
    returned = spread.nopython_signatures[0].return_type
    assert [str(t) for t in returned] == ["float64"] * 5


@pytest.mark.parametrize("x, y, result", [("int8", "uint8", "int64"), ("int64", "uint64", "int64"),
                                          ("int8", "uint64", "int64"), ("uint8", "uint64", "uint64")])
def test_mixed_integers_are_numba_typed(x, y, result):
    # Numba's integer typing: signed unless both are unsigned, never NumPy's float64
    add = njit((getattr(kn, x), getattr(kn, y)))(lambda a, b: a + b)
    got = add(getattr(np, x)(1), getattr(np, y)(2))
    assert got == 3 and isinstance(got, int)
    assert str(add.nopython_signatures[0].return_type) == result
    assert [str(t) for t in add.nopython_signatures[0].args] == [x, y]  # NumPy scalars type as scalars


def test_arrays_too_big_raise_instead_of_aborting():
    @njit
    def zeros(shape):
        return np.zeros(shape, np.int64)

    @njit
    def empty(n):
        return np.empty(n)

    with pytest.raises(ValueError, match="array is too big"):
        zeros(1 << 62)
    with pytest.raises(ValueError, match="array is too big"):
        zeros((1 << 56, 64))
    with pytest.raises(MemoryError, match="Allocation failed"):
        empty(1 << 57)  # 2**60 bytes: more than the address space
    np.testing.assert_array_equal(zeros(3), np.zeros(3, np.int64))
