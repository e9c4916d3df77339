"""DLPack both ways: ``ndarray.__dlpack__``/``__dlpack_device__`` and
``kiln.from_dlpack``, with the array API standard's stream ordering: the
producer makes the consumer's stream wait for the work queued on its own.
The capsules themselves are built and read in C++ (src/python/dlpack.cpp)."""
import contextlib

from .. import _core
from .device import to_device

_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13
_VERSION = (1, 0)


def _device_tuple(device):
    return (_CPU, 0) if device.type == "cpu" else (_CUDA, device.index)


def _device_of(dl_device):
    kind, index = dl_device
    if kind in (_CPU, _CUDA_HOST):
        return to_device("cpu")
    if kind in (_CUDA, _CUDA_MANAGED):
        return to_device(f"cuda:{index}")
    raise BufferError(f"dl_device: DLPack device type {kind} is not one kiln has (CPU 1, CUDA 2)")


def dlpack_device(self):
    """``__dlpack_device__``: (device type, index) as DLPack numbers them."""
    return _device_tuple(self.device)


def dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``__dlpack__``: a capsule viewing this array (a copy where ``copy=True``
    or ``dl_device`` names another device). On a GPU, ``stream`` is the
    consumer's (None or 1: the legacy default stream, 2: per-thread, -1: no
    ordering); work queued on kiln's current stream happens before the
    consumer's."""
    array, copied = self, False
    if dl_device is not None and tuple(dl_device) != _device_tuple(self.device):
        if copy is False:
            raise BufferError(f"__dlpack__: dl_device {tuple(dl_device)} is another device and copy=False")
        array, copied = self.to_device(_device_of(dl_device)), True
    elif copy:
        array, copied = self.copy(), True
    if array.device.type == "cuda":
        if stream != -1:
            from .._cuda.stream import _from_interchange, _wait, get_current_stream

            device = array.device.index
            _wait(_from_interchange(1 if stream is None else stream, device), get_current_stream(device))
    elif self.device.type == "cpu" and stream is not None:  # (a copy from a GPU to the host has completed)
        raise ValueError("__dlpack__: stream must be None for an array on the CPU")
    versioned = max_version is not None and tuple(max_version)[0] >= _VERSION[0]
    if not versioned and not array._writeable:
        raise BufferError("__dlpack__: this array is read-only, which only DLPack 1.0 capsules can say; "
                          "the consumer asked for an older one (no max_version)")
    return _core._dlpack_export(array, versioned, copied)


def from_dlpack(x, /, *, device=None, copy=None):
    """The array API's ``from_dlpack``: a kiln array viewing ``x``'s memory
    (without a copy unless ``copy=True`` or ``device`` is another device)."""
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"x: {type(x).__name__} has no __dlpack__")
    source = _device_of(x.__dlpack_device__())
    target = source if device is None else to_device(device)
    stream, on_source = None, contextlib.nullcontext()
    if source.type == "cuda":
        from .._cuda.device import Device
        from .._cuda.stream import _to_interchange, get_current_stream

        stream = _to_interchange(get_current_stream(source.index))
        # Producers (PyTorch) read the stream as one of the current device,
        # so the producer's device is made current while it exports.
        on_source = Device(source.index)
    with on_source:
        try:
            capsule = x.__dlpack__(stream=stream, max_version=_VERSION,
                                   dl_device=None if target == source else _device_tuple(target), copy=copy)
            done = True
        except TypeError:  # a producer from before the 2023 standard: no max_version, dl_device or copy
            capsule = x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
            done = False
    out = _core._dlpack_import(capsule)
    if not done:
        if out.device != target:
            if copy is False:
                raise ValueError("from_dlpack: copy=False but the array is on another device")
            return out.to_device(target)
        if copy:
            return out.copy()
    return out
