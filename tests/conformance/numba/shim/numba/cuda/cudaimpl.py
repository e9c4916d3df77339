"""Numba's lowering registry (see extending.py): registrations are ignored."""
from .extending import _Registry

lower = lower_attr = _Registry()
