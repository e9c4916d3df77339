"""``__cuda_array_interface__`` (version 3) both ways: exported by arrays on a
GPU with kiln's current stream, and read by ``kiln.asarray``, which orders
kiln's current stream after the producer's with an event, as CuPy does
(``KILN_CUDA_ARRAY_INTERFACE_SYNC=0`` skips that). kiln.cuda's Numba face
synchronizes the producer's stream on the host instead, as Numba does
(``kiln.cuda.config.CUDA_ARRAY_INTERFACE_SYNC``).

In a process without a GPU, where kiln's CPU stands in for CUDA device 0
(``kiln.cuda.host_mode()``), arrays on the CPU export it too, their host
memory as the "device" memory, and interfaces read back are host memory, as
Numba's simulator does: code that hands device arrays around by this
protocol runs unchanged. With a GPU present a CPU array never exports it, so
no CUDA consumer can take host memory for device memory."""
import os

from .. import _core
from .dtypes import _BY_NAME


def interface(self):
    """The ``__cuda_array_interface__`` property."""
    from .._cuda.device import host_mode

    on_gpu = self.device.type == "cuda"
    if not on_gpu and not host_mode():
        raise AttributeError("__cuda_array_interface__ is only available for arrays on a GPU; "
                             f"this one is on {self.device}")
    from .._cuda.stream import _to_interchange, get_current_stream

    stream = _to_interchange(get_current_stream(self.device.index)) if on_gpu else None
    numba_stream = getattr(self, "_numba_stream", None)  # made by Numba's host API (cuda/numba_host.py)
    if numba_stream:  # Numba's rule: the stream the array was made on (in CPU mode too)...
        stream = int(numba_stream.handle)
    elif numba_stream is not None and stream == 1:
        # ...else none; kiln's current stream still where it is not the legacy
        # default one (which the consumer's blocking streams wait for anyway)
        stream = None
    return {
        "shape": self.shape,
        "typestr": self.dtype.str,
        "data": (self._data_ptr if self.size else 0, not self._writeable),
        "version": 3,
        "strides": None if self.flags.c_contiguous else self.strides,
        "descr": [("", self.dtype.str)],
        # the CPU's work is done when its calls return: nothing to wait for
        "stream": stream,
    }


def exported(obj):
    """The ``__cuda_array_interface__`` dictionary `obj` exports, or None: a
    property of its class or, as Numba's ForeignArray sets it, an attribute of
    the object; a class is not an array, and a kiln array on the CPU beside a
    GPU (whose property raises AttributeError) has none."""
    if isinstance(obj, type):
        return None
    interface = getattr(obj, "__cuda_array_interface__", None)
    return interface if isinstance(interface, dict) else None


def _synchronize_unless_current(stream, device):
    """Waits on the host for the producer's `stream` (an interchange value)
    unless it is the stream kiln's next work goes to."""
    from .._cuda.stream import _from_interchange, _to_interchange, get_current_stream

    if _to_interchange(get_current_stream(device)) != stream:
        _from_interchange(stream, device).synchronize()


def from_interface(obj, synchronize=None):
    """A kiln array viewing the GPU memory ``obj`` describes (kept alive by it).

    Where the interface names the producer's stream, kiln's current stream is
    ordered after it with an event (no wait on the host), unless
    `synchronize` says otherwise: True waits for that stream on the host, as
    Numba does (its face here), unless it is kiln's current stream, whose
    own order already puts the producer's work first; False leaves the
    ordering to the caller."""
    import numpy as np

    from .._cuda.stream import _from_interchange, _wait, get_current_stream

    desc = obj.__cuda_array_interface__
    if desc.get("mask") is not None:
        raise NotImplementedError("obj: Masked arrays are not supported (a __cuda_array_interface__ with a mask)")
    dtype = np.dtype(desc["typestr"])
    if not dtype.isnative:
        raise ValueError(f"obj: kiln does not support non-native byte order ({desc['typestr']!r}) on the GPU")
    if dtype.name not in _BY_NAME:
        raise TypeError(f"obj: __cuda_array_interface__ typestr {desc['typestr']!r} is not a kiln dtype")
    shape = tuple(desc["shape"])
    ptr, readonly = desc["data"]
    strides = desc.get("strides")
    strides = None if strides is None else tuple(strides)
    from .._cuda.device import host_mode

    stream = desc.get("stream")
    if host_mode():  # no GPU: the "device" memory is the host's (see above)
        if stream is not None and synchronize:
            _synchronize_unless_current(stream, None)
        return _core._wrap_memory(ptr, _BY_NAME[dtype.name], shape, strides, obj, not readonly, "cpu")
    device = _core._cuda_pointer_device(ptr) if ptr else _core._cuda_current_device()
    if device < 0:
        raise ValueError(f"obj: __cuda_array_interface__ points at {ptr:#x}, which is not GPU memory")
    if stream is not None and synchronize:
        _synchronize_unless_current(stream, device)
    elif stream is not None and synchronize is None and os.environ.get("KILN_CUDA_ARRAY_INTERFACE_SYNC", "1") != "0":
        _wait(get_current_stream(device), _from_interchange(stream, device))
    return _core._wrap_memory(ptr, _BY_NAME[dtype.name], shape, strides, obj, not readonly, f"cuda:{device}")
