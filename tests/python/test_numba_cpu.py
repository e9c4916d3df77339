"""kiln.numba: Numba's @njit/@jit compiled for the host, checked against
the same functions run by Python, and reused inside @cuda.jit kernels."""
import math

import numpy as np
import pytest

import kiln
from kiln import numba
from kiln.numba import cuda, njit, prange


def pair_histogram(x, counts, n, box, nbin):
    cut, width = box * 0.5, box / (2.0 * nbin)
    for i in prange(n):
        for j in range(n):
            d = x[i] - x[j]
            d = d - box * round(d / box)
            r = math.sqrt(d * d)
            if r < cut:
                b = int(r / width)
                counts[b] = counts[b] + 1
    return counts


def test_a_loop_over_numpy_arrays_matches_python():
    rng = np.random.default_rng(0)
    x = rng.random(300) * 10
    want = pair_histogram(x, np.zeros(50, np.int64), 300, 10.0, 50)
    compiled = njit(pair_histogram)
    counts = np.zeros(50, np.int64)
    got = compiled(x, counts, 300, 10.0, 50)
    assert got is counts  # the array it was given, as the caller holds it
    np.testing.assert_array_equal(got, want)
    assert compiled.py_func is pair_histogram


def test_scalar_results_follow_numbas_types():
    @njit
    def combine(a, b):
        return a * 2 + b

    assert combine(3, 4) == 10 and isinstance(combine(3, 4), int)
    assert combine(1.5, 1) == 4.0 and isinstance(combine(1.5, 1), float)
    assert combine(np.float32(0.5), np.float32(1)) == 2.0
    assert combine(1j, 1) == 1 + 2j
    assert "kiln_device_combine" in combine.inspect_types()  # the C++ of its specialisations


def test_calls_between_compiled_functions_and_math():
    @njit
    def hyp(a, b):
        return math.sqrt(a * a + b * b)

    @njit(fastmath=True, cache=True)
    def total(xs):
        s = 0.0
        for i in range(xs.shape[0]):
            s += hyp(xs[i], 1.0)
        return s

    xs = np.linspace(0, 3, 31)
    assert total(xs) == pytest.approx(sum(math.hypot(v, 1.0) for v in xs), rel=1e-12)


def test_a_function_that_returns_nothing_fills_its_argument():
    @njit
    def fill(out, value):
        for i in range(out.size):
            out[i] = value * i

    out = np.zeros(5)
    assert fill(out, 2.0) is None
    np.testing.assert_array_equal(out, [0, 2, 4, 6, 8])


def test_exceptions_raised_in_compiled_code_reach_python():
    @njit
    def checked(x):
        if x < 0:
            raise ValueError("negative")
        return x + 1

    assert checked(1) == 2
    with pytest.raises(ValueError, match="negative"):
        checked(-1)


def test_what_is_not_there_says_so():
    @njit
    def made_inside(n):
        a = np.zeros(n)
        return a

    with pytest.raises(Exception, match="made_inside"):
        made_inside(3)
    with pytest.raises(Exception, match="object mode"):
        numba.jit(forceobj=True)(lambda x: x)
    with pytest.raises(TypeError, match="unexpected options"):
        njit(bogus=1)


def test_an_njit_function_inside_a_cuda_kernel(device):
    # Numba's documented CPU-GPU idiom: the same function on the host and in a kernel.
    @numba.jit
    def business_logic(x, y, z):
        return 4 * z * (2 * x - (4 * y) / 2 * math.pi)

    @cuda.jit
    def kernel(x, y, z, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = business_logic(x[i], y[i], z[i])

    x, y, z = (kiln.asarray(np.arange(16.0) + k, device=device) for k in range(3))
    out = kiln.zeros(16, device=device)
    kernel[1, 16](x, y, z, out)
    want = [business_logic(float(a), float(b), float(c)) for a, b, c in zip(*(kiln.asnumpy(v) for v in (x, y, z)))]
    np.testing.assert_allclose(kiln.asnumpy(out), want, rtol=1e-14)


def test_kiln_numba_cuda_is_kiln_cuda():
    import importlib

    assert importlib.import_module("kiln.numba.cuda") is kiln.cuda
    assert numba.float32 is kiln.cuda.float32 and numba.vectorize is kiln.cuda.vectorize


def test_a_tuple_of_scalars_comes_back_as_a_tuple():
    @njit
    def stats(x):
        lo, hi, total = x[0], x[0], 0.0
        for i in range(x.shape[0]):
            lo = min(lo, x[i])
            hi = max(hi, x[i])
            total += x[i]
        return lo, hi, (total, x.shape[0])

    x = np.array([3.0, -1.0, 4.0, 1.5])
    got = stats(x)
    assert got == stats.py_func(x) == (-1.0, 4.0, (7.5, 4))
    assert type(got[2][1]) is int and type(got[0]) is float
