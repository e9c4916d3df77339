"""kiln.cuda: devices, streams, events, the memory pool and transfers.

The GPU tests run where a GPU is present (the device machine); without one
the module checks that everything fails with CUDAError instead.
"""
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import kiln
from conftest import ALL_DTYPES, random_array

needs_gpu = pytest.mark.skipif(not kiln.cuda.is_available(), reason="no CUDA device")
no_gpu = pytest.mark.skipif(kiln.cuda.is_available(), reason="a CUDA device is present")


def _device_of_new_array(env_value):
    env = {k: v for k, v in os.environ.items() if k != "KILN_DEVICE"}
    if env_value is not None:
        env["KILN_DEVICE"] = env_value
    code = "import kiln, numpy; print(kiln.zeros(2).device, kiln.asarray(numpy.ones(2)).device)"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)


def test_default_device_follows_the_gpu_and_kiln_device():
    expected = "cuda:0" if kiln.cuda.is_available() else "cpu"
    assert _device_of_new_array(None).stdout.split() == [expected, expected]
    assert _device_of_new_array("cpu").stdout.split() == ["cpu", "cpu"]
    bad = _device_of_new_array("tpu")
    assert bad.returncode != 0 and "cpu" in bad.stderr and "cuda" in bad.stderr


@no_gpu
def test_without_a_gpu_cuda_arrays_say_cuda_error(capsys):
    assert kiln.cuda.device_count() == 0
    assert kiln.cuda.detect() is False
    assert "not available" in capsys.readouterr().out
    with pytest.raises(kiln.cuda.CUDAError):
        kiln.cuda.Device(1)  # device 0 is the host in CPU mode (test_cuda_dialects.py)
    with pytest.raises(kiln.cuda.CUDAError, match="not available"):
        kiln.zeros(3, device="cuda")
    with pytest.raises(kiln.cuda.CUDAError):
        kiln.asarray([1, 2], device="cuda")


@needs_gpu
def test_device_queries(capsys):
    d = kiln.cuda.Device(0)
    assert d.id == 0 and d == kiln.Device("cuda:0")
    assert d.name and len(d.compute_capability) >= 2
    free, total = d.mem_info
    assert 0 < free <= total
    attrs = d.attributes
    assert attrs["WarpSize"] == 32 and attrs["MultiProcessorCount"] > 0
    assert kiln.cuda.detect() is True
    out = capsys.readouterr().out
    assert "Found" in out and "[SUPPORTED]" in out and "Compute Capability" in out
    with kiln.cuda.Device(0) as dev:
        assert kiln.cuda.get_device_id() == 0 and dev is not None
    d.synchronize()
    with pytest.raises(ValueError, match="does not exist"):
        kiln.zeros(3, device=f"cuda:{kiln.cuda.device_count()}")


@needs_gpu
def test_streams_and_events():
    s = kiln.cuda.Stream(non_blocking=True)
    assert s.ptr != 0 and s != kiln.cuda.Stream.null
    with s:
        assert kiln.cuda.get_current_stream() == s
        a = kiln.asarray(np.arange(1 << 20, dtype=np.float32), device="cuda")
    assert kiln.cuda.get_current_stream() == kiln.cuda.Stream.null
    start, end = kiln.cuda.Event(), kiln.cuda.Event()
    start.record(s)
    b = a.get()
    end.record(s)
    end.synchronize()
    assert end.done and end.query()
    assert kiln.cuda.get_elapsed_time(start, end) >= 0.0
    assert start.elapsed_time(end) >= 0.0
    s.synchronize()
    assert s.done
    np.testing.assert_array_equal(b, np.arange(1 << 20, dtype=np.float32))
    ext = kiln.cuda.ExternalStream(s.ptr)
    assert ext.ptr == s.ptr
    with pytest.raises(ValueError, match="two recorded events"):
        kiln.cuda.get_elapsed_time(kiln.cuda.Event(), kiln.cuda.Event())


@needs_gpu
def test_memory_pool_reuse_limit_and_out_of_memory():
    pool = kiln.get_default_memory_pool()
    pool.free_all_blocks()
    base_used, base_total = pool.used_bytes(), pool.total_bytes()
    a = kiln.empty((1 << 20,), dtype="float32", device="cuda")
    assert pool.used_bytes() >= base_used + (4 << 20)
    ptr = a._data_ptr
    del a
    gc.collect()
    assert pool.used_bytes() == base_used and pool.total_bytes() >= 4 << 20
    b = kiln.empty((1 << 20,), dtype="float32", device="cuda")
    assert b._data_ptr == ptr  # the cached block came back
    del b
    pool.free_all_blocks()
    assert pool.total_bytes() == base_total  # wholly free segments went back to the driver
    pool.set_limit(size=64 << 20)
    try:
        with pytest.raises(kiln.cuda.OutOfMemoryError, match="limit") as info:
            kiln.empty((128 << 20,), dtype="uint8", device="cuda")
        assert isinstance(info.value, MemoryError) and "134217728 bytes" in str(info.value)
    finally:
        pool.set_limit(size=0)
    with pytest.raises(kiln.cuda.OutOfMemoryError, match="out of memory"):
        kiln.empty((1 << 50,), dtype="uint8", device="cuda")


def test_host_allocation_beyond_the_system_raises():
    # Linux overcommits: without kiln's check the allocation would succeed
    # and the process be killed on first touch.
    with pytest.raises(kiln.cuda.memory.OutOfMemoryError, match="available") as info:
        kiln.empty((1 << 50,), dtype="uint8", device="cpu")
    assert isinstance(info.value, MemoryError)
    assert int(kiln.ones(1 << 20, dtype="uint8", device="cpu").sum()) == 1 << 20


@needs_gpu
def test_memory_pool_splits_and_merges_blocks():
    pool = kiln.get_default_memory_pool()
    pool.free_all_blocks()  # sizes far above what other tests leave cached
    big = kiln.empty((512 << 20,), dtype="uint8", device="cuda")
    base, held = big._data_ptr, pool.total_bytes()
    del big
    gc.collect()
    x = kiln.empty((128 << 20,), dtype="uint8", device="cuda")
    y = kiln.empty((256 << 20,), dtype="uint8", device="cuda")
    assert (x._data_ptr, y._data_ptr) == (base, base + (128 << 20))  # split from the cached block
    assert pool.total_bytes() == held
    del x, y
    gc.collect()
    again = kiln.empty((512 << 20,), dtype="uint8", device="cuda")
    assert again._data_ptr == base and pool.total_bytes() == held  # merged back whole


@needs_gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_transfers_round_trip(dtype):
    rng = np.random.default_rng(3)
    for shape in [(0,), (1,), (7,), (1 << 20) + 3, (3, 0, 2), (17, 33)]:
        x = random_array(shape, dtype, rng)
        k = kiln.asarray(x, device="cuda")
        assert k.device == kiln.Device("cuda:0") and k.dtype == x.dtype
        np.testing.assert_array_equal(k.get(), x)
        np.testing.assert_array_equal(kiln.asnumpy(k), x)
        np.testing.assert_array_equal(k.to_device("cpu").get(), x)


@needs_gpu
def test_transfers_of_views_and_into_views():
    x = np.arange(4 * 6 * 5, dtype=np.float64).reshape(4, 6, 5)
    k = kiln.asarray(x, device="cuda")
    for view in (lambda a: a[::2], lambda a: a[:, ::-1, 1::2], lambda a: a.transpose(2, 0, 1), lambda a: a[1, :, 3]):
        np.testing.assert_array_equal(view(k).get(), view(x))
    y = x.copy()
    k[::2, 1] = np.full((2, 5), -1.0)
    y[::2, 1] = -1.0
    k[:, :, 0] = kiln.asarray(np.arange(24.0).reshape(4, 6))
    y[:, :, 0] = np.arange(24.0).reshape(4, 6)
    np.testing.assert_array_equal(k.get(), y)
    host = np.empty_like(y)
    assert kiln.asnumpy(k, out=host) is host
    np.testing.assert_array_equal(host, y)
    k.set(np.zeros_like(y))
    assert not k.get().any()
    assert float(k[1, 2, 3]) == 0.0 and k[0, 0, 0].item() == 0.0
    strided_host = np.arange(40, dtype=np.int32)[::3]
    np.testing.assert_array_equal(kiln.asarray(strided_host, device="cuda").get(), strided_host)
    as_float = kiln.asarray(np.arange(5), dtype="float32", device="cuda")
    assert as_float.dtype == kiln.float32
    np.testing.assert_array_equal(as_float.get(), np.arange(5, dtype=np.float32))


@needs_gpu
def test_pinned_memory():
    mem = kiln.cuda.alloc_pinned_memory(1 << 20)
    view = np.asarray(mem)
    view[:] = 7
    assert view.nbytes == 1 << 20 and view[123] == 7
    assert kiln.get_default_pinned_memory_pool().total_bytes() >= 1 << 20


def test_pinned_memory_pools_as_programs_use_them():
    # CuPy's stream example: a pool's malloc made the pinned allocator, its
    # blocks viewed with numpy.frombuffer. Without a GPU, plain host memory.
    pool = kiln.cuda.PinnedMemoryPool()
    kiln.cuda.set_pinned_memory_allocator(pool.malloc)
    try:
        mem = kiln.cuda.alloc_pinned_memory(4 * 100)
        view = np.frombuffer(mem, np.float32, 100)
        view[...] = np.arange(100)
        np.testing.assert_array_equal(np.frombuffer(mem + 8, np.float32, 98), np.arange(2, 100))
        assert mem.ptr % 4096 == 0 and len(mem) == 400 and int(mem + 8) == mem.ptr + 8
    finally:
        kiln.cuda.set_pinned_memory_allocator(None)
    calls = []
    own = kiln.cuda.PinnedMemoryPool(lambda size: calls.append(size) or kiln.cuda.alloc_pinned_memory(size))
    assert len(own.malloc(64)) == 64 and calls == [64]
    with pytest.raises(ValueError, match="offset"):
        mem + 1000


@needs_gpu
def test_mixed_devices_are_a_type_error():
    k = kiln.asarray(np.ones(3), device="cuda")
    with pytest.raises(TypeError, match="different devices"):
        k + kiln.ones(3)


# Reads the calling thread's current context through the driver, in a fresh
# process: none before kiln's first op, device 0's primary context after it
# (as the CUDA runtime leaves it); a context of the program's own that is
# current stays current across kiln's ops.
CURRENT_CONTEXT_PROGRAM = r"""
import ctypes, kiln
cuda = ctypes.CDLL("libcuda.so.1")
def current():
    c = ctypes.c_void_p()
    assert cuda.cuCtxGetCurrent(ctypes.byref(c)) == 0
    return c.value
kiln.cuda.is_available()
before = current()
x = kiln.arange(8, dtype="float32", device="cuda")
y = (x + 1).get()
primary, device = ctypes.c_void_p(), ctypes.c_int()
assert cuda.cuDeviceGet(ctypes.byref(device), 0) == 0
assert cuda.cuDevicePrimaryCtxRetain(ctypes.byref(primary), device) == 0
after = current()
own = ctypes.c_void_p()
assert cuda.cuCtxCreate_v2(ctypes.byref(own), 0, device) == 0  # and makes it current
z = (x * 2).get()
kept = current() == own.value
assert cuda.cuCtxDestroy_v2(own) == 0
print(before is None, after == primary.value, kept, y.tolist() == list(range(1, 9)), z[-1] == 14)
"""


@needs_gpu
def test_a_thread_without_a_context_keeps_device_0s_and_its_own_context_is_kept():
    out = subprocess.run([sys.executable, "-c", CURRENT_CONTEXT_PROGRAM], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"] * 5


@needs_gpu
def test_a_second_process_hits_the_disk_cache(tmp_path):
    """Kernels compiled by one process are loaded, not recompiled, by the next,
    which does not even load NVRTC."""
    code = ("import kiln, numpy as np; a = kiln.asarray(np.arange(5.0), device='cuda'); "
            "print((kiln.sin(a) * 3 + a).get().sum()); "
            "print('nvrtc loaded:', any('libnvrtc' in line for line in open('/proc/self/maps')))")
    env = dict(os.environ, KILN_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    files = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert "nvrtc-identity" in files and all(f.endswith(".cubin") for f in files if f != "nvrtc-identity")
    assert len(files) > 1
    assert oct((tmp_path / "cache").stat().st_mode & 0o777) == "0o700"
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    value, loaded = first.stdout.splitlines()
    assert loaded == "nvrtc loaded: True"
    assert second.stdout.splitlines() == [value, "nvrtc loaded: False"]
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == files


@needs_gpu
@pytest.mark.parametrize("dtype", ["float32", "int8", "float64", "complex64", "bool", "float16"])
def test_vector_layout_edges(dtype):
    """16-byte vector kernels: every size around the vector width, unaligned
    views (scalar fallback), broadcast values and mixed element widths."""
    rng = np.random.default_rng(7)
    for n in (1, 3, 4, 5, 15, 16, 17, 1023, 4099):
        a = random_array((n + 3,), dtype, rng, 1, 5)
        b = random_array((n + 3,), dtype, rng, 1, 5)
        ka, kb = kiln.asarray(a, device="cuda"), kiln.asarray(b, device="cuda")
        for sl in (slice(0, n), slice(1, n + 1), slice(3, n + 3)):
            np.testing.assert_array_equal((ka[sl] == kb[sl]).get(), a[sl] == b[sl])
            np.testing.assert_allclose((ka[sl] * kb[sl]).get(), a[sl] * b[sl], rtol=2e-3)
            np.testing.assert_allclose((ka[sl] + 2).get(), a[sl] + 2, rtol=2e-3)  # NEP 50, as NumPy
            np.testing.assert_array_equal(ka[sl].astype("float64").get(), a[sl].astype("float64"))


@needs_gpu
@pytest.mark.parametrize("shape", [(4096, 4096), (300, 2500), (2, 300_000), (70, 5000)])
def test_column_reductions(shape):
    """Reductions whose kept axis moves fastest: one thread per column, with
    the rows split over more threads when the columns alone are too few."""
    rng = np.random.default_rng(11)
    x = rng.integers(-1000, 1000, size=shape)
    k = kiln.asarray(x, device="cuda")
    np.testing.assert_array_equal(kiln.sum(k, axis=0).get(), x.sum(axis=0))
    np.testing.assert_array_equal(kiln.max(k, axis=0).get(), x.max(axis=0))
    np.testing.assert_array_equal(kiln.argmax(k, axis=0).get(), x.argmax(axis=0))
    np.testing.assert_array_equal(kiln.argmin(k, axis=0).get(), x.argmin(axis=0))
    f = x.astype(np.float32)
    f[shape[0] // 2, 1] = np.nan
    kf = kiln.asarray(f, device="cuda")
    np.testing.assert_allclose(kiln.sum(kf, axis=0).get(), f.sum(axis=0), rtol=1e-5)
    np.testing.assert_array_equal(kiln.min(kf, axis=0).get(), f.min(axis=0))
    np.testing.assert_array_equal(kiln.argmax(kf, axis=0).get(), f.argmax(axis=0))


def test_stream_launch_host_func_runs_after_the_queued_work():
    """CuPy's Stream.launch_host_func: on the GPU through cuLaunchHostFunc
    (the stream's later work, and its synchronize, wait for the callback);
    without a GPU at once, the queued work being done."""
    stream = kiln.cuda.Stream()
    seen = []
    with stream:
        x = kiln.arange(10_000, device="cuda" if kiln.cuda.is_available() else "cpu") * 2
        stream.launch_host_func(seen.append, 7)
        stream.launch_host_func(lambda arg: seen.append(arg + 1), 7)
    stream.synchronize()
    assert seen == [7, 8]
    assert int(x[-1]) == 19_998


def test_allow_synchronize_catches_waits_on_the_gpu():
    """CuPy's allow_synchronize(False): a copy to the host or an explicit
    synchronize in the block raises DeviceSynchronized on a GPU; queuing work
    does not. Without a GPU nothing waits for one, so nothing raises."""
    assert issubclass(kiln.DeviceSynchronized, kiln.cuda.CUDAError)
    on_gpu = kiln.cuda.is_available()
    x = kiln.arange(1000.0, device="cuda" if on_gpu else "cpu")
    with kiln.allow_synchronize(False):
        y = (x * 2).sum()  # queued only
        p = kiln.poly1d(x[:4])  # made without finding its leading zeros
        if on_gpu:
            with pytest.raises(kiln.DeviceSynchronized, match="copy from the GPU"):
                y.get()
            with pytest.raises(kiln.DeviceSynchronized):
                kiln.cuda.Stream.null.synchronize()
        else:
            assert float(y) == 999_000.0
    assert float(y) == 999_000.0 and p.order == 2
    with kiln.allow_synchronize(False), kiln.allow_synchronize(True):
        assert float(y) == 999_000.0


def test_profiler_and_compute_capability_query():
    """CuPy's cuda.profile()/profiler.start/stop (cuProfilerStart/Stop on a
    GPU, nothing without one) and cuda.device.get_compute_capability (in CPU
    mode the kernel language the CPU backend runs, '90')."""
    with kiln.cuda.profile():
        kiln.cuda.profiler.start()
        kiln.cuda.profiler.stop()
    capability = kiln.cuda.device.get_compute_capability()
    assert capability.isdigit() and int(capability) >= 50
    if not kiln.cuda.is_available():
        assert capability == "90"


@pytest.mark.skipif(kiln.cuda.is_available(), reason="the host's attributes are CPU mode's")
def test_in_cpu_mode_the_host_reports_the_limits_its_launches_keep():
    runtime = kiln.cuda.runtime
    attribute = lambda name: runtime.deviceGetAttribute(getattr(runtime, "cudaDevAttr" + name), 0)  # noqa: E731
    assert attribute("CooperativeLaunch") == 1 and attribute("WarpSize") == 32
    assert attribute("MultiProcessorCount") == kiln._core._cpu_threads()
    kernel = kiln.RawKernel(r"""extern "C" __global__ void count(int* n) { atomicAdd(n, 1); }""", "count")
    n = kiln.zeros(1, dtype=kiln.int32)
    most = attribute("MaxThreadsPerBlock")
    kernel((1,), (most,), (n,))
    assert int(n[0]) == most
    with pytest.raises(ValueError, match="limit"):
        kernel((1,), (most + 1,), (n,))
    with pytest.raises(ValueError, match="limit"):
        kernel((1,), (1, 1, attribute("MaxBlockDimZ") + 1), (n,))
    with pytest.raises(ValueError, match="limit"):
        kernel((1, attribute("MaxGridDimY") + 1), (1,), (n,))
    with pytest.raises(ValueError, match="limit"):
        kernel((attribute("MaxGridDimX") + 1,), (1,), (n,))
    with pytest.raises(kiln.cuda.CUDAError, match="L2CacheSize: device 0 is the host"):
        attribute("L2CacheSize")


POISON = r"""
import kiln
far_away = kiln.RawKernel('extern "C" __global__ void writes_far_away(float* x) { x[1LL << 40] = 1.0f; }',
                          "writes_far_away")
x = kiln.zeros(4, dtype=kiln.float32, device="cuda")
messages = []
for step in ("launch and sync", "a later op", "a later sync"):
    try:
        if step == "launch and sync":
            far_away((1,), (1,), (x,))
            kiln.cuda.synchronize()
        elif step == "a later op":
            kiln.asnumpy(kiln.ones(3, device="cuda") + 1)
        else:
            kiln.cuda.synchronize()
        messages.append("no error")
    except kiln.cuda.ContextPoisoned as e:
        assert isinstance(e, kiln.cuda.CUDAError)
        messages.append(str(e))
print("\n".join(messages))
"""


@needs_gpu
def test_a_kernel_fault_is_reported_as_a_poisoned_context():
    # The first error names the last kernel launched; every later call on
    # the device repeats that message instead of a driver code.
    done = subprocess.run([sys.executable, "-c", POISON], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    first, later_op, later_sync = done.stdout.splitlines()
    assert "CUDA device 0 is unusable" in first and "kernel 'writes_far_away'" in first, first
    assert "restart the process" in first
    assert later_op == first and later_sync == first


FORK_AFTER_INIT = r"""
import os, kiln
x = kiln.arange(4.0, device="cuda")
pid = os.fork()
if pid == 0:
    try:
        kiln.ones(3, device="cuda")
        print("no error", flush=True)
    except kiln.cuda.CUDAError as e:
        print(type(e).__name__, "|", e, flush=True)
    print("cpu", float(kiln.ones(3, device="cpu").sum()), flush=True)
    os._exit(0)  # stdio is flushed above: _exit leaves the parent's buffers alone
os.waitpid(pid, 0)
print("parent", float((x * 2).sum()))
"""


@needs_gpu
def test_cuda_in_a_fork_of_a_process_that_used_it_is_refused_by_name():
    """CUDA's state does not survive fork: the child gets one clear error
    (Numba's wording) for any GPU work; its CPU work and the parent go on."""
    done = subprocess.run([sys.executable, "-c", FORK_AFTER_INIT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("CUDAError | CUDA initialized before forking") and "spawn" in lines[0], lines
    assert lines[1:] == ["cpu 3.0", "parent 12.0"], lines


IPC_CHILD = r"""
import pickle, sys
import numpy as np
from kiln import cuda
handle, array_handle = pickle.loads(sys.stdin.buffer.read())
assert handle.base is None
view = handle.open_array(cuda.current_context(), shape=handle.size // 8, dtype=np.int64)
print(view.copy_to_host().tolist())
handle.close()
with array_handle as a:
    print(a.copy_to_host().tolist())
    try:
        array_handle.open()
    except ValueError as e:
        print(e)
"""


@needs_gpu
def test_ipc_handles_open_in_another_process():
    """Numba's IpcHandle and devarr.get_ipc_handle(): pickled to a spawned
    process, opened there over the same memory; a slice carries its offset
    into the pool's allocation."""
    from kiln import cuda
    import pickle

    whole = kiln.asarray(np.arange(10, dtype=np.int64), device="cuda")
    part = whole[3:8]
    handle = cuda.current_context().get_ipc_handle(part.gpu_data)
    assert handle.size == 40 and handle.base is not None
    payload = pickle.dumps((handle, whole[2:].get_ipc_handle()))
    done = subprocess.run([sys.executable, "-c", IPC_CHILD], input=payload, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert done.stdout.decode().splitlines() == [str(list(range(3, 8))), str(list(range(2, 10))),
                                                 "IpcHandle is already opened"]


@no_gpu
def test_ipc_without_a_gpu_is_refused_by_name():
    from kiln import cuda

    a = cuda.to_device(np.arange(4))
    with pytest.raises(cuda.CUDAError, match="IPC shares GPU memory"):
        a.get_ipc_handle()
    with pytest.raises(cuda.CUDAError, match="IPC shares GPU memory"):
        kiln.cuda.runtime.ipcGetMemHandle(a.data.ptr)


def test_cusolver_version_without_a_gpu():
    """CuPy's cuda.cusolver._getVersion(): the loaded cuSOLVER's version, a
    GPU or not (the library is what answers); CUDAError where it is missing."""
    try:
        number = kiln.cuda.cusolver.getVersion()
    except kiln.cuda.CUDAError as e:
        assert "cuSOLVER" in str(e)
        return
    major, minor, patch = kiln.cuda.cusolver._getVersion()
    assert major >= 11 and number == major * 1000 + minor * 100 + patch


needs_two_gpus = pytest.mark.skipif(kiln.cuda.device_count() < 2, reason="needs two GPUs")


@no_gpu
def test_peer_access_without_a_gpu():
    """CuPy's runtime calls: the host (device 0) has no peer."""
    runtime = kiln.cuda.runtime
    assert runtime.deviceCanAccessPeer(0, 0) == 0
    with pytest.raises(kiln.cuda.CUDAError, match="device 1"):
        runtime.deviceCanAccessPeer(0, 1)
    with pytest.raises(kiln.cuda.CUDAError, match="PeerAccessUnsupported"):
        runtime.deviceEnablePeerAccess(0)


@needs_two_gpus
def test_copies_between_two_gpus():
    """Contiguous blocks move device to device (peer access is enabled on the
    first copy where the GPUs have it), strided views and dtype changes too,
    each direction, after work still queued on the source, into views."""
    runtime = kiln.cuda.runtime
    assert runtime.deviceCanAccessPeer(0, 0) == 0
    peers = runtime.deviceCanAccessPeer(0, 1)
    assert peers == runtime.deviceCanAccessPeer(1, 0)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((512, 1024)).astype(np.float32)
    for src, dst in (("cuda:0", "cuda:1"), ("cuda:1", "cuda:0")):
        k = kiln.asarray(x, device=src)
        # queued on the source's stream just before the copy: the copy must follow it
        queued = kiln.sin(k) * 3 + k
        moved = queued.to_device(dst)
        assert moved.device == kiln.Device(dst)
        np.testing.assert_array_equal(moved.get(), (queued.get()))
        np.testing.assert_array_equal(kiln.asarray(k[::3, 1::2], device=dst).get(), x[::3, 1::2])
        np.testing.assert_array_equal(kiln.asarray(k.T, device=dst).get(), x.T)
        as_double = kiln.asarray(k[:, :7], dtype="float64", device=dst)
        assert as_double.dtype == kiln.float64
        np.testing.assert_array_equal(as_double.get(), x[:, :7].astype(np.float64))
        target = kiln.zeros((512, 2048), dtype="float32", device=dst)
        target[:, ::2] = k
        want = np.zeros((512, 2048), np.float32)
        want[:, ::2] = x
        np.testing.assert_array_equal(target.get(), want)
        assert kiln.asarray(k[:0], device=dst).shape == (0, 1024)
        np.testing.assert_array_equal(kiln.asarray(kiln.broadcast_to(k[3], (4, 1024)), device=dst).get(),
                                      np.broadcast_to(x[3], (4, 1024)))
    if peers:
        with kiln.cuda.Device(0):
            runtime.deviceEnablePeerAccess(1)
            runtime.deviceEnablePeerAccess(1)  # again: not an error in kiln


def test_numbas_driver_copies_by_address():
    """Numba's cuda.driver.device_to_host / host_to_device / device_to_device:
    bytes between device pointers and host arrays (the host's memory in CPU mode)."""
    from kiln import cuda

    source = cuda.to_device(np.arange(6, dtype=np.int64))
    host = np.zeros(6, dtype=np.int64)
    cuda.driver.device_to_host(host, source.gpu_data, size=48)
    np.testing.assert_array_equal(host, np.arange(6))
    target = cuda.device_array(6, dtype=np.int64)
    cuda.driver.host_to_device(target, host[::-1].copy(), 48)
    np.testing.assert_array_equal(target.copy_to_host(), np.arange(6)[::-1])
    again = cuda.device_array(6, dtype=np.int64)
    cuda.driver.device_to_device(again, target, 24, stream=cuda.stream())
    cuda.synchronize()
    np.testing.assert_array_equal(again.copy_to_host()[:3], [5, 4, 3])
