"""Devices: ``kiln.cpu`` and the default device new arrays go to."""
from ._core import Device

cpu = Device("cpu")


def default_device():
    """The device arrays are created on when no ``device=`` is given."""
    return cpu


def to_device(device):
    """None, a Device or a string such as 'cpu' -> Device."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return Device(device)
    raise TypeError(f"device must be a kiln.Device or a string such as 'cpu', got {type(device).__name__}")
