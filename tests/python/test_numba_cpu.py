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


def test_arrays_made_inside_come_back_as_numpy_arrays():
    @njit
    def ramp(n):
        a = np.zeros(n)
        for i in range(n):
            a[i] = i * 0.5
        return a

    got = ramp(5)
    assert type(got) is np.ndarray and got.dtype == np.float64
    assert np.array_equal(got, ramp.py_func(5))
    assert ramp(0).shape == (0,)
    with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
        ramp(-1)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, np.complex64,
                                   np.complex128, np.bool_])
def test_every_creation_function_matches_numpy(dtype):
    x = np.arange(1, 5).astype(dtype)
    def empty(x, n):
        return np.empty((n, 3), dtype)

    def zeros(x, n):
        return np.zeros((n, 3), dtype)

    def ones(x, n):
        return np.ones(n, dtype)

    def full(x, n):
        return np.full((2, n), x[1], dtype)

    def full_of_a_values_type(x, n):
        return np.full(n, x[1])

    def empty_like(x, n):
        return np.empty_like(x)

    def zeros_like(x, n):
        return np.zeros_like(x)

    def ones_like(x, n):
        return np.ones_like(x)

    def full_like(x, n):
        return np.full_like(x, x[1])

    def shape_of_an_array(x, n):
        return np.zeros(x.shape, dtype)

    made = {f.__name__: f for f in (empty, zeros, ones, full, full_of_a_values_type, empty_like, zeros_like,
                                    ones_like, full_like, shape_of_an_array)}
    for name, function in made.items():
        got, want = njit(function)(x, 4), function(x, 4)
        assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape, name
        if not name.startswith("empty"):
            assert np.array_equal(got, want), name


def test_arange_and_arrays_made_and_freed_inside_a_loop():
    @njit
    def sums(n):
        total = 0
        for k in range(n):
            a = np.arange(k)  # made and dropped each pass: freed when the call returns
            for i in range(a.shape[0]):
                total += a[i]
        return total

    assert sums(50) == sums.py_func(50) == sum(k * (k - 1) // 2 for k in range(50))

    @njit
    def ranges(start, stop, step):
        return np.arange(start, stop, step)

    for args in [(0, 10, 3), (1.5, 4.0, 0.5), (10, 0, -2), (5, 5, 1)]:
        want = np.arange(*args)
        got = ranges(*args)
        assert got.dtype == want.dtype and np.allclose(got, want), args
    with pytest.raises(ZeroDivisionError):
        ranges(0, 1, 0)


def test_linspace_matches_numpys_points():
    @njit
    def points(start, stop, num, endpoint):
        return np.linspace(start, stop, num, endpoint)

    for args in [(0, 1, 5, True), (2.5, -1.0, 7, True), (0, 1, 4, False), (3, 3, 1, True), (0, 1, 0, True)]:
        want, got = np.linspace(*args), points(*args)
        assert got.dtype == want.dtype and got.shape == want.shape, args
        np.testing.assert_array_equal(got, want)  # the last point exactly stop, as NumPy's

    @njit
    def default_num(stop):
        return np.linspace(0, stop)

    np.testing.assert_array_equal(default_num(2.0), np.linspace(0, 2.0))
    with pytest.raises(ValueError):
        points(0, 1, -1, True)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128])
def test_np_array_of_numbers_written_out(dtype):
    @njit
    def values(x, n):
        return np.array([1.0, x, n])

    @njit
    def rows(x, n):
        return np.array([[x, n], (n, x), [1, 2]], dtype)

    for function in (values, rows):
        got, want = function(dtype(2.5), 3), function.py_func(dtype(2.5), 3)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_copies_are_new_c_ordered_arrays():
    @njit
    def copies(a):
        b = a.copy()
        b[0, 0] = -1
        return np.copy(a[::2, ::-1]) + b[0, 0]

    a = np.arange(12.0).reshape(3, 4)
    got = copies(a)
    np.testing.assert_array_equal(got, copies.py_func(a.copy()))
    assert a[0, 0] == 0.0  # the argument unchanged


def test_a_kernel_makes_no_arrays():
    @njit
    def scratch(n):
        a = np.zeros(n)
        return a[0]

    @cuda.jit
    def kernel(out):
        out[0] = scratch(3)

    out = np.zeros(1)
    with pytest.raises(Exception, match="only by @njit functions called from Python"):
        kernel[1, 1](out)
    assert scratch(3) == 0.0


def test_prange_splits_a_parallel_loop_with_numbas_reductions():
    def reduce(x):
        total, product, lo, hi, count = 0.0, 1.0, np.inf, -np.inf, 0
        for i in prange(x.shape[0]):
            v = x[i] * 0.5  # each iteration's own
            total += v
            product *= 1.0 + v * 1e-6
            lo = min(lo, v)
            hi = max(v, hi)
            if v > 0.25:
                count += 1
        return total, product, lo, hi, count

    x = np.random.default_rng(3).random(100_001)
    want = reduce(x)
    parallel = njit(parallel=True)(reduce)
    got = parallel(x)
    assert np.allclose(got[:2], want[:2], rtol=1e-12) and got[2:] == want[2:]
    assert "#pragma omp parallel for" in parallel.inspect_types()  # split, not run as range
    serial = njit(reduce)
    assert serial(x)[2:] == want[2:]
    assert "#pragma omp" not in serial.inspect_types()


def test_a_parallel_loop_writes_arrays_and_falls_back_where_it_must():
    @njit(parallel=True)
    def squares(n):
        out = np.empty(n)
        for i in prange(n):
            t = i * i
            out[i] = t
        return out

    assert np.array_equal(squares(1000), np.arange(1000.0) ** 2)

    @njit(parallel=True)
    def first_over(x, limit):
        found = -1
        for i in prange(x.shape[0]):  # a break: run in order, as range
            if x[i] > limit:
                found = i
                break
        return found

    assert first_over(np.arange(100.0), 41.5) == 42

    @njit(parallel=True)
    def nested(x):
        total = 0.0
        for i in prange(x.shape[0]):
            for j in range(x.shape[0]):
                total += abs(x[i] - x[j])
        return total

    x = np.linspace(0.0, 1.0, 300)
    assert np.isclose(nested(x), nested.py_func(x), rtol=1e-12)
