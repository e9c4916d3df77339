"""A minimal stand-in for Numba's ``numba.cuda.tests.support``: a TestCase
with ``assertPreciseEqual``, ``override_config`` and output capture."""
import contextlib
import io
import math
import sys
import tempfile
import unittest
import warnings

import numpy as np

import kiln


def _host(value):
    if isinstance(value, kiln.ndarray):
        return kiln.asnumpy(value)
    return value


def _kind(value):
    if isinstance(value, (bool, np.bool_)):
        return "b"
    if isinstance(value, (int, np.integer)):
        return "i"
    if isinstance(value, (float, np.floating)):
        return "f"
    if isinstance(value, (complex, np.complexfloating)):
        return "c"
    return type(value)


class TestCase(unittest.TestCase):
    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None, ignore_sign_on_zero=False,
                           abs_tol=None):
        """Equal values of the same kind: exactly, or within `ulps` units in the
        last place of single or double precision (NaNs equal, zero's sign kept)."""
        first, second = _host(first), _host(second)
        if isinstance(first, np.ndarray) or isinstance(second, np.ndarray):
            a, b = np.asarray(first), np.asarray(second)
            self.assertEqual(a.shape, b.shape, msg)
            self.assertEqual(a.dtype.kind, b.dtype.kind, msg)
            for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
                self._precise_scalar(x, y, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if isinstance(first, (tuple, list)) and isinstance(second, (tuple, list)):
            self.assertEqual(len(first), len(second), msg)
            for x, y in zip(first, second):
                self.assertPreciseEqual(x, y, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        kinds = {_kind(first), _kind(second)}
        if not kinds <= {"b", "i", "f", "c"}:
            self.assertEqual(first, second, msg)
            return
        self.assertEqual(_kind(first), _kind(second), msg or f"{first!r} and {second!r} differ in kind")
        self._precise_scalar(first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol)

    def reset_module_warnings(self, module):
        """Forget the warnings `module` (a module or its name) has shown, so they show again."""
        module = sys.modules[module] if isinstance(module, str) else module
        getattr(module, "__warningregistry__", {}).clear()

    def _precise_scalar(self, x, y, prec, ulps, msg, ignore_sign_on_zero, abs_tol):
        if isinstance(x, complex) or isinstance(y, complex) or np.iscomplexobj(x) or np.iscomplexobj(y):
            x, y = complex(x), complex(y)
            self._precise_scalar(x.real, y.real, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            self._precise_scalar(x.imag, y.imag, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if not isinstance(x, float) and not isinstance(y, float) and not isinstance(x, np.floating) \
                and not isinstance(y, np.floating):
            self.assertEqual(x, y, msg)
            return
        x, y = float(x), float(y)
        if math.isnan(x) or math.isnan(y):
            self.assertTrue(math.isnan(x) and math.isnan(y), msg or f"{x!r} != {y!r}")
            return
        if x == y:
            if x == 0 and not ignore_sign_on_zero:
                self.assertEqual(math.copysign(1, x), math.copysign(1, y), msg or f"{x!r} != {y!r} (sign of zero)")
            return
        if abs_tol is not None and abs(x - y) <= abs_tol:
            return
        if prec == "exact" or math.isinf(x) or math.isinf(y):
            self.fail(msg or f"{x!r} != {y!r}")
        bits = 53 if prec == "double" else 24
        tolerance = 2.0 ** (math.frexp(max(abs(x), abs(y)))[1] - bits) * ulps
        self.assertLessEqual(abs(x - y), tolerance, msg or f"{x!r} != {y!r} within {ulps} ulps ({prec})")


@contextlib.contextmanager
def override_config(name, value):
    from ..core import config

    old = getattr(config, name, None)
    setattr(config, name, value)
    try:
        yield
    finally:
        setattr(config, name, old)


@contextlib.contextmanager
def _captured(stream_name):
    old = getattr(sys, stream_name)
    setattr(sys, stream_name, io.StringIO())
    try:
        yield getattr(sys, stream_name)
    finally:
        setattr(sys, stream_name, old)


def captured_stdout():
    return _captured("stdout")


def captured_stderr():
    return _captured("stderr")


def temp_directory(prefix):
    return tempfile.mkdtemp(prefix=prefix)


@contextlib.contextmanager
def ignore_internal_warnings():
    yield


linux_only = unittest.skipUnless(sys.platform.startswith("linux"), "linux only")
windows_only = unittest.skipUnless(sys.platform.startswith("win"), "windows only")
skip_unless_cffi = unittest.skip("cffi functions in kernels are Numba's CPU-compiler feature")


class MemoryLeakMixin:
    """Numba checks its NRT's allocations around a test; kiln's kernels
    allocate nothing the test could leak, so there is nothing to check."""


class CheckWarningsMixin:
    """Numba's helper: the block issues each of `messages` once, as `category`."""

    @contextlib.contextmanager
    def check_warnings(self, messages, category=RuntimeWarning):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
        found = 0
        for w in caught:
            for m in messages:
                if m in str(w.message):
                    self.assertEqual(w.category, category)
                    found += 1
        self.assertEqual(found, len(messages))


def run_in_subprocess(code, flags=None, env=None, timeout=30):
    """Numba's helper: runs `code` in a new interpreter; (stdout, stderr) as text, as numba-cuda's."""
    import subprocess

    popen = subprocess.Popen([sys.executable] + list(flags or []) + ["-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, text=True)
    out, err = popen.communicate(timeout=timeout)
    if popen.returncode != 0:
        raise AssertionError(f"process failed with code {popen.returncode}: stderr follows\n{err}")
    return out, err
