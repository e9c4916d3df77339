"""Numba's ``cuda.random``: the xoroshiro128+ generator (Blackman and Vigna),
one state per thread, seeded through splitmix64 and spaced 2**64 draws
apart by the generator's jump polynomial, as Numba seeds it, so the streams
are Numba's number for number.

The states are Numba's: a record array of ``xoroshiro128p_dtype`` (s0, s1)
pairs (a DeviceRecordArray). The draws are device functions written in the
kernel language itself, callable from any kernel
(``xoroshiro128p_uniform_float32(states, i)``); the states are seeded by a
one-thread kernel on the CPU backend (each depends on the one before), then
copied to the device asked for."""
import math

import numpy as np

from .._jit.dispatcher import jit
from .._numba_cuda.types import float32, float64, uint32, uint64

_JUMP = (np.uint64(0xBEAC0467EBA5FACB), np.uint64(0xD86B048B86AA9922))  # the jump polynomial: 2**64 draws ahead
_SPLITMIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
_TWO_PI = 2.0 * math.pi
xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)  # Numba's layout of one state


@jit(device=True)
def _rotl(x, k):
    return (x << k) | (x >> uint32(64 - k))


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next 64-bit draw of state `index`, which advances."""
    s0 = states[index].s0
    s1 = states[index].s1
    result = s0 + s1
    s1 ^= s0
    states[index].s0 = _rotl(s0, uint32(55)) ^ s1 ^ (s1 << uint32(14))
    states[index].s1 = _rotl(s1, uint32(36))
    return result


@jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances state `index` by 2**64 draws."""
    s0 = uint64(0)
    s1 = uint64(0)
    for word in _JUMP:
        for b in range(64):
            if word & (uint64(1) << uint32(b)):
                s0 ^= states[index].s0
                s1 ^= states[index].s1
            xoroshiro128p_next(states, index)
    states[index].s0 = s0
    states[index].s1 = s1


@jit(device=True)
def _splitmix64(seed):
    z = uint64(seed) + _SPLITMIX[0]
    z = (z ^ (z >> uint32(30))) * _SPLITMIX[1]
    z = (z ^ (z >> uint32(27))) * _SPLITMIX[2]
    return z ^ (z >> uint32(31))


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform on [0, 1) from state `index`."""
    x = xoroshiro128p_next(states, index)
    return float64(x >> uint32(11)) * (float64(1.0) / float64(uint64(1) << uint32(53)))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform on [0, 1) from state `index`."""
    return float32(xoroshiro128p_uniform_float64(states, index))


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal from state `index` (Box-Muller, one of the pair)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return float32(math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(float32(_TWO_PI) * u2))


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal from state `index` (Box-Muller, one of the pair)."""
    u1 = xoroshiro128p_uniform_float64(states, index)
    u2 = xoroshiro128p_uniform_float64(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(float64(_TWO_PI) * u2)


@jit
def _seed_states(states, seed, subsequence_start):
    z = _splitmix64(seed)
    states[0].s0 = z
    states[0].s1 = z
    for _ in range(subsequence_start):
        xoroshiro128p_jump(states, 0)
    for i in range(1, states.shape[0]):
        states[i] = states[i - 1]
        xoroshiro128p_jump(states, i)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seeds `states` (a device array of xoroshiro128p_dtype records) in
    place as Numba seeds its own."""
    from .._ndarray.device import cpu
    from .._numba_cuda.record_arrays import DeviceRecordArray

    n = states.shape[0]
    if n < 1:
        return
    host = DeviceRecordArray((n,), xoroshiro128p_dtype, device=cpu)
    _seed_states[1, 1](host, np.uint64(seed % 2**64), np.uint64(int(subsequence_start)))
    states.copy_to_device(host.copy_to_host())


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """`n` generator states seeded from `seed` (and `subsequence_start` jumps
    ahead), on the current device."""
    from .._numba_cuda.numba_host import device_array

    states = device_array(int(n), dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
