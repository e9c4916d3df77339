"""Shared fixtures: the devices under test, random data per dtype, NumPy comparison."""
import os

# Tests name their device; arrays made without one stay on the CPU here
# (test_cuda_runtime checks the default device itself, in subprocesses).
os.environ.setdefault("KILN_DEVICE", "cpu")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import kiln  # noqa: E402
import kiln._ndarray.device  # noqa: E402

ALL_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
              "float16", "float32", "float64", "complex64", "complex128"]
INT_DTYPES = [d for d in ALL_DTYPES if d.startswith(("int", "uint"))]
FLOAT_DTYPES = ["float16", "float32", "float64"]
COMPLEX_DTYPES = ["complex64", "complex128"]
NUMERIC_DTYPES = ALL_DTYPES[1:]


def available_devices():
    names = ["cpu"] + (["cuda"] if kiln.cuda.is_available() else [])
    wanted = os.environ.get("KILN_TEST_DEVICES")
    if wanted:
        names = [d for d in names if d in wanted.split(",")]
    return names


@pytest.fixture(params=available_devices())
def device(request):
    return kiln.Device(request.param)


@pytest.fixture
def current(device):
    """Makes `device` the default device (PyCUDA's current context, where
    cuda.to_device and mem_alloc put memory)."""
    saved = kiln._ndarray.device._default_kind
    kiln._ndarray.device._default_kind = device
    yield device
    kiln._ndarray.device._default_kind = saved


def random_array(shape, dtype, rng, low=-5, high=5, nonzero=False):
    """Random values of ``dtype`` spread over [low, high) (unsigned: [0, high))."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        a = rng.random(shape) < 0.5
    elif dt.kind in "iu":
        lo = 0 if dt.kind == "u" else max(low, np.iinfo(dt).min)
        a = rng.integers(lo, max(high, lo + 1), size=shape).astype(dt)
        if nonzero:
            a[a == 0] = 1
    elif dt.kind == "f":
        a = rng.uniform(low, high, size=shape).astype(dt)
    else:
        a = (rng.uniform(low, high, size=shape) + 1j * rng.uniform(low, high, size=shape)).astype(dt)
    if nonzero and dt.kind in "fc":
        a[a == 0] = 1
    return np.asarray(a)


def tolerance(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return 0
    real_size = dt.itemsize if dt.kind == "f" else dt.itemsize // 2
    return {2: 2e-3, 4: 2e-5, 8: 1e-12}[real_size]


def assert_matches(result, expected, rtol=None):
    """kiln ``result`` equals NumPy's ``expected``: type, dtype, shape and values."""
    assert isinstance(result, kiln.ndarray), f"expected a kiln.ndarray, got {type(result).__name__}"
    expected = np.asarray(expected)
    assert result.dtype == expected.dtype, f"dtype {result.dtype} != NumPy's {expected.dtype}"
    assert result.shape == expected.shape, f"shape {result.shape} != NumPy's {expected.shape}"
    got = kiln.asnumpy(result)
    if rtol is None:
        rtol = tolerance(expected.dtype)
    if rtol == 0:
        np.testing.assert_array_equal(got, expected)
    else:
        scale = max(1.0, float(np.max(np.abs(expected[np.isfinite(expected)]), initial=0)))
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale, equal_nan=True)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
