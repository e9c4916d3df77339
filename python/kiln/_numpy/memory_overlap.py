"""Whether arrays overlap in memory: shares_memory, may_share_memory,
byte_bounds. kiln arrays know their address, strides and the buffer they
view, so the bounds are exact; shares_memory answers from the bounds and,
where they overlap, from the elements' addresses."""
import builtins

from .._core import ndarray


def byte_bounds(a):
    """(low, high): the first byte address of ``a`` and one past its last."""
    if not isinstance(a, ndarray):
        raise TypeError("byte_bounds: a must be a kiln array")
    low = high = a._data_ptr
    for n, stride in zip(a.shape, a.strides):
        if n == 0:
            return a._data_ptr, a._data_ptr
        if stride < 0:
            low += (n - 1) * stride
        else:
            high += (n - 1) * stride
    return low, high + a.itemsize


def may_share_memory(a, b, max_work=None):
    """Whether the memory bounds of ``a`` and ``b`` overlap (True may be a false alarm)."""
    if not isinstance(a, ndarray) or not isinstance(b, ndarray):
        return False
    if a.size == 0 or b.size == 0 or a.device != b.device:
        return False
    a_low, a_high = byte_bounds(a)
    b_low, b_high = byte_bounds(b)
    return a_low < b_high and b_low < a_high


def shares_memory(a, b, max_work=None):
    """Whether ``a`` and ``b`` have an element byte in common (exact)."""
    if not may_share_memory(a, b):
        return False
    if (a.flags.c_contiguous or a.flags.f_contiguous) and (b.flags.c_contiguous or b.flags.f_contiguous):
        return True
    return bool(_byte_set(a) & _byte_set(b))


def _byte_set(x):
    import itertools

    addresses = set()
    for index in itertools.product(*(builtins.range(n) for n in x.shape)):
        start = x._data_ptr + builtins.sum(i * s for i, s in zip(index, x.strides))
        addresses.update(builtins.range(start, start + x.itemsize))
    return addresses
