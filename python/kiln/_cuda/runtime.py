"""CuPy's ``cupy.cuda.runtime``: the CUDA runtime API's calls by their names
(``getDeviceCount``, ``setDevice``, ``deviceSynchronize``, ``memGetInfo``,
``malloc``/``free``, ``memcpy``, streams and events by handle), served by
kiln's driver layer; kiln does not load the CUDA runtime library.

Handles are plain ints, as CuPy's are. Streams, events and allocations made
here are kiln's objects kept alive in a table until their ``*Destroy`` or
``free``; ``malloc`` takes its memory from kiln's pool of the current device.

In CPU mode (see device.py) ``getDeviceCount()`` is still the number of GPUs
(0), but device 0, the host, answers what a program needs to run: getDevice,
setDevice(0), deviceSynchronize, memGetInfo (the host's memory), malloc/free
(kiln's host pool), memcpy/memset and their async forms, and streams and
events (the host's); what only a GPU has raises CUDAError.
"""
from . import host_runtime, memory
from .backend import CUDAError, core
from .device import _ATTRIBUTES, Device, device_count, get_device_id, host_memory_info, host_mode

CUDARuntimeError = CUDAError
is_hip = False

# cudaMemcpyKind: kiln's copies infer the direction from the pointers (as
# memcpyDefault does), so the kind passed is accepted and not needed.
memcpyHostToHost, memcpyHostToDevice, memcpyDeviceToHost, memcpyDeviceToDevice, memcpyDefault = range(5)
streamDefault, streamNonBlocking = 0, 1
eventDefault, eventBlockingSync, eventDisableTiming, eventInterprocess = 0, 1, 2, 4
# cudaMemoryType, as pointerGetAttributes reports it.
memoryTypeUnregistered, memoryTypeHost, memoryTypeDevice, memoryTypeManaged = range(4)
# cudaDeviceAttr codes (the same numbers as the driver's) as cudaDevAttr<Name>.
for _name, _code in _ATTRIBUTES.items():
    globals()["cudaDevAttr" + _name] = _code
del _name, _code
_ATTRIBUTE_NAMES = {code: name for name, code in _ATTRIBUTES.items()}

_streams = {}      # handle -> kiln's stream, for the streams made here
_events = {}       # handle -> kiln's event
_allocations = {}  # address -> the kiln array that owns the memory


def getDeviceCount():
    return device_count()


def getDevice():
    return Device().id


def setDevice(device):
    Device(device).use()


def deviceCanAccessPeer(device, peerDevice):
    """1 where `device` can map `peerDevice`'s memory (NVLink or PCIe peer to
    peer), else 0 (0 for a device and itself); in CPU mode the host is device
    0 and has no peer."""
    if host_mode():
        Device(device), Device(peerDevice)  # only the host, device 0, exists
        return 0
    return int(core()._cuda_can_access_peer(device, peerDevice))


def deviceEnablePeerAccess(peerDevice):
    """Maps `peerDevice`'s memory into the current device's context. Copies
    between GPUs do this themselves on first use; unlike CUDA, enabling a
    pair again is not an error."""
    device = get_device_id()
    if not deviceCanAccessPeer(device, peerDevice):
        raise CUDARuntimeError(f"cudaErrorPeerAccessUnsupported: device {device} cannot map the memory of "
                               f"device {peerDevice}")
    core()._cuda_enable_peer_access(device, peerDevice)


def deviceSynchronize():
    Device().synchronize()


def driverGetVersion():
    return core()._cuda_driver_version()


def runtimeGetVersion():
    """The CUDA version kiln compiles kernels for: its NVRTC's, as 1000 * major + 10 * minor."""
    version = core()._cuda_libraries()["nvrtc_version"]
    if not version:
        raise CUDAError("NVRTC was not found, so kiln has no CUDA runtime version")
    major, minor = (int(v) for v in version.split("."))
    return 1000 * major + 10 * minor


def deviceGetAttribute(attrib, device):
    """cudaDeviceAttr `attrib` of `device` (in CPU mode the host's: device.Device._attribute)."""
    if host_mode():
        name = _ATTRIBUTE_NAMES.get(int(attrib), f"attribute {int(attrib)}")
        return Device(device)._attribute(name)
    return core()._cuda_device_attribute(int(device), int(attrib))


def getDeviceProperties(device):
    """The cudaDeviceProp fields CuPy's dict has (``name`` in bytes, as CuPy gives it)."""
    device = int(device)
    info = core()._cuda_device_info(device)
    attribute = lambda name: core()._cuda_device_attribute(device, _ATTRIBUTES[name])  # noqa: E731
    props = {
        "name": info["name"].encode(), "uuid": info["uuid"].encode(), "totalGlobalMem": info["total_memory"],
        "major": info["major"], "minor": info["minor"], "multiProcessorCount": info["multiprocessors"],
        "pciDomainID": info["pci_domain"], "pciBusID": info["pci_bus"], "pciDeviceID": info["pci_device"],
        "kernelExecTimeoutEnabled": int(info["kernel_timeout"]),
        "maxThreadsDim": tuple(attribute(f"MaxBlockDim{a}") for a in "XYZ"),
        "maxGridSize": tuple(attribute(f"MaxGridDim{a}") for a in "XYZ"),
    }
    for key, name in _PROPERTY_ATTRIBUTES.items():
        props[key] = attribute(name)
    return props


# cudaDeviceProp fields read as device attributes.
_PROPERTY_ATTRIBUTES = {
    "sharedMemPerBlock": "MaxSharedMemoryPerBlock", "regsPerBlock": "MaxRegistersPerBlock", "warpSize": "WarpSize",
    "memPitch": "MaxPitch", "maxThreadsPerBlock": "MaxThreadsPerBlock", "clockRate": "ClockRate",
    "totalConstMem": "TotalConstantMemory", "textureAlignment": "TextureAlignment", "integrated": "Integrated",
    "canMapHostMemory": "CanMapHostMemory", "computeMode": "ComputeMode", "concurrentKernels": "ConcurrentKernels",
    "ECCEnabled": "EccEnabled", "asyncEngineCount": "AsyncEngineCount", "unifiedAddressing": "UnifiedAddressing",
    "memoryClockRate": "MemoryClockRate", "memoryBusWidth": "GlobalMemoryBusWidth", "l2CacheSize": "L2CacheSize",
    "maxThreadsPerMultiProcessor": "MaxThreadsPerMultiProcessor",
    "streamPrioritiesSupported": "StreamPrioritiesSupported", "globalL1CacheSupported": "GlobalL1CacheSupported",
    "localL1CacheSupported": "LocalL1CacheSupported",
    "sharedMemPerMultiprocessor": "MaxSharedMemoryPerMultiprocessor",
    "regsPerMultiprocessor": "MaxRegistersPerMultiprocessor", "managedMemory": "ManagedMemory",
    "isMultiGpuBoard": "MultiGpuBoard", "singleToDoublePrecisionPerfRatio": "SingleToDoublePrecisionPerfRatio",
    "pageableMemoryAccess": "PageableMemoryAccess", "concurrentManagedAccess": "ConcurrentManagedAccess",
    "cooperativeLaunch": "CooperativeLaunch", "sharedMemPerBlockOptin": "MaxSharedMemoryPerBlockOptin",
}


def memGetInfo():
    """(free, total) bytes of the current device (of the host in CPU mode)."""
    return host_memory_info() if host_mode() else core()._cuda_mem_info(get_device_id())


# ---- memory --------------------------------------------------------------------
def malloc(size):
    """The address of `size` bytes of the current device's memory (from kiln's pool)."""
    block = memory.Memory(size)
    _allocations[block.ptr] = block
    return block.ptr


def free(ptr):
    if _allocations.pop(int(ptr), None) is None:
        raise CUDAError(f"free: {int(ptr):#x} was not allocated by kiln.cuda.runtime.malloc")


def _stream_handle(stream):
    return int(getattr(stream, "ptr", stream))


def memcpyAsync(dst, src, size, kind, stream):
    """Copies `size` bytes between any two addresses CUDA knows (device, pinned or
    ordinary host memory), queued on `stream`."""
    memory._copy(int(dst), int(src), size, _stream_handle(stream))


def memcpy(dst, src, size, kind):
    memory._copy(int(dst), int(src), size, None)


def memsetAsync(ptr, value, size, stream):
    memory._fill(int(ptr), value, size, _stream_handle(stream))


def memset(ptr, value, size):
    memory._fill(int(ptr), value, size, None)


class PointerAttributes:
    """What ``pointerGetAttributes`` reports: ``device``, ``devicePointer``, ``hostPointer``, ``type``."""

    def __init__(self, device, device_pointer, host_pointer, memory_type):
        self.device, self.devicePointer, self.hostPointer, self.type = (device, device_pointer, host_pointer,
                                                                         memory_type)


def pointerGetAttributes(ptr):
    if host_mode():
        return PointerAttributes(-2, 0, int(ptr), memoryTypeUnregistered)
    device = core()._cuda_pointer_device(int(ptr))
    if device < 0:
        return PointerAttributes(-2, 0, int(ptr), memoryTypeUnregistered)
    return PointerAttributes(device, int(ptr), 0, memoryTypeDevice)


# ---- streams and events by handle --------------------------------------------
def streamCreate():
    return streamCreateWithFlags(streamDefault)


def streamCreateWithFlags(flag):
    stream = host_runtime.HostStream() if host_mode() else core()._Stream.create(get_device_id(),
                                                                                  bool(flag & streamNonBlocking))
    _streams[stream.handle] = stream
    return stream.handle


def _stream(handle):
    handle = int(handle)
    if handle in _streams:
        return _streams[handle]
    if host_mode():
        return host_runtime.NULL_STREAM
    if handle in (0, 1):  # the legacy default stream
        return core()._Stream.null(get_device_id())
    return core()._Stream.external(get_device_id(), handle)


def streamDestroy(stream):
    if _streams.pop(int(stream), None) is None:
        raise CUDAError(f"streamDestroy: {int(stream):#x} was not created by kiln.cuda.runtime")


def streamSynchronize(stream):
    _stream(stream).synchronize()


def streamQuery(stream):
    """0 (cudaSuccess) when the stream's work is done, else 600 (cudaErrorNotReady)."""
    return 0 if _stream(stream).done() else 600


def streamWaitEvent(stream, event, flag=0):
    _stream(stream).wait(_event(event))


def eventCreate():
    return eventCreateWithFlags(eventDefault)


def eventCreateWithFlags(flag):
    event = host_runtime.HostEvent() if host_mode() else core()._Event.create(get_device_id(), not flag & eventDisableTiming, bool(flag & eventBlockingSync))
    _events[event.handle] = event
    return event.handle


def _event(handle):
    event = _events.get(int(handle))
    if event is None:
        raise CUDAError(f"{int(handle):#x} is not an event created by kiln.cuda.runtime")
    return event


def eventDestroy(event):
    _events.pop(int(event), None) or _event(event)


def eventRecord(event, stream):
    _event(event).record(_stream(stream))


def eventSynchronize(event):
    _event(event).synchronize()


def eventQuery(event):
    return 0 if _event(event).done() else 600


def eventElapsedTime(start, end):
    return _event(end).elapsed_ms_since(_event(start))


# CUDA IPC by handle, as CuPy's runtime has it: the handle names the whole
# driver allocation holding the pointer (kiln's pool shares one among
# blocks), and opens at its start; ipc.py's IpcHandle carries the offset.
def ipcGetMemHandle(devPtr):
    """The 64-byte handle of the allocation holding `devPtr`, for another process."""
    from .ipc import _refuse_on_host

    _refuse_on_host()
    return core()._cuda_ipc_export(int(devPtr))[0]


def ipcOpenMemHandle(handle, flags=1):
    """Maps another process's allocation into the current device; its address here."""
    from .ipc import _refuse_on_host

    _refuse_on_host()
    return core()._cuda_ipc_open(bytes(handle), get_device_id())


def ipcCloseMemHandle(devPtr):
    from .ipc import _refuse_on_host

    _refuse_on_host()
    core()._cuda_ipc_close(int(devPtr), get_device_id())
