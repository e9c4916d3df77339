"""PyCUDA's ``pycuda.curandom``: ``rand`` and the generator classes' API
(``gen_uniform``, ``gen_normal``, ``gen_log_normal``, ``gen_poisson``,
``fill_*``), on kiln's counter-based Philox generator (kiln.random), so the
same seed gives the same numbers on the CPU and on a GPU.

The numbers are Philox's, not the streams of cuRAND's XORWOW or MRG32k3a,
whose names the generator classes keep so that PyCUDA code runs; the
quasi-random Sobol generators are not provided. ``get_curand_version()`` is
None: kiln does not use cuRAND.
"""
import numpy as np

from .. import random as _random
from .._ndarray.device import default_device
from .gpuarray import GPUArray, _kiln, _shape, _wrap


def get_curand_version():
    """None: kiln's generators are its own (Philox), not cuRAND's."""
    return None


def rand(shape, dtype=np.float32, stream=None):
    """Uniform numbers in [0, 1) of `shape` for float32 and float64; uniform
    32-bit words for int32 and uint32."""
    dtype = np.dtype(dtype)
    generator = _random.default_rng(int(np.random.randint(0, 2 ** 31)), device=default_device())
    if dtype.kind == "f":
        return _wrap(generator.random(_shape(shape), dtype=dtype.name))
    if dtype in (np.int32, np.uint32):
        words = generator.integers(0, 2 ** 32, size=_shape(shape), dtype="uint32")
        return _wrap(words if dtype == np.uint32 else words.view("int32"))
    raise NotImplementedError(f"rand: float32, float64, int32 or uint32, not {dtype}")


def seed_getter_uniform(n):
    """n copies of one random seed (PyCUDA's seed getter; kiln's generators take one seed)."""
    return np.full(n, np.random.randint(0, 2 ** 31), dtype=np.int32)


def seed_getter_unique(n):
    return np.random.randint(0, 2 ** 31, size=n).astype(np.int32)


class _PhiloxGenerator:
    """What PyCUDA's pseudo-random generators offer, on kiln's Philox."""

    def __init__(self, seed_getter=None, offset=0):
        seeds = (seed_getter or seed_getter_uniform)(1)
        self._generator = _random.default_rng(int(np.asarray(seeds).ravel()[0]) + int(offset),
                                              device=default_device())

    def _draw(self, shape, dtype, draw):
        dtype = np.dtype(dtype)
        if dtype.kind == "f":
            return _wrap(draw(_shape(shape), dtype.name))
        if dtype == np.uint32:  # uniform words, as curand generates them
            return _wrap(self._generator.integers(0, 2 ** 32, size=_shape(shape), dtype="uint32"))
        raise TypeError(f"unsupported dtype {dtype}")

    def gen_uniform(self, shape, dtype, stream=None):
        """Uniform numbers in (0, 1] for float dtypes (cuRAND's interval), words for uint32."""
        return self._draw(shape, dtype, lambda s, d: 1 - self._generator.random(s, dtype=d))

    def gen_normal(self, shape, dtype, stream=None):
        return self._draw(shape, dtype, lambda s, d: self._generator.standard_normal(s, dtype=d))

    def gen_log_normal(self, shape, dtype, mean, stddev, stream=None):
        return self._draw(shape, dtype,
                          lambda s, d: _kiln().exp(mean + stddev * self._generator.standard_normal(s, dtype=d)))

    def gen_poisson(self, shape, dtype, lambda_value, stream=None):
        raise NotImplementedError("Poisson draws are not in kiln.random yet")

    def _fill(self, data, draw):
        if not isinstance(data, GPUArray):
            raise TypeError(f"data: expected a GPUArray, got {type(data).__name__}")
        data._array[...] = draw(data.shape, data.dtype)._array
        return data

    def fill_uniform(self, data, stream=None):
        return self._fill(data, self.gen_uniform)

    def fill_normal(self, data, stream=None):
        return self._fill(data, self.gen_normal)

    def fill_log_normal(self, data, mean, stddev, stream=None):
        return self._fill(data, lambda s, d: self.gen_log_normal(s, d, mean, stddev))

    def fill_poisson(self, data, lambda_value=None, stream=None):
        return self.gen_poisson(data.shape, data.dtype, lambda_value)

    def call_skip_ahead(self, i, stream=None):
        raise NotImplementedError("skipping ahead in cuRAND's sequences: kiln's generators are Philox's")

    call_skip_ahead_sequence = call_skip_ahead


class XORWOWRandomNumberGenerator(_PhiloxGenerator):
    """PyCUDA's XORWOW generator's API (the numbers are Philox's)."""


class MRG32k3aRandomNumberGenerator(_PhiloxGenerator):
    """PyCUDA's MRG32k3a generator's API (the numbers are Philox's)."""


PseudoRandomNumberGenerator = XORWOWRandomNumberGenerator
