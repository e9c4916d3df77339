"""kiln.cuda speaks CuPy's cupy.cuda and Numba's numba.cuda side by side:
names that are a module in one and a function in the other (stream, event)
serve both, and CuPy's runtime, memory, compiler and nvtx modules exist."""
import types

import numpy as np
import pytest

import kiln
from kiln import cuda

needs_gpu = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device")
no_gpu = pytest.mark.skipif(cuda.is_available(), reason="a CUDA device is present")


def test_stream_and_event_are_modules_and_functions():
    import kiln.cuda.event as event_module
    import kiln.cuda.stream as stream_module
    from kiln.cuda.stream import ExternalStream, Stream, get_current_stream  # CuPy's spellings

    assert isinstance(cuda.stream, types.ModuleType) and callable(cuda.stream) and cuda.stream is stream_module
    assert isinstance(cuda.event, types.ModuleType) and callable(cuda.event) and cuda.event is event_module
    assert cuda.stream.Stream is cuda.Stream is Stream and cuda.stream.ExternalStream is ExternalStream
    assert cuda.stream.get_current_stream is cuda.get_current_stream is get_current_stream
    assert cuda.stream.Event is cuda.Event is cuda.event.Event
    assert cuda.stream.get_elapsed_time is cuda.get_elapsed_time is cuda.event_elapsed_time


def test_cupy_modules_exist():
    assert {"getDeviceCount", "setDevice", "deviceSynchronize", "memGetInfo", "malloc", "free", "memcpy",
            "memcpyAsync", "memset", "streamCreate", "eventCreate", "eventElapsedTime",
            "getDeviceProperties", "CUDARuntimeError"} <= set(dir(cuda.runtime))
    assert cuda.runtime.CUDARuntimeError is cuda.CUDAError and cuda.runtime.is_hip is False
    assert cuda.runtime.memcpyHostToDevice == 1 and cuda.runtime.cudaDevAttrWarpSize == 10
    assert cuda.memory.MemoryPool is cuda.MemoryPool
    assert cuda.compiler.CompileException is kiln.CompileError
    for name in ("RangePush", "RangePop", "Mark", "RangePushC", "MarkC"):
        assert callable(getattr(cuda.nvtx, name))


def test_nvtx_marks_and_ranges_run_anywhere():
    cuda.nvtx.Mark("mark", id_color=2)
    cuda.nvtx.RangePush("range", id_color=0)
    cuda.nvtx.RangePushC("inner", 0xFF00FF00)
    cuda.nvtx.RangePop()
    cuda.nvtx.RangePop()


def test_compile_with_cache_compiles_for_each_device(device):
    module = cuda.compiler.compile_with_cache(
        'extern "C" __global__ void twice(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }')
    x = kiln.asarray(np.arange(8, dtype=np.float32), device=device)
    module.get_function("twice")((1,), (8,), (x, np.int32(8)))
    np.testing.assert_array_equal(kiln.asnumpy(x), np.arange(8, dtype=np.float32) * 2)
    broken = cuda.compiler.compile_with_cache('extern "C" __global__ void f(float* x) { undeclared(); }')
    with pytest.raises(kiln.CompileError):
        broken.get_function("f")((1,), (1,), (kiln.zeros(1, device=device),))


@no_gpu
def test_without_a_gpu_streams_and_events_are_the_hosts():
    # Work on the CPU is done when each call returns: streams have nothing to
    # wait for, and events read the host's clock, in both dialects.
    numba_stream, cupy_stream = cuda.stream(), cuda.stream.Stream(non_blocking=True)
    assert numba_stream.done and cupy_stream != numba_stream and cuda.Stream.null.ptr == 0
    with cupy_stream:
        cupy_stream.synchronize()
    assert cuda.get_current_stream() == cuda.Stream.null
    start, end = cuda.event(), cuda.Event()
    start.record()
    sum(range(100_000))
    end.record(numba_stream)
    end.synchronize()
    assert start.elapsed_time(end) > 0 and cuda.get_elapsed_time(start, end) == start.elapsed_time(end)
    with pytest.raises(RuntimeError, match="recorded"):
        cuda.Event().elapsed_time(end)
    # CuPy's runtime and Numba's device answer for device 0, the host.
    assert cuda.runtime.getDeviceCount() == 0
    assert cuda.runtime.getDevice() == 0
    cuda.runtime.deviceSynchronize()
    stream = cuda.runtime.streamCreate()
    cuda.runtime.streamSynchronize(stream)
    cuda.runtime.streamDestroy(stream)
    assert cuda.get_current_device().name == b"host CPU"
    # Both faces report the kernel language the CPU backend runs
    assert cuda.get_current_device().compute_capability == (9, 0)
    assert cuda.get_current_device().MAX_THREADS_PER_BLOCK == 1024


@no_gpu
def test_in_cpu_mode_cupy_programs_find_device_0_as_the_host():
    with cuda.Device(0) as device:
        device.synchronize()
        assert device == kiln.cpu and cuda.Device() == device
        free, total = device.mem_info
        assert 0 < free <= total
    for gpu_only in ("pci_bus_id", "uuid"):
        with pytest.raises(cuda.CUDAError, match="host"):
            getattr(device, gpu_only)
    assert device.compute_capability == "90"
    assert device.attributes["WarpSize"] == 32 and "L2CacheSize" not in device.attributes
    with pytest.raises(cuda.CUDAError, match="one device"):
        cuda.Device(1)
    assert cuda.runtime.memGetInfo()[1] == total
    # The pools report kiln's host allocator.
    pool = kiln.get_default_memory_pool()
    before = pool.used_bytes()
    held = kiln.empty(1 << 20, dtype=kiln.uint8)
    assert pool.used_bytes() >= before + (1 << 20) and pool.total_bytes() >= pool.used_bytes()
    del held
    pool.free_all_blocks()
    # Memory by address: malloc, memset, memcpy to a NumPy array, free.
    address = cuda.runtime.malloc(64)
    cuda.runtime.memset(address, 7, 64)
    host = np.zeros(64, np.uint8)
    cuda.runtime.memcpy(host.ctypes.data, address, 64, cuda.runtime.memcpyDeviceToHost)
    assert (host == 7).all()
    cuda.runtime.free(address)


@needs_gpu
def test_streams_from_both_dialects():
    numba_stream, cupy_stream = cuda.stream(), cuda.stream.Stream(non_blocking=True)
    assert type(numba_stream) is type(cupy_stream) is cuda.Stream
    with cupy_stream:
        assert cuda.stream.get_current_stream() == cupy_stream
    assert cuda.default_stream() == cuda.Stream.null == cuda.legacy_default_stream()
    a = kiln.asarray(np.arange(1 << 16, dtype=np.float32), device="cuda")
    with numba_stream.auto_synchronize():
        with numba_stream:
            b = a * 2
    assert numba_stream.done
    np.testing.assert_array_equal(b.get(), np.arange(1 << 16, dtype=np.float32) * 2)
    assert cuda.external_stream(cupy_stream.ptr) == cupy_stream


@needs_gpu
def test_events_from_both_dialects():
    start, end = cuda.event(), cuda.Event()
    start.record(0)  # Numba's default stream
    kiln.ones(1 << 20, device="cuda").sum()
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0 and cuda.event_elapsed_time(start, end) >= 0
    assert cuda.get_elapsed_time(start, end) >= 0 and end.query()
    side = cuda.stream()
    end.wait(side)
    side.synchronize()


@needs_gpu
def test_runtime_calls():
    rt = cuda.runtime
    assert rt.getDeviceCount() == cuda.device_count() and rt.getDevice() == 0
    rt.setDevice(0)
    props = rt.getDeviceProperties(0)
    assert props["warpSize"] == 32 and props["major"] >= 5 and isinstance(props["name"], bytes)
    assert props["maxThreadsDim"][0] >= 1024 and rt.deviceGetAttribute(rt.cudaDevAttrWarpSize, 0) == 32
    free, total = rt.memGetInfo()
    assert 0 < free <= total and rt.driverGetVersion() > 0 and rt.runtimeGetVersion() > 0
    host = np.arange(256, dtype=np.uint8)
    back = np.zeros_like(host)
    ptr = rt.malloc(host.nbytes)
    rt.memcpy(ptr, host.ctypes.data, host.nbytes, rt.memcpyHostToDevice)
    rt.memcpy(back.ctypes.data, ptr, host.nbytes, rt.memcpyDeviceToHost)
    np.testing.assert_array_equal(back, host)
    stream = rt.streamCreate()
    rt.memsetAsync(ptr, 7, host.nbytes, stream)
    rt.streamSynchronize(stream)
    rt.memcpy(back.ctypes.data, ptr, host.nbytes, rt.memcpyDefault)
    assert (back == 7).all() and rt.streamQuery(stream) == 0
    assert rt.pointerGetAttributes(ptr).device == 0
    start, end = rt.eventCreate(), rt.eventCreateWithFlags(rt.eventDefault)
    rt.eventRecord(start, stream)
    rt.eventRecord(end, stream)
    rt.eventSynchronize(end)
    assert rt.eventElapsedTime(start, end) >= 0 and rt.eventQuery(end) == 0
    rt.streamWaitEvent(stream, end)
    rt.eventDestroy(start)
    rt.eventDestroy(end)
    rt.streamDestroy(stream)
    rt.free(ptr)
    with pytest.raises(cuda.CUDAError):
        rt.free(ptr)


@needs_gpu
def test_pinned_arrays():
    pinned = cuda.pinned_array((3, 5), dtype=np.float32)
    pinned[...] = 2
    assert pinned.dtype == np.float32 and pinned.sum() == 30
    device = cuda.to_device(pinned)
    np.testing.assert_array_equal(device.get(), pinned)


@needs_gpu
def test_devices_as_each_dialect_shows_them():
    numba_device, cupy_device = cuda.get_current_device(), cuda.Device(0)
    info = cuda.runtime.getDeviceProperties(0)
    assert numba_device.compute_capability == (info["major"], info["minor"])
    assert cupy_device.compute_capability == f"{info['major']}{info['minor']}"
    assert numba_device.name == info["name"] and numba_device.WARP_SIZE == 32
    assert cuda.gpus[0].id == 0 and len(cuda.gpus) == cuda.device_count()
