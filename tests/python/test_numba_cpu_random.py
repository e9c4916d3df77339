"""kiln.numba: np.random and Python's random inside @njit functions. Seeded
inside, they draw what NumPy's legacy RandomState and CPython's random
module draw after the same seed; the canonical Monte Carlo estimate of pi
(Numba's front-page example) runs."""
import random

import numpy as np
import pytest

from kiln.numba import njit, prange


def test_numpys_legacy_streams_after_seed():
    @njit
    def draws(seed):
        np.random.seed(seed)
        a = np.random.random()
        b = np.random.rand()
        c = np.random.uniform(2.0, 5.0)
        d = np.random.normal(1.0, 3.0)
        e = np.random.randn()
        f = np.random.standard_normal()
        g = np.random.randint(0, 1000)
        h = np.random.randint(10)
        return a, b, c, d, e, f, g, h

    for seed in (0, 42, 2**32 - 1):
        rs = np.random.RandomState(seed)
        want = (rs.random_sample(), rs.rand(), rs.uniform(2.0, 5.0), rs.normal(1.0, 3.0), rs.randn(),
                rs.standard_normal(), rs.randint(0, 1000), rs.randint(10))
        got = draws(seed)
        assert got[:6] == pytest.approx(want[:6], rel=1e-15, abs=0)
        assert got[6:] == want[6:]


def test_arrays_of_draws():
    @njit
    def arrays(seed, n):
        np.random.seed(seed)
        return np.random.random(n), np.random.rand(2, 3), np.random.normal(0.0, 2.0, (n, 2)), \
            np.random.randint(-5, 5, n)

    @njit
    def first(seed, n):
        np.random.seed(seed)
        return np.random.random(n)

    @njit
    def matrix(seed):
        np.random.seed(seed)
        np.random.random(4)
        return np.random.rand(2, 3)

    rs = np.random.RandomState(7)
    np.testing.assert_array_equal(first(7, 4), rs.random_sample(4))
    np.testing.assert_array_equal(matrix(7), rs.rand(2, 3))

    @njit
    def normals(seed, n):
        np.random.seed(seed)
        return np.random.normal(0.0, 2.0, (n, 2))

    @njit
    def integers(seed, n):
        np.random.seed(seed)
        return np.random.randint(-5, 5, n)

    np.testing.assert_allclose(normals(3, 5), np.random.RandomState(3).normal(0.0, 2.0, (5, 2)), rtol=1e-15)
    got = integers(3, 50)
    np.testing.assert_array_equal(got, np.random.RandomState(3).randint(-5, 5, 50))
    assert got.dtype == np.int64


def test_pythons_random_module_after_seed():
    @njit
    def draws(seed):
        random.seed(seed)
        return random.random(), random.uniform(1.0, 2.0), random.randint(1, 6), random.randrange(100), \
            random.gauss(0.0, 1.0), random.randrange(3, 2**40)

    for seed in (0, 12345, 2**40 + 3):
        random.seed(seed)
        want = (random.random(), random.uniform(1.0, 2.0), random.randint(1, 6), random.randrange(100),
                random.gauss(0.0, 1.0), random.randrange(3, 2**40))
        got = draws(seed)
        assert got[:2] == pytest.approx(want[:2], rel=1e-15, abs=0)
        assert got[2:4] == want[2:4] and got[5] == want[5]
        assert got[4] == pytest.approx(want[4], rel=1e-12)


def monte_carlo_pi(nsamples):
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x ** 2 + y ** 2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


def test_numbas_front_page_monte_carlo_pi():
    estimate = njit(monte_carlo_pi)(200_000)
    assert abs(estimate - np.pi) < 0.02


def test_unseeded_generators_differ_between_calls_and_threads():
    @njit
    def draw(n):
        return np.random.random(n)

    assert not np.array_equal(draw(8), draw(8))

    @njit(parallel=True)
    def parallel_pi(n):
        acc = 0
        for i in prange(n):
            x = np.random.random()
            y = np.random.random()
            if x * x + y * y < 1.0:
                acc += 1
        return 4.0 * acc / n

    assert abs(parallel_pi(400_000) - np.pi) < 0.02


def test_a_kernel_has_no_numpy_random():
    from kiln import cuda
    from kiln._jit.errors import UnsupportedError

    @cuda.jit
    def kernel(out):
        out[0] = np.random.random()

    with pytest.raises(UnsupportedError, match="random numbers in a CUDA kernel"):
        kernel[1, 1](np.zeros(1))
