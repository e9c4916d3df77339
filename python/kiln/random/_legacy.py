"""NumPy's legacy module-level random functions (``np.random.rand`` and
friends) and RandomState, on kiln's Generator."""
from ._generator import Generator


class RandomState:
    """NumPy's RandomState spellings over a Philox Generator (not NumPy's Mersenne Twister stream)."""

    def __init__(self, seed=None):
        self._generator = Generator(seed)

    def seed(self, seed=None):
        self._generator = Generator(seed)

    def rand(self, *shape):
        return self._generator.random(shape)

    def randn(self, *shape):
        return self._generator.standard_normal(shape)

    def randint(self, low, high=None, size=None, dtype="int64"):
        return self._generator.integers(low, high, size, dtype)

    def random_sample(self, size=None):
        return self._generator.random(size)

    random = random_sample

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._generator.uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._generator.normal(loc, scale, size)

    def standard_normal(self, size=None):
        return self._generator.standard_normal(size)

    def exponential(self, scale=1.0, size=None):
        return self._generator.exponential(scale, size)

    def choice(self, a, size=None, replace=True, p=None):
        return self._generator.choice(a, size, replace, p)

    def permutation(self, x):
        return self._generator.permutation(x)

    def shuffle(self, x):
        self._generator.shuffle(x)


_global = RandomState()


def seed(seed=None):
    _global.seed(seed)


def rand(*shape):
    return _global.rand(*shape)


def randn(*shape):
    return _global.randn(*shape)


def randint(low, high=None, size=None, dtype="int64"):
    return _global.randint(low, high, size, dtype)


def random_sample(size=None):
    return _global.random_sample(size)


random = ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None):
    return _global.uniform(low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _global.normal(loc, scale, size)


def standard_normal(size=None):
    return _global.standard_normal(size)


def exponential(scale=1.0, size=None):
    return _global.exponential(scale, size)


def choice(a, size=None, replace=True, p=None):
    return _global.choice(a, size, replace, p)


def permutation(x):
    return _global.permutation(x)


def shuffle(x):
    _global.shuffle(x)


def get_random_state():
    return _global
