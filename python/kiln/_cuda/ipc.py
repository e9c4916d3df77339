"""CUDA IPC with Numba's and CuPy's interfaces: another process maps device
memory of this one by a 64-byte handle, no copy.

kiln's memory pool hands out blocks inside larger driver allocations, and a
CUDA handle names a whole allocation, so an export also carries the block's
offset into it: Numba's ``IpcHandle`` (``ctx.get_ipc_handle``,
``devarr.get_ipc_handle()``) does, and pickles with it. A bare handle
(``handle.reserved``, CuPy's ``runtime.ipcGetMemHandle``) opens at the
allocation's start, as CUDA's does; ``offset`` says where the memory was.
The importing process maps the whole allocation, so it can also reach the
other blocks the pool placed in it, as with CuPy's pool.

On a machine without a GPU there is no device memory to share between
processes: exporting raises CUDAError."""
import contextlib

from .backend import CUDAError, core
from .device import get_device_id, host_mode
from .._numba_cuda.numba_arrays import numba_array


def _refuse_on_host():
    if host_mode():
        raise CUDAError("CUDA IPC shares GPU memory between processes, and there is no GPU here "
                        "(kiln.cuda runs on the host)")


class _MemHandle:
    """Numba's ``CUipcMemHandle``: the handle's bytes as ``reserved``."""

    def __init__(self, reserved):
        self.reserved = bytes(reserved)


def _identity(device_id):
    """Numba's device identity: the PCI location, the same in every process."""
    info = core()._cuda_device_info(device_id)
    return {"pci_domain_id": info["pci_domain"], "pci_bus_id": info["pci_bus"], "pci_device_id": info["pci_device"]}


def _device_of(identity):
    from .device import device_count

    for d in range(device_count()):
        if _identity(d) == identity:
            return d
    raise CUDAError(f"no GPU of this process is at PCI location {identity}")


def export(address, size, base):
    """The IpcHandle of `size` bytes at device `address`, which `base` (the
    memory's owner, kept by the handle) holds."""
    _refuse_on_host()
    handle, offset, _, device = core()._cuda_ipc_export(int(address))
    return IpcHandle(base, _MemHandle(handle), int(size), _identity(device), offset)


class IpcHandle:
    """Numba's IPC handle: `size` bytes at `offset` into the allocation
    `handle` names on the device `source_info` identifies. Pickled, it goes
    to another process (without `base`, the exporter's memory it keeps
    alive), which opens it in a context of its own."""

    def __init__(self, base, handle, size, source_info=None, offset=0):
        self.base = base
        self.handle = handle if hasattr(handle, "reserved") else _MemHandle(handle)
        self.size, self.source_info, self.offset = int(size), source_info, int(offset)
        self._opened = None  # (allocation base here, device) while open
        self._staged = None  # the copy open_staged made

    def _source_device(self):
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")
        return _device_of(self.source_info)

    def _check_not_open(self):
        if self._opened is not None or self._staged is not None:
            raise ValueError("IpcHandle is already opened")
        _refuse_on_host()

    def can_access_peer(self, context):
        """Whether `context`'s device can map the memory directly."""
        source = self._source_device()
        return source == context.device.id or bool(core()._cuda_can_access_peer(context.device.id, source))

    def open_direct(self, context):
        """The memory mapped into `context`'s device: a MemoryPointer."""
        from .memory import MemoryPointer, UnownedMemory

        self._check_not_open()
        device = context.device.id
        self._opened = (core()._cuda_ipc_open(self.handle.reserved, device), device)
        return MemoryPointer(UnownedMemory(self._opened[0] + self.offset, self.size, self, device), 0)

    def open_staged(self, context):
        """The memory copied to `context`'s device (opened on its own device
        first): for devices that cannot map each other's memory."""
        from .memory import MemoryPointer, UnownedMemory

        source = self._source_device()
        self._check_not_open()
        base = core()._cuda_ipc_open(self.handle.reserved, source)
        try:
            mapped = core()._wrap_memory(base + self.offset, "uint8", (self.size,), None, self, False,
                                         f"cuda:{source}")
            from .._numpy.creation import asarray

            self._staged = asarray(mapped, device=f"cuda:{context.device.id}", copy=True)
            for device in {source, context.device.id}:  # the copy is done before the source is unmapped
                core()._cuda_synchronize(device)
        finally:
            core()._cuda_ipc_close(base, source)
        return MemoryPointer(UnownedMemory(self._staged._data_ptr, self.size, self._staged, context.device.id), 0)

    def open(self, context):
        """The memory in `context`: mapped where the devices allow, else copied."""
        if self.source_info is None or self.can_access_peer(context):
            return self.open_direct(context)
        return self.open_staged(context)

    def open_array(self, context, shape, dtype, strides=None):
        """Like open(), as a device array of `shape` and `dtype` over the memory."""
        import numpy as np

        dtype = np.dtype(dtype)
        shape = (shape,) if np.isscalar(shape) else tuple(shape)
        if strides is not None:
            strides = (strides,) if np.isscalar(strides) else tuple(strides)
        pointer = self.open(context)
        return numba_array(core()._wrap_memory(pointer.ptr, dtype.name, shape, strides, pointer.mem, True,
                                               f"cuda:{context.device.id}"))

    def close(self):
        if self._opened is None and self._staged is None:
            raise ValueError("IpcHandle not opened")
        if self._opened is not None:
            core()._cuda_ipc_close(*self._opened)
        self._opened = self._staged = None

    def __reduce__(self):
        return IpcHandle, (None, self.handle.reserved, self.size, self.source_info, self.offset)


class _CurrentContext:
    """What opening needs of Numba's context (numba_host.Context): the current device."""

    def __init__(self):
        from .device import Device

        self.device = Device(get_device_id())


class IpcArrayHandle:
    """Numba's handle of a device array for another process
    (``devarr.get_ipc_handle()``): opened with ``with handle as array:`` or
    open(), closed at the block's end or by close()."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle, self._array_desc = ipc_handle, array_desc

    def open(self):
        return self._ipc_handle.open_array(_CurrentContext(), **self._array_desc)

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()


def get_ipc_handle(array):
    """``devarr.get_ipc_handle()``: an IpcArrayHandle of a contiguous device array."""
    if not (array.flags.c_contiguous or array.flags.f_contiguous):
        raise ValueError("get_ipc_handle: the array must be contiguous")
    return IpcArrayHandle(export(array._data_ptr, array.nbytes, array),
                          {"shape": array.shape, "strides": array.strides, "dtype": array.dtype})


@contextlib.contextmanager
def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """Numba's ``cuda.open_ipc_array``: the memory of a handle's bytes (from
    ``IpcHandle.handle.reserved``), `offset` bytes into its allocation, as a
    device array for the block."""
    import numpy as np

    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    ipc = IpcHandle(None, getattr(handle, "reserved", handle), size, offset=offset)
    array = ipc.open_array(_CurrentContext(), shape, dtype, strides)
    try:
        yield array
    finally:
        ipc.close()
