"""Devices: ``kiln.cpu``, and the default device new arrays go to.

The default is the current CUDA device when a GPU works (so code written for
CuPy runs on the GPU after ``import kiln as cp``) and the CPU otherwise;
``KILN_DEVICE=cpu|cuda|cuda:N`` overrides it.
"""
import os

from .. import _core
from .._core import Device

cpu = Device("cpu")
_default_kind = None  # "cpu", "cuda" or a fixed Device, decided on first use
# Devices are immutable, so each is built once: by name, and CUDA devices by
# index. Making one parses its name, and the default's lookup imported a
# module every call: 1.8 us of each kiln.zeros(n) on a GPU machine.
_by_name = {}
_cuda_by_index = {}
_current_cuda_index = None  # the current CUDA device's index, a function chosen on first use


def _decide_default():
    wanted = os.environ.get("KILN_DEVICE")
    if wanted:
        device = Device(wanted)  # ValueError names the accepted spellings
        return "cuda" if wanted == "cuda" else device
    from .._cuda.device import is_available

    return "cuda" if is_available() else cpu


def default_device():
    """The device arrays are created on when no ``device=`` is given."""
    global _default_kind
    if _default_kind is None:
        _default_kind = _decide_default()
    if _default_kind == "cuda":
        return _cuda_device(_current_index())
    return _default_kind


def _current_index():
    global _current_cuda_index
    if _current_cuda_index is None:
        from .._cuda.device import get_device_id, host_mode

        # With a GPU (whose count never changes) the core says which device is
        # current; without one (KILN_DEVICE=cuda on a host), get_device_id's 0.
        _current_cuda_index = get_device_id if host_mode() else _core._cuda_current_device
    return _current_cuda_index()


def _cuda_device(index):
    device = _cuda_by_index.get(index)
    if device is None:
        device = _cuda_by_index[index] = Device(f"cuda:{index}")
    return device


def _named(name):
    device = _by_name.get(name)
    if device is None:
        device = Device(name)  # ValueError names the accepted spellings
        if len(_by_name) < 64:  # the names a program uses, not every string it tried
            _by_name[name] = device
    return device


def to_device(device):
    """None, a Device or a string such as 'cpu' -> Device."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return _named(device)
    raise TypeError(f"device must be a kiln.Device or a string such as 'cpu', got {type(device).__name__}")
