"""NumPy's legacy module-level random functions (``np.random.rand`` and
friends) and RandomState, on kiln's Generator. The module-level functions
draw from the current device's RandomState (``get_random_state()``), one
per device as in CuPy; ``reset_states()`` starts them afresh."""
from .._ndarray.device import default_device
from . import _generator
from ._distributions import DISTRIBUTIONS, Distributions
from ._generator import Generator


class RandomState(Distributions):
    """NumPy's RandomState spellings over a Philox Generator (not NumPy's Mersenne Twister stream)."""

    def __init__(self, seed=None):
        self._generator = Generator(seed)

    def _device_for(self):
        return default_device()

    def seed(self, seed=None):
        self._generator = Generator(seed)

    def rand(self, *shape, dtype="float64"):
        return self._generator.random(shape, dtype)

    def randn(self, *shape, dtype="float64"):
        return self._generator.standard_normal(shape, dtype)

    def randint(self, low, high=None, size=None, dtype="int64"):
        return self._generator.integers(low, high, size, dtype)

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (NumPy's deprecated spelling of randint with endpoint)."""
        if high is None:
            low, high = 1, low
        return self._generator.integers(low, high, size, "int64", endpoint=True)

    def tomaxint(self, size=None):
        return self._generator.integers(0, 2 ** 63 - 1, size, "int64")

    def random_sample(self, size=None, dtype="float64"):
        return self._generator.random(size, dtype)

    random = ranf = sample = random_sample

    def standard_normal(self, size=None, dtype="float64"):
        return self._generator.standard_normal(size, dtype)

    def standard_exponential(self, size=None, dtype="float64"):
        return self._generator.standard_exponential(size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype="float64"):
        return self._generator.uniform(low, high, size).astype(dtype, copy=False)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype="float64"):
        return self._generator.normal(loc, scale, size).astype(dtype, copy=False)

    def exponential(self, scale=1.0, size=None, dtype="float64"):
        return self._generator.exponential(scale, size).astype(dtype, copy=False)

    def choice(self, a, size=None, replace=True, p=None):
        return self._generator.choice(a, size, replace, p)

    def permutation(self, x):
        return self._generator.permutation(x)

    def shuffle(self, x):
        self._generator.shuffle(x)


def get_random_state():
    """The RandomState of the current device (made on first use)."""
    device = default_device()
    key = 0 if device.type == "cpu" else device.index
    state = _generator._random_states.get(key)
    if state is None:
        state = _generator._random_states[key] = RandomState()
    return state


def set_random_state(rs):
    """Make ``rs`` the current device's RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"rs: expected a kiln.random.RandomState, got {type(rs).__name__}")
    device = default_device()
    _generator._random_states[0 if device.type == "cpu" else device.index] = rs


def reset_states():
    """Forget every device's RandomState (the next draw starts a fresh, randomly seeded one)."""
    _generator._random_states = {}


def seed(seed=None):
    """Reseed the current device's RandomState."""
    get_random_state().seed(seed)


def module_function(name):
    """``name`` as a module-level function: a draw from the current device's
    RandomState (``kiln.random.gamma(...)`` is ``get_random_state().gamma(...)``)."""
    def draw(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)

    method = getattr(RandomState, name)
    draw.__name__ = draw.__qualname__ = name
    draw.__doc__ = f"``get_random_state().{name}(...)``" + (": " + method.__doc__ if method.__doc__ else "")
    return draw


# kiln.random's module-level functions: RandomState's own draws and every distribution.
MODULE_FUNCTIONS = DISTRIBUTIONS + ["rand", "randn", "randint", "random_integers", "random_sample", "random", "ranf", "sample",
                    "uniform", "normal", "standard_normal", "standard_exponential", "exponential", "choice",
                    "permutation", "shuffle", "tomaxint"]
globals().update({name: module_function(name) for name in MODULE_FUNCTIONS})
