"""The rest of CuPy's testing helpers: warnings, mock checks, NumPy alias
test bases and fixed random states."""
import contextlib
import functools
import inspect
import random
import types
import unittest
import warnings
from unittest import mock

import numpy


@contextlib.contextmanager
def assert_warns(expected):
    """The block issues at least one warning of class `expected`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError(f"{getattr(expected, '__name__', expected)} not triggered")


@contextlib.contextmanager
def AssertFunctionIsCalled(*args, times_called=1, **kwargs):  # noqa: N802  (CuPy's name)
    """``unittest.mock.patch(*args, **kwargs)`` over the block, which must call
    the patched function `times_called` times."""
    with mock.patch(*args, **kwargs) as handle:
        yield
        assert handle.call_count == times_called, \
            f"called {handle.call_count} times, expected {times_called}"


class _NumpyAliasTestBase(unittest.TestCase):
    """A kiln function and NumPy's of the same name (``func``, set by the subclass)."""

    @property
    def func(self):
        raise NotImplementedError("a NumPy alias test sets func to the function's name")

    @property
    def cupy_func(self):
        import kiln

        return getattr(kiln, self.func)

    @property
    def numpy_func(self):
        return getattr(numpy, self.func)


class NumpyAliasBasicTestBase(_NumpyAliasTestBase):
    def test_argspec(self):
        assert inspect.signature(self.cupy_func) == inspect.signature(self.numpy_func)

    def test_docstring(self):
        assert self.cupy_func.__doc__
        assert self.cupy_func.__doc__ is not self.numpy_func.__doc__


class NumpyAliasValuesTestBase(_NumpyAliasTestBase):
    def test_values(self):
        assert self.cupy_func(*self.args) == self.numpy_func(*self.args)


# Nesting depth of fixed random states and what the outermost one replaced.
_fixed = {"depth": 0, "saved": None}


def _fix():
    import kiln.random

    if _fixed["depth"] == 0:
        _fixed["saved"] = (random.getstate(), numpy.random.get_state(), kiln.random.get_random_state())
        kiln.random.reset_states()
        random.seed(99)
        numpy.random.seed(100)
        kiln.random.seed(101)
    _fixed["depth"] += 1


def _release():
    import kiln.random

    _fixed["depth"] -= 1
    if _fixed["depth"] == 0:
        python_state, numpy_state, kiln_state = _fixed["saved"]
        random.setstate(python_state)
        numpy.random.set_state(numpy_state)
        kiln.random.set_random_state(kiln_state)
        _fixed["saved"] = None


def generate_seed():
    """A seed drawn from the fixed NumPy state (inside fix_random only)."""
    if _fixed["depth"] == 0:
        raise RuntimeError("generate_seed: random states are not fixed (use fix_random)")
    return numpy.random.randint(0x7FFFFFFF)


def fix_random():
    """Fixes Python's, NumPy's and kiln's random states during a test method
    (or every test of a unittest.TestCase class), restoring them after."""
    def decorator(impl):
        if isinstance(impl, types.FunctionType):
            @functools.wraps(impl)
            def test(*args, **kw):
                _fix()
                try:
                    return impl(*args, **kw)
                finally:
                    _release()
            return test
        if isinstance(impl, type) and issubclass(impl, unittest.TestCase):
            set_up, tear_down = impl.setUp, impl.tearDown

            def setUp(self):  # noqa: N802
                _fix()
                set_up(self)

            def tearDown(self):  # noqa: N802
                try:
                    tear_down(self)
                finally:
                    _release()
            impl.setUp, impl.tearDown = setUp, tearDown
            return impl
        raise TypeError(f"fix_random: expected a test function or a TestCase class, got {impl!r}")
    return decorator
