"""NumPy's datetime64 and timedelta64 in kiln.cuda.jit kernels, ufuncs and
gufuncs, and Numba's device arrays of them, on every device: NumPy's result
types, units and NaT, against NumPy."""
import numpy as np
import pytest

from kiln import cuda
from kiln._jit.errors import TypingError


@cuda.jit
def _elapsed(start, end, out, before, ratio, hour):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = end[i] - start[i]
        before[i] = start[i] < end[i]
        ratio[i] = (end[i] - start[i]) / hour


def _dates(rng, n, unit="h"):
    start = np.datetime64("2020-01-01T00", unit) + rng.integers(-5000, 5000, n).astype(f"m8[{unit}]")
    return start


def test_kernel_arithmetic_units_and_nat(current):
    rng = np.random.default_rng(2)
    start = _dates(rng, 50)  # hours
    end = (np.datetime64("2020-03-01", "D") + rng.integers(-300, 300, 50).astype("m8[D]"))  # days: finer unit wins
    start[3], end[7] = np.datetime64("NaT"), np.datetime64("NaT")
    out, before, ratio = np.zeros(50, "m8[h]"), np.zeros(50, bool), np.zeros(50)
    _elapsed[2, 32](start, end, out, before, ratio, np.timedelta64(1, "h"))
    np.testing.assert_array_equal(out, end - start)
    np.testing.assert_array_equal(before, start < end)  # NaT compares false
    np.testing.assert_array_equal(ratio, (end - start) / np.timedelta64(1, "h"))  # NaN where NaT


def test_device_arrays_of_times(current):
    dates = np.arange("2005-02", "2006-02", dtype="datetime64[D]")
    on_device = cuda.to_device(dates)
    assert on_device.dtype == dates.dtype and on_device.shape == dates.shape
    counts = on_device.view(np.int64)  # the same memory, as Numba's view is
    assert counts.gpu_data == on_device.gpu_data
    np.testing.assert_array_equal(counts.copy_to_host(), dates.view(np.int64))
    shifted = cuda.device_array(dates.shape, dtype="datetime64[D]")

    @cuda.jit
    def shift(src, by, dst):
        i = cuda.grid(1)
        if i < src.size:
            dst[i] = src[i] + by * 2

    shift[(dates.size + 31) // 32, 32](on_device, np.timedelta64(3, "D"), shifted)
    np.testing.assert_array_equal(shifted.copy_to_host(), dates + np.timedelta64(6, "D"))


def test_ufunc_and_gufunc_of_times(current):
    day = cuda.types.from_dtype(np.dtype("datetime64[D]"))
    delta = cuda.types.from_dtype(np.dtype("timedelta64[D]"))
    assert isinstance(day, cuda.types.NPDatetime) and isinstance(delta, cuda.types.NPTimedelta)

    @cuda.vectorize([(day, day)])
    def difference(a, b):
        return b - a

    @cuda.guvectorize([(day, day, delta[:])], "(),()->()")
    def difference_gu(a, b, out):
        out[0] = b - a

    a = np.arange("2005-02", "2005-04", dtype="datetime64[D]")
    b = a + np.random.default_rng(1).integers(0, 1000, a.size)
    for f in (difference, difference_gu):
        got = f(a, b)
        assert got.dtype == np.dtype("m8[D]")
        np.testing.assert_array_equal(got, b - a)


def test_what_numpy_refuses_is_refused_in_kernels(current):
    @cuda.jit
    def add_dates(a, out):
        out[0] = a[0] + a[1]

    @cuda.jit
    def scale(a, out):
        out[0] = a[0] * 1.5

    dates = np.array(["2020-01-01", "2020-01-02"], "M8[D]")
    with pytest.raises(TypingError, match="NumPy has no Add"):
        add_dates[1, 1](dates, np.zeros(1, "M8[D]"))
    with pytest.raises(TypingError, match="Mult"):
        scale[1, 1](dates - dates[0], np.zeros(1, "m8[D]"))
