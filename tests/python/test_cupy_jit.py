"""CuPy's Python kernel language (cupyx.jit as kiln.jit) on every device,
compared with NumPy."""
import numpy as np
import pytest

import kiln
from kiln import jit


@jit.rawkernel()
def strided_copy(x, y, size):
    tid = jit.threadIdx.x + jit.blockDim.x * jit.blockIdx.x
    ntid = jit.gridDim.x * jit.blockDim.x
    for i in jit.range(tid, size, ntid):
        y[i] = x[i]


@jit.rawkernel(device=True)
def squared(v):
    return v * v


@jit.rawkernel()
def block_sums_of_squares(x, out):
    block = jit.shared_memory(np.float64, 64)
    t = jit.threadIdx.x
    i = jit.grid(1)
    block[t] = squared(x[i]) if i < x.size else 0.0
    jit.syncthreads()
    if t == 0:
        total = 0.0
        for k in range(64):
            total += block[k]
        jit.atomic_add(out, 0, total)


def test_cupy_call_form_and_numba_launch_form(device):
    x = np.arange(1000, dtype=np.float32)
    kx, ky = kiln.asarray(x, device=device), kiln.zeros(1000, dtype="float32", device=device)
    strided_copy((3,), (64,), (kx, ky, np.int32(1000)))
    np.testing.assert_array_equal(kiln.asnumpy(ky), x)
    ky2 = kiln.zeros(1000, dtype="float32", device=device)
    strided_copy[2, 32](kx, ky2, 1000)
    np.testing.assert_array_equal(kiln.asnumpy(ky2), x)


def test_shared_memory_device_function_and_atomics(device):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1000)
    out = kiln.zeros(1, dtype="float64", device=device)
    block_sums_of_squares(((1000 + 63) // 64,), (64,), (kiln.asarray(x, device=device), out))
    np.testing.assert_allclose(kiln.asnumpy(out)[0], (x * x).sum(), rtol=1e-12)


def test_bad_calls_are_refused():
    with pytest.raises(TypeError, match="args must be a tuple"):
        strided_copy((1,), (1,), [kiln.zeros(1), kiln.zeros(1), 1])
    with pytest.raises(ValueError, match="mode"):
        jit.rawkernel(mode="numba")
    with pytest.raises(RuntimeError, match="device function"):  # Numba's error: the faces share the dispatcher
        squared[1, 1](1.0)


@jit.rawkernel()
def int32_sum(a, out):
    out[0] = a[0] + a[0]


def test_integer_arithmetic_promotes_as_numpy(device):
    """CuPy's jit types int32 + int32 as int32 (NumPy's rule; Numba's jit
    gives int64), so the sum wraps as CuPy's would."""
    a = kiln.asarray(np.array([2_000_000_000], dtype=np.int32), device=device)
    out = kiln.zeros(1, dtype="int64", device=device)
    int32_sum((1,), (1,), (a, out))
    assert int(kiln.asnumpy(out)[0]) == np.int32(2_000_000_000).astype(np.int64) * 2 - 2**32
