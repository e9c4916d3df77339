"""Zero-copy exchange and NumPy's protocols: DLPack both ways (NumPy here;
PyTorch, CuPy and JAX where installed, on the GPU), __cuda_array_interface__
(CuPy, PyTorch, Numba), __array_ufunc__/__array_function__/__array__, and
kiln.profiler and kiln.show_config."""
import io
import os
import subprocess
import sys

import numpy as np
import pytest

import kiln

from conftest import ALL_DTYPES

needs_gpu = pytest.mark.skipif(not kiln.cuda.is_available(), reason="needs a GPU")


def _ptr(a):
    return a.__array_interface__["data"][0] if isinstance(a, np.ndarray) else a._data_ptr


# ---- DLPack with NumPy (CPU) ----------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dlpack_round_trip_with_numpy_shares_memory(dtype):
    a = (np.arange(24) % 7).astype(dtype).reshape(4, 6)
    k = kiln.from_dlpack(a)
    assert k.dtype.name == np.dtype(dtype).name and k.shape == (4, 6) and _ptr(k) == _ptr(a)
    back = np.from_dlpack(k)
    assert _ptr(back) == _ptr(a)
    np.testing.assert_array_equal(back, a)


@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[::-1, 1::2], lambda a: a[1], lambda a: a[2, 3, ...],
                                  lambda a: a[:0], lambda a: a[:, None, ::3]])
def test_dlpack_keeps_strides_zero_d_and_empty(view):
    a = np.arange(24, dtype=np.float64).reshape(4, 6)
    v = view(a)
    k = kiln.from_dlpack(v)
    assert k.shape == v.shape and k.strides == v.strides
    np.testing.assert_array_equal(kiln.asnumpy(k), v)
    back = np.from_dlpack(kiln.asarray(k))
    assert back.shape == v.shape and back.strides == v.strides
    np.testing.assert_array_equal(back, v)


def test_dlpack_writes_are_seen_both_ways():
    a = np.zeros(5)
    k = kiln.from_dlpack(a)
    k[1] = 7.0
    assert a[1] == 7.0
    b = np.from_dlpack(k)
    b[2] = 3.0
    assert float(k[2]) == 3.0


def test_dlpack_read_only_is_honoured():
    a = np.arange(4.0)
    a.flags.writeable = False
    k = kiln.from_dlpack(a)
    assert not k._writeable
    with pytest.raises((ValueError, TypeError)):
        k[0] = 1.0
    assert not np.from_dlpack(k).flags.writeable  # said by a versioned capsule
    with pytest.raises(BufferError, match="read-only"):
        k.__dlpack__()  # a legacy capsule cannot say it


def test_dlpack_device_copy_and_capsules():
    k = kiln.arange(6.0)
    assert k.__dlpack_device__() == (1, 0)
    copy = kiln.from_dlpack(np.arange(3.0), copy=True)
    assert copy.shape == (3,)
    c = k.__dlpack__(max_version=(1, 0), copy=True)
    back = kiln._core._dlpack_import(c)
    assert _ptr(back) != _ptr(k)
    with pytest.raises(TypeError, match="not yet consumed"):
        kiln._core._dlpack_import(c)  # a capsule is consumed once
    with pytest.raises(ValueError, match="stream must be None"):
        k.__dlpack__(stream=1)
    with pytest.raises(BufferError, match="device type"):
        k.__dlpack__(dl_device=(4, 0))
    with pytest.raises(TypeError, match="__dlpack__"):
        kiln.from_dlpack([1, 2])
    del c  # an unconsumed capsule frees its tensor with itself
    kiln.arange(3.0).__dlpack__()


# ---- NumPy's protocols ----------------------------------------------------

def test_numpy_ufuncs_run_in_kiln(device):
    x = kiln.asarray(np.linspace(-2, 2, 9), device=device)
    for ufunc in (np.sin, np.exp, np.abs, np.negative, np.floor):
        got = ufunc(x)
        assert isinstance(got, kiln.ndarray) and got.device == device
        np.testing.assert_allclose(kiln.asnumpy(got), ufunc(kiln.asnumpy(x)))
    got = np.add(x, 1.5)
    assert isinstance(got, kiln.ndarray)
    np.testing.assert_allclose(kiln.asnumpy(got), kiln.asnumpy(x) + 1.5)
    out = kiln.empty(9, device=device)
    assert np.multiply(x, x, out=out) is out
    np.testing.assert_allclose(kiln.asnumpy(out), kiln.asnumpy(x) ** 2)
    m = kiln.asarray(np.arange(12.0).reshape(3, 4), device=device)
    np.testing.assert_allclose(kiln.asnumpy(np.add.reduce(m)), np.arange(12.0).reshape(3, 4).sum(0))
    np.testing.assert_allclose(kiln.asnumpy(np.maximum.reduce(m, axis=1, keepdims=True)), [[3.0], [7.0], [11.0]])
    np.testing.assert_allclose(kiln.asnumpy(np.add.accumulate(m, axis=1)), np.cumsum(np.arange(12.0).reshape(3, 4), 1))
    red = kiln.empty(4, device=device)
    assert np.add.reduce(m, out=red) is red
    # NumPy scalars on the left reach kiln as 0-d NumPy arrays: typed scalars on any device
    for scalar in (np.float64(0.5), np.float32(0.5), np.int64(1)):
        got = scalar == x
        assert isinstance(got, kiln.ndarray) and got.device == device
        np.testing.assert_array_equal(kiln.asnumpy(got), scalar == kiln.asnumpy(x))
        got = scalar * x
        assert got.device == device and got.dtype == (scalar * kiln.asnumpy(x)).dtype
    assert np.float64(2.0) == x[8] and not np.float64(2.0) != x[8]


def test_numpy_functions_dispatch_to_kiln(device):
    x = kiln.asarray(np.arange(12.0).reshape(3, 4), device=device)
    for fn, args in ((np.sum, ()), (np.mean, ()), (np.transpose, ()), (np.clip, (2, 5)), (np.reshape, ((4, 3),))):
        got = fn(x, *args)
        assert isinstance(got, kiln.ndarray) and got.device == device, fn.__name__
        np.testing.assert_allclose(kiln.asnumpy(got), fn(kiln.asnumpy(x), *args))
    assert isinstance(np.where(x > 3, x, 0), kiln.ndarray)


def test_what_kiln_lacks_and_mixing_devices_are_type_errors():
    x = kiln.arange(4.0)
    with pytest.raises(TypeError):
        np.spacing(x)  # no kiln spacing: NotImplemented, so NumPy's TypeError
    out = kiln.zeros(4)
    np.add(x, 1, out=out, where=np.array([True, False, True, True]))  # kiln's ufunc follows where=
    np.testing.assert_array_equal(out.get(), [1.0, 0.0, 3.0, 4.0])
    assert isinstance(np.arange(4.0) + x, kiln.ndarray)  # NumPy and kiln CPU arrays mix
    np.testing.assert_array_equal(np.asarray(x), [0.0, 1.0, 2.0, 3.0])


@needs_gpu
def test_gpu_arrays_refuse_implicit_numpy_conversion():
    x = kiln.arange(4.0, device="cuda")
    with pytest.raises(TypeError, match="kiln.asnumpy"):
        np.asarray(x)
    with pytest.raises(TypeError):
        np.add(x, np.arange(4.0))  # no implicit transfers
    with pytest.raises(AttributeError):
        kiln.arange(3.0).__cuda_array_interface__


class _HostInterface:
    """Host memory offered as CUDA memory."""

    def __init__(self, a):
        self.a = a
        self.__cuda_array_interface__ = {"shape": (3,), "typestr": "<f8", "version": 3, "strides": None,
                                         "data": (a.__array_interface__["data"][0], False), "stream": None}


@needs_gpu
def test_cuda_array_interface_of_host_memory_is_refused_beside_a_gpu():
    with pytest.raises(ValueError, match="not GPU memory"):
        kiln.asarray(_HostInterface(np.zeros(3)))
    with pytest.raises(AttributeError, match="only available for arrays on a GPU"):
        kiln.arange(3.0, device="cpu").__cuda_array_interface__


@pytest.mark.skipif(kiln.cuda.is_available(), reason="without a GPU only")
def test_without_a_gpu_cpu_arrays_are_the_cuda_arrays():
    # kiln's CPU stands in for CUDA device 0, as Numba's simulator does
    host = np.arange(3.0)
    viewed = kiln.asarray(_HostInterface(host))
    assert viewed.device == kiln.Device("cpu")
    viewed[1] = 7.0
    assert host[1] == 7.0  # the same memory, not a copy
    x = kiln.arange(6.0, device="cpu").reshape(2, 3)
    d = x.T.__cuda_array_interface__
    assert d["data"][0] == x._data_ptr and d["strides"] == (8, 24) and d["stream"] is None
    np.testing.assert_array_equal(kiln.asnumpy(kiln.cuda.from_cuda_array_interface(d)), np.arange(6.0).reshape(2, 3).T)


# ---- GPU exchange with the other libraries -------------------------------

@needs_gpu
def test_cuda_array_interface_export():
    x = kiln.asarray(np.arange(12.0, dtype=np.float32).reshape(3, 4), device="cuda")
    d = x.__cuda_array_interface__
    assert d["version"] == 3 and d["shape"] == (3, 4) and d["typestr"] == "<f4" and d["strides"] is None
    assert d["data"] == (x._data_ptr, False) and d["stream"] == 1  # the legacy default stream
    assert x.T.__cuda_array_interface__["strides"] == (4, 16)
    s = kiln.cuda.Stream()
    with s:
        assert x.__cuda_array_interface__["stream"] == s.ptr


@needs_gpu
def test_cupy_round_trips_without_copies():
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(24, dtype=cupy.float32).reshape(4, 6)[:, ::2]
    for k in (kiln.asarray(c), kiln.from_dlpack(c)):
        assert k._data_ptr == c.data.ptr and k.strides == c.strides and k.device == kiln.Device("cuda")
        np.testing.assert_array_equal(kiln.asnumpy(k), cupy.asnumpy(c))
    x = kiln.asarray(np.arange(6.0), device="cuda")
    for c2 in (cupy.asarray(x), cupy.from_dlpack(x)):
        assert c2.data.ptr == x._data_ptr
        c2[0] = 42.0
    assert float(x[0]) == 42.0
    empty, scalar = kiln.asarray(cupy.zeros((0, 3))), kiln.asarray(cupy.array(5.0))
    assert empty.shape == (0, 3) and scalar.shape == () and float(scalar) == 5.0


@needs_gpu
def test_torch_round_trips_and_stream_order():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float64, device="cuda").reshape(3, 4).t()
    k = kiln.from_dlpack(t)
    assert k._data_ptr == t.data_ptr() and k.strides == tuple(s * 8 for s in t.stride())
    k2 = kiln.asarray(t)  # through __cuda_array_interface__
    assert k2._data_ptr == t.data_ptr()
    back = torch.from_dlpack(k)
    assert back.data_ptr() == t.data_ptr() and torch.equal(back, t)
    # A producer writing on a side stream: the consumer reading right after the exchange sees the data.
    side = torch.cuda.Stream()
    big = torch.empty(1 << 24, device="cuda")
    with torch.cuda.stream(side):
        torch.cuda._sleep(20_000_000)  # keeps the side stream busy
        big.fill_(3.0)
        got = kiln.from_dlpack(big)  # torch makes kiln's stream wait for `side`
    assert float(kiln.sum(got)) == 3.0 * (1 << 24)
    class Producer:  # a version-3 producer that wrote on `side` (PyTorch's own interface is version 2, no stream)
        def __init__(self, tensor, stream):
            self.__cuda_array_interface__ = dict(tensor.__cuda_array_interface__, version=3, stream=stream)

    with torch.cuda.stream(side):
        torch.cuda._sleep(20_000_000)
        big.fill_(5.0)
    got = kiln.asarray(Producer(big, side.cuda_stream))  # kiln's stream waits for `side`
    assert float(kiln.sum(got)) == 5.0 * (1 << 24)
    ro = kiln.asarray(np.arange(3.0), device="cuda")
    assert torch.from_dlpack(ro).data_ptr() == ro._data_ptr


@needs_gpu
def test_arrays_on_a_device_that_is_not_current():
    """DLPack and __cuda_array_interface__ both ways with PyTorch and CuPy,
    the arrays on the last GPU while device 0 is current."""
    if kiln.cuda.device_count() < 2:
        pytest.skip("needs two GPUs")
    last = kiln.cuda.device_count() - 1
    torch = pytest.importorskip("torch")
    t = torch.arange(10, dtype=torch.float32, device=f"cuda:{last}")
    with kiln.cuda.Device(0):
        k = kiln.from_dlpack(t)
        assert k.device == kiln.Device(f"cuda:{last}") and k._data_ptr == t.data_ptr()
        np.testing.assert_array_equal(kiln.asnumpy(k * 2), np.arange(10) * 2)
        kc = kiln.asarray(t)
        assert kc.device == kiln.Device(f"cuda:{last}") and kc._data_ptr == t.data_ptr()
        mine = kiln.arange(6.0, device=f"cuda:{last}")
        back = torch.from_dlpack(mine)
        assert back.device == torch.device(f"cuda:{last}") and back.data_ptr() == mine._data_ptr
        assert torch.equal(back.cpu(), torch.arange(6.0, dtype=torch.float64))
        assert torch.as_tensor(mine, device=f"cuda:{last}").data_ptr() == mine._data_ptr
    try:
        import cupy
    except ImportError:
        return
    with cupy.cuda.Device(last):
        c = cupy.arange(5.0)
    with kiln.cuda.Device(0):
        kd_ = kiln.from_dlpack(c)
        assert kd_.device == kiln.Device(f"cuda:{last}") and kd_._data_ptr == c.data.ptr
        assert kiln.asarray(c)._data_ptr == c.data.ptr
        mine = kiln.arange(4.0, device=f"cuda:{last}")
        cb = cupy.from_dlpack(mine)
        assert cb.device.id == last and cb.data.ptr == mine._data_ptr
    with cupy.cuda.Device(last):  # CuPy's asarray copies onto its current device
        ca = cupy.asarray(mine)
        assert ca.device.id == last and ca.data.ptr == mine._data_ptr


@needs_gpu
def test_numba_and_jax_exchange():
    x = kiln.asarray(np.arange(8.0), device="cuda")
    try:
        np.row_stack = np.vstack  # Numba reads it; NumPy 2.5 dropped it
        from numba import cuda as numba_cuda
    except ImportError:
        numba_cuda = None
    if numba_cuda is not None:
        n = numba_cuda.as_cuda_array(x)
        assert n.__cuda_array_interface__["data"][0] == x._data_ptr
        k = kiln.asarray(numba_cuda.to_device(np.arange(4.0)))
        np.testing.assert_array_equal(kiln.asnumpy(k), np.arange(4.0))
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return
    if not any(d.platform == "gpu" for d in jax.devices()):
        return
    j = jnp.from_dlpack(x)
    np.testing.assert_array_equal(np.asarray(j), np.arange(8.0))
    k = kiln.from_dlpack(jnp.arange(5.0))
    assert k.device.type == "cuda"
    np.testing.assert_array_equal(kiln.asnumpy(k), np.arange(5.0))


# ---- profiler and show_config ---------------------------------------------

def test_benchmark_reports_cpu_and_gpu_times(device):
    x = kiln.arange(1000.0, device=device)
    r = kiln.profiler.benchmark(lambda: x + 1, n_repeat=50, n_warmup=2, name="add")
    assert r.cpu_times.shape == (50,) and (r.cpu_times > 0).all()
    assert r.gpu_times.shape == (len(r.devices), 50)
    text = str(r)
    assert text.startswith("add") and "CPU:" in text and "min:" in text and "max:" in text
    if kiln.cuda.is_available():
        assert "GPU-0:" in text and (r.gpu_times > 0).all()
    p = kiln.profiler.benchmark(kiln.sin, (x,), n_repeat=20, pipelined=True)
    assert p.pipelined and "(pipelined)" in str(p) and p.cpu_times.shape == (20,)
    short = kiln.profiler.benchmark(lambda: None, n_repeat=10**9, max_duration=0.05)
    assert 1 <= len(short.cpu_times) < 10**9
    with pytest.raises(ValueError, match="n_repeat"):
        kiln.profiler.benchmark(lambda: None, n_repeat=0)


def test_profiler_range_as_context_and_decorator():
    with kiln.profiler.range("outer", color_id=3) as r:
        assert r.message == "outer"

    @kiln.profiler.range("scaled", argb_color=0xFF00FF00)
    def scaled(a):
        return a * 2

    assert scaled(4) == 8 and scaled.__name__ == "scaled"
    with pytest.raises(TypeError, match="message"):
        kiln.profiler.range(3)


def test_show_config_names_what_kiln_uses():
    out = io.StringIO()
    kiln.show_config(file=out)
    text = out.getvalue()
    for key in ("kiln", "Python", "NumPy", "CPU threads", "CUDA driver", "NVRTC", "Kernel cache"):
        assert key in text
    assert kiln._core._kernel_cache_directory() in text


def test_import_kiln_stays_numpy_free_with_the_new_modules():
    code = "import sys, kiln, kiln.profiler; print('numpy' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert run.stdout.strip() == "False", run.stderr


@needs_gpu
def test_gpu_read_only_and_cross_device_exchange():
    torch = pytest.importorskip("torch")
    t = torch.arange(6.0, device="cuda")

    class ReadOnly:  # a producer that lends its memory read-only
        def __init__(self, tensor):
            self.__cuda_array_interface__ = dict(tensor.__cuda_array_interface__, version=3, stream=None)
            self.__cuda_array_interface__["data"] = (tensor.data_ptr(), True)

    k = kiln.asarray(ReadOnly(t))
    assert not k._writeable and k.__cuda_array_interface__["data"] == (t.data_ptr(), True)
    with pytest.raises(BufferError, match="read-only"):
        k.__dlpack__()
    assert kiln._core._dlpack_import(k.__dlpack__(max_version=(1, 0)))._writeable is False
    # To another device: NumPy asks for the host (dl_device), kiln copies; kiln asks PyTorch for the CPU.
    host = np.from_dlpack(kiln.asarray(np.arange(4.0), device="cuda"), device="cpu")
    np.testing.assert_array_equal(host, np.arange(4.0))
    on_cpu = kiln.from_dlpack(t, device="cpu")
    assert on_cpu.device == kiln.Device("cpu")
    np.testing.assert_array_equal(kiln.asnumpy(on_cpu), np.arange(6.0))
    with pytest.raises((ValueError, BufferError)):
        kiln.from_dlpack(t, device="cpu", copy=False)
