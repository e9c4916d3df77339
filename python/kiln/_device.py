"""Devices: ``kiln.cpu``, and the default device new arrays go to.

The default is the current CUDA device when a GPU works (so code written for
CuPy runs on the GPU after ``import kiln as cp``) and the CPU otherwise;
``KILN_DEVICE=cpu|cuda|cuda:N`` overrides it.
"""
import os

from ._core import Device

cpu = Device("cpu")
_default_kind = None  # "cpu", "cuda" or a fixed Device, decided on first use


def _decide_default():
    wanted = os.environ.get("KILN_DEVICE")
    if wanted:
        device = Device(wanted)  # ValueError names the accepted spellings
        return "cuda" if wanted == "cuda" else device
    from .cuda.device import is_available

    return "cuda" if is_available() else cpu


def default_device():
    """The device arrays are created on when no ``device=`` is given."""
    global _default_kind
    if _default_kind is None:
        _default_kind = _decide_default()
    if _default_kind == "cuda":
        from .cuda.device import get_device_id

        return Device(f"cuda:{get_device_id()}")
    return _default_kind


def to_device(device):
    """None, a Device or a string such as 'cpu' -> Device."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return Device(device)
    raise TypeError(f"device must be a kiln.Device or a string such as 'cpu', got {type(device).__name__}")
