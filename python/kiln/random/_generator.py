"""kiln.random.Generator: NumPy's Generator interface over kiln's bit
generators: Philox4x32-10 streams (see kiln/random.hpp; a key from the seed
and the next block of the stream), and CuPy's XORWOW and MRG32k3a. Every
draw starts where the last one ended, so the same seed gives the same
sequence of draws on the CPU and on a GPU."""
import math
import operator
import os

from .. import _core
from .._numpy import creation as _creation, sorting as _sorting
from .._numpy.math import elementwise as _elementwise
from .._numpy.indexing import gathering as _gathering
from .._ndarray.device import default_device, to_device
from .._ndarray.dtypes import normalize
from ._distributions import Distributions

# What a draw fills an array with: 64 random bits, uniforms, normals (the
# core's kinds), or a 32-bit generator's words.
_BITS, _UNIFORM, _NORMAL, _WORDS = 0, 1, 2, 3
_KEY_MASK = (1 << 64) - 1
# The legacy functions' RandomState of each device (device index -> state;
# the CPU is 0), made on first use by _legacy.get_random_state.
_random_states = {}


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, int):
        return (size,)
    return tuple(size)


def _key(seed):
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (Generator, BitGenerator)):
        return (seed.bit_generator if isinstance(seed, Generator) else seed)._key
    if hasattr(seed, "generate_state"):  # a SeedSequence
        return int(seed.generate_state(1, dtype="uint64")[0])
    if hasattr(seed, "__len__") or (hasattr(seed, "shape") and seed.shape):  # a sequence of ints
        import numpy as np

        return int(np.random.SeedSequence(np.asarray(seed.get() if hasattr(seed, "get") else seed,
                                                     dtype=object).tolist()).generate_state(1, dtype="uint64")[0])
    try:
        seed = operator.index(seed)  # ints, NumPy's and kiln's 0-d integers; not floats (as NumPy refuses)
    except TypeError:
        raise TypeError(f"seed must be an int, an int sequence or a SeedSequence, got {type(seed).__name__}") \
            from None
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return seed & _KEY_MASK if seed <= _KEY_MASK else hash(seed) & _KEY_MASK


class BitGenerator:
    """A source of random bits for Generator(bit_generator), seeded by an
    int, an int sequence or a SeedSequence (random when None). It owns its
    stream: Generators sharing one draw from it in turn, as NumPy's do."""

    def __init__(self, seed=None):
        self._key = _key(seed)
        # NumPy's SeedSequence of this generator, made when first asked for
        # (libraries spawn independent generators from it): the one given,
        # else one of the int or ints given, else of the random key drawn.
        self._given_seed = seed if seed is not None and not isinstance(seed, (Generator, BitGenerator)) \
            else self._key
        self._seed_sequence = None

    @property
    def seed_seq(self):
        """NumPy's ``BitGenerator.seed_seq``: the SeedSequence this generator stands for."""
        if self._seed_sequence is None:
            from numpy.random import SeedSequence

            given = self._given_seed
            if hasattr(given, "generate_state"):
                self._seed_sequence = given
            else:
                given = given.get() if hasattr(given, "get") else given
                self._seed_sequence = SeedSequence(given.tolist() if hasattr(given, "tolist") else given)
        return self._seed_sequence

    # NumPy's private name for it, which Dask's generators spawn from.
    _seed_seq = seed_seq

    def spawn(self, n_children):
        """NumPy's: `n_children` independent generators of this type, from the seed sequence's children."""
        return [type(self)(child) for child in self.seed_seq.spawn(n_children)]

    def random_raw(self, size=None, output=True):
        """The generator's raw output words (uint64 for Philox, uint32 for
        the 32-bit generators), on kiln's default device."""
        out = _core._empty(_shape(size), self._RAW_DTYPE, default_device())
        self._fill(out, _WORDS)
        return out if output else None


class Philox4x3210(BitGenerator):
    """Philox4x32-10 (Salmon et al., 2011): CuPy's ``Philox4x3210``, NumPy's
    ``Philox``; counter-based, so a draw is the key and the next block."""

    _RAW_DTYPE = "uint64"

    def __init__(self, seed=None):
        super().__init__(seed)
        self._block = 0

    def _fill(self, out, kind):
        # Philox's raw words are its 64-bit draws.
        self._block += _core._fill_random(out, kind if kind != _WORDS else _BITS, self._key, self._block)

    def __repr__(self):
        return f"Philox4x3210(key={self._key:#x}, next block {self._block})"


Philox = Philox4x3210


class _SequentialBitGenerator(BitGenerator):
    """cuRAND's sequential generators (XORWOW, MRG32k3a) as kiln kernels
    (include/kiln/device/sequential_rngs.cuh): _LANES independent states,
    seeded from the key by SplitMix64, each writing every _LANES-th word, so
    a seed gives the same words on every device. Words become 64-bit values
    (two words), uniforms (24 or 53 bits) and normals (Box-Muller) here."""

    _RAW_DTYPE = "uint32"
    _LANES = 4096

    def __init__(self, seed=None):
        super().__init__(seed)
        self._states = {}  # device -> the lanes' states there

    def _initial_state(self):
        import numpy as np

        with np.errstate(over="ignore"):  # SplitMix64 wraps modulo 2**64
            z = (np.uint64(self._key) + np.arange(1, 3 * self._LANES + 1, dtype=np.uint64)
                 * np.uint64(0x9E3779B97F4A7C15))
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
        return self._state_from(z.view(np.uint32).reshape(self._LANES, 6))

    def _words(self, n, device):
        state = self._states.get(device)
        if state is None:
            state = self._states[device] = _creation.asarray(self._initial_state(), device=device)
        out = _core._empty((n,), "uint32", device)
        if n:
            grid, block = ((min(self._LANES, 64), 1) if device.type == "cpu" else (self._LANES // 128, 128))
            import numpy as np

            # The kernels' signatures are in a header the launcher does not
            # read, so the scalars go as NumPy scalars of the exact C types.
            _kernels()[self._KERNEL](grid, block, (state, out, np.int64(n), np.int32(self._LANES)))
        return out

    def _fill(self, out, kind):
        n = out.size
        if kind == _WORDS:
            out[...] = self._words(n, out.device).reshape(out.shape)
        elif kind == _BITS:
            words = self._words(2 * n, out.device).astype("uint64")
            out[...] = ((words[0::2] << 32) | words[1::2]).reshape(out.shape)
        elif kind == _UNIFORM:
            out[...] = self._uniform(n, out.dtype, out.device).reshape(out.shape)
        else:  # Box-Muller: sqrt(-2 ln u1) cos(2 pi u2), u1 in (0, 1]
            u = self._uniform(2 * n, out.dtype, out.device)
            radius = _elementwise.sqrt(-2.0 * _elementwise.log(1.0 - u[0::2]))
            out[...] = (radius * _elementwise.cos((2 * math.pi) * u[1::2])).reshape(out.shape)

    def _uniform(self, n, dtype, device):
        if normalize(dtype).name == "float32":
            return (self._words(n, device) >> 8).astype("float32") * (1.0 / (1 << 24))
        words = self._words(2 * n, device).astype("uint64")
        mantissa = ((words[0::2] >> 5) << 26) | (words[1::2] >> 6)  # 53 random bits
        return mantissa.astype("float64") * (1.0 / (1 << 53))

    def __repr__(self):
        return f"{type(self).__name__}(key={self._key:#x})"


class XORWOW(_SequentialBitGenerator):
    """XORWOW (Marsaglia's xorshift with a Weyl sequence), cuRAND's default
    generator and CuPy's ``XORWOW``; kiln seeds its lanes its own way, so the
    words differ from cuRAND's for the same seed."""

    _KERNEL = "kiln_xorwow_words"

    @staticmethod
    def _state_from(words):
        words[:, 0] |= (words[:, :5] == 0).all(axis=1).astype(words.dtype)  # xorshift needs a nonzero state
        return words


class MRG32k3a(_SequentialBitGenerator):
    """L'Ecuyer's MRG32k3a combined recursive generator, CuPy's
    ``MRG32k3a``; kiln seeds its lanes its own way."""

    _KERNEL = "kiln_mrg32k3a_words"

    @staticmethod
    def _state_from(words):
        m1, m2 = 4294967087, 4294944443
        components = words.astype("int64")
        components[:, :3] = 1 + components[:, :3] % (m1 - 1)  # each in [1, m - 1]: never an all-zero triple
        components[:, 3:] = 1 + components[:, 3:] % (m2 - 1)
        return components


_KERNEL_NAMES = (XORWOW._KERNEL, MRG32k3a._KERNEL)
_compiled = {}


def _kernels():
    """The sequential generators' kernels, compiled once a process for each device kind."""
    if not _compiled:
        from .._cupy_kernels.raw import generated_kernels

        _compiled.update(zip(_KERNEL_NAMES, generated_kernels("#include <kiln/device/sequential_rngs.cuh>\n",
                                                             list(_KERNEL_NAMES))))
    return _compiled


class Generator(Distributions):
    """Random draws from a bit generator's stream (kiln's Philox4x3210
    unless given one); make one with ``kiln.random.default_rng(seed)``.
    Draws go to ``device`` (default: kiln's default device at each draw)."""

    def __init__(self, seed=None, *, device=None):
        if seed is not None and not isinstance(seed, (BitGenerator, Generator)) and hasattr(seed, "random_raw"):
            raise TypeError(f"bit_generator: kiln's Generator draws from kiln's bit generators, not "
                            f"{type(seed).__name__} (NumPy's bit generators run on the host only)")
        self.bit_generator = seed if isinstance(seed, BitGenerator) else Philox4x3210(seed)
        self._device = None if device is None else to_device(device)

    @property
    def bit_generator(self):
        return self._bit_generator

    @bit_generator.setter
    def bit_generator(self, bit_generator):
        """A new bit generator: the draws continue from its stream."""
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError(f"bit_generator: expected a kiln BitGenerator, got {type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    def _device_for(self):
        return self._device or default_device()

    def spawn(self, n_children):
        """``n_children`` independent generators of this one's kind (keys
        derived from its key through a SeedSequence)."""
        import numpy as np

        children = np.random.SeedSequence(self._bit_generator._key).spawn(n_children)
        return [Generator(type(self._bit_generator)(child), device=self._device) for child in children]

    def __repr__(self):
        return f"Generator({self._bit_generator!r})"

    def _draw(self, kind, size, dtype, out=None, device=None):
        if out is None:
            out = _core._empty(_shape(size), dtype, device or self._device or default_device())
        self._bit_generator._fill(out, kind)
        return out

    def random(self, size=None, dtype="float64", out=None):
        """Uniform values in [0, 1)."""
        return self._draw(_UNIFORM, size, _float_dtype(dtype), out)

    def standard_normal(self, size=None, dtype="float64", out=None):
        return self._draw(_NORMAL, size, _float_dtype(dtype), out)

    def normal(self, loc=0.0, scale=1.0, size=None):
        _check_scale(scale)
        return self.standard_normal(size) * scale + loc

    def uniform(self, low=0.0, high=1.0, size=None):
        return self.random(size) * (high - low) + low

    def exponential(self, scale=1.0, size=None):
        _check_scale(scale)
        return self.standard_exponential(size) * scale

    def standard_exponential(self, size=None, dtype="float64", method="inv", out=None):
        values = -_elementwise.log1p(-self.random(size, dtype))
        if out is not None:
            out[...] = values
            return out
        return values

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        """Integers in [low, high) ([low, high] with ``endpoint``); [0, low) without high.
        From 64 random bits reduced modulo the range: the bias is below
        range / 2**64, far under what any test of the output could see."""
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + (1 if endpoint else 0)
        dt = normalize(dtype)
        if dt.kind not in "iu":
            raise TypeError(f"dtype must be an integer type, got {dt.name}")
        if high <= low:
            raise ValueError(f"high <= low: the range [{low}, {high}) is empty")
        info = _core._iinfo(dt)
        if low < info[1] or high - 1 > info[2]:
            raise ValueError(f"the range [{low}, {high}) does not fit {dt.name}")
        bits = self._draw(_BITS, size, normalize("uint64"))
        span = high - low
        if span > _KEY_MASK:
            values = bits
        else:
            values = _elementwise.remainder(bits, _creation.asarray(span, dtype="uint64", device=bits.device))
        if low >= 0:
            return (values + _creation.asarray(low, dtype="uint64", device=bits.device)).astype(dt)
        return (values.astype("int64") + low).astype(dt)

    def _random_order(self, n, device):
        """A uniformly random ordering of range(n): the positions that sort n
        random 64-bit keys (a stable sort, so every device orders the same
        keys alike)."""
        return _sorting.argsort(self._draw(_BITS, n, normalize("uint64"), device=device))

    def permutation(self, x, axis=0):
        """A random ordering of ``arange(x)`` for an int, else a shuffled copy
        of ``x`` along ``axis``."""
        if isinstance(x, int) and not isinstance(x, bool):
            if x < 0:
                raise ValueError(f"permutation: x must be non-negative, got {x}")
            return self._random_order(x, self._device or default_device())
        x = _creation.asarray(x)
        if x.ndim == 0:
            raise IndexError("x must be an integer or at least 1-dimensional")
        return _gathering.take(x, self._random_order(x.shape[axis], x.device), axis=axis)

    def shuffle(self, x, axis=0):
        """Shuffles the kiln array ``x`` in place along ``axis``."""
        if not isinstance(x, _core.ndarray):
            raise TypeError(f"shuffle: x must be a kiln.ndarray, got {type(x).__name__}")
        x[...] = self.permutation(x, axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples of ``a`` (an array, or ``arange(a)`` for an int) along
        ``axis``. With ``p``, weighted: with replacement by inverting the
        running sum of ``p``; without, by sorting exponential keys over
        ``p`` (each draw takes the next item with chance proportional to its
        weight among those left, as NumPy's draws do)."""
        from_int = isinstance(a, int) and not isinstance(a, bool)
        shape = _shape(size)
        count = math.prod(shape)
        if from_int:
            if a < 0 or (a == 0 and count):
                raise ValueError("a must be a positive integer unless no samples are taken")
            population, device = a, self._device or default_device()
        else:
            a = _creation.asarray(a)
            if a.ndim == 0:
                raise ValueError("a must be a sequence or an integer, not a 0-d array")
            population, device = a.shape[axis], a.device
            if population == 0 and count:
                raise ValueError("a cannot be empty unless no samples are taken")
        if p is not None:
            p = _creation.asarray(p, dtype="float64", device=device)
            if p.ndim != 1 or p.shape[0] != population:
                raise ValueError("p must be 1-dimensional and as long as a")
            if bool(_core.any(_core.less(p, 0))) or not bool(_core.all(_core.isfinite(p))):
                raise ValueError("probabilities are not non-negative")
            if abs(float(_core.sum(p)) - 1) > 1e-8:
                raise ValueError("probabilities do not sum to 1")
        if not replace and count > population:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is None and replace:
            picks = _creation.asarray(self.integers(0, population, shape), device=device) if population else \
                _core._empty(shape, "int64", device)
        elif p is None:
            picks = self._random_order(population, device)[:count].reshape(shape)
        elif replace:
            total = _core.cumulative_sum(p)
            u = self.random(shape).to_device(device) * total[-1]
            picks = _core.minimum(_sorting.searchsorted(total, u, side="right"), population - 1)
        else:
            if count > int(_core.sum(_core.greater(p, 0))):
                raise ValueError("Fewer non-zero entries in p than size")
            keys = self.standard_exponential(population).to_device(device) / p
            picks = _sorting.argsort(keys)[:count].reshape(shape)
        if from_int:
            return picks
        return _gathering.take(a, picks, axis=axis)


def _float_dtype(dtype):
    dt = normalize(dtype)
    if dt.name not in ("float32", "float64"):
        raise TypeError(f"dtype must be float32 or float64, got {dt.name}")
    return dt


def _check_scale(scale):
    if isinstance(scale, (int, float)) and scale < 0:
        raise ValueError("scale must be non-negative")


def default_rng(seed=None, *, device=None):
    """A Generator on a Philox4x32-10 stream keyed by ``seed`` (random when None)."""
    return Generator(seed, device=device)
