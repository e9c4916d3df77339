"""A stand-in for Numba's ``numba.tests.support``, the harness of Numba's CPU
tests: the CUDA tests' stand-in (numba.cuda.tests.support) with what the CPU
files use besides. ``assertPreciseEqual`` keeps Numba's rules: the two
values are of one family (exact: bools, ints, NumPy integers, strings;
approximate: floats; complex; arrays; sequences), NumPy scalars and arrays of
the same dtype, arrays of the same shape, strides and mutability, bools never
equal to numbers. kiln has no NRT: the leak checks have nothing to count."""
import cmath
import contextlib
import enum
import functools
import importlib
import math
import os
import pathlib
import platform
import shutil
import sys
import unittest
import uuid

import numpy as np

from ..cuda.tests.support import (CheckWarningsMixin, captured_stderr, captured_stdout,  # noqa: F401
                                   ignore_internal_warnings, linux_only, override_config, run_in_subprocess,
                                   temp_directory, windows_only)
from ..cuda.tests.support import TestCase as _CUDATestCase
from ..cuda.tests.support import _host
from ..core import errors

try:
    import scipy
except ImportError:
    scipy = None

_32bit = sys.maxsize <= 2 ** 32
IS_MACOS_ARM64 = sys.platform == "darwin" and platform.machine() == "arm64"
IS_WIN_ARM64 = sys.platform == "win32" and platform.machine() == "ARM64"
REDUCED_TESTING = False  # Numba's switch for a shorter run of its suite; the full suite runs here
skip_if_reduced_testing = unittest.skipIf(REDUCED_TESTING, "reduced testing")
skip_macos_fenv_errors = unittest.skipIf(sys.platform == "darwin", "macOS floating-point environment")
skip_ppc64le_invalid_ctr_loop = unittest.skipIf(platform.machine() == "ppc64le", "ppc64le")
# Numba runs these tests only in a subprocess its own runner starts; under
# pytest (its baseline here too) they are skipped.
needs_subprocess = unittest.skipUnless(os.environ.get("SUBPROC_TEST") == "1", "needs subprocess harness")
expected_failure_np2 = unittest.expectedFailure if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else (lambda f: f)
_is_armv7l = platform.machine() == "armv7l"
disabled_test = unittest.skipIf(True, "Test disabled")
IS_NUMPY_2 = np.lib.NumpyVersion(np.__version__) >= "2.0.0"
skip_if_32bit = unittest.skipIf(_32bit, "Not supported on 32 bit")
skip_if_numpy_2 = unittest.skipIf(IS_NUMPY_2, "Not supported on numpy 2.0+")
skip_parfors_unsupported = unittest.skipIf(_32bit, "parfors not supported")
skip_unless_scipy = unittest.skipIf(scipy is None, "requires SciPy")
needs_blas = unittest.skipIf(scipy is None, "BLAS needs SciPy 1.0+")
needs_lapack = unittest.skipIf(scipy is None, "LAPACK needs SciPy 1.0+")
skip_if_freethreading = unittest.skipIf(not getattr(sys, "_is_gil_enabled", lambda: True)(),
                                        "not applicable to a free-threading build")
skip_unless_py10_or_later = unittest.skipUnless(sys.version_info >= (3, 10), "needs Python 3.10+")
skip_unless_cffi = unittest.skip("cffi functions in compiled code: Numba's typing of cffi")
numpy_sincos_low_precision = (sys.platform.startswith("linux") and platform.machine() == "x86_64"
                              and np.lib.NumpyVersion(np.__version__) < "1.25.0")


def tag(*tags):
    """Numba's test tags ('important', 'long_running'): labels only."""
    def mark(function):
        function.tags = set(tags)
        return function
    return mark


def compile_function(name, code, globs):
    """The function `name` that `code` defines, with `globs` its globals (Numba's helper)."""
    namespace = {}
    eval(compile(code.rstrip(), "<string>", "single"), globs, namespace)
    return namespace[name]


@contextlib.contextmanager
def override_env_config(name, value):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


@contextlib.contextmanager
def create_temp_module(source_lines, **jit_options):
    """The module `source_lines` (a format string whose {jit_options} are
    `jit_options` as keyword arguments) is, imported from a file of its own."""
    directory = temp_directory("test_temp_module")
    name = f"test_temp_module_{uuid.uuid4().hex}"
    try:
        with open(os.path.join(directory, name + ".py"), "w") as f:
            f.write(source_lines.format(jit_options=", ".join(f"{k}={v!r}" for k, v in jit_options.items())))
        sys.path.insert(0, directory)
        yield importlib.import_module(name)
    finally:
        sys.modules.pop(name, None)
        sys.path.remove(directory)
        shutil.rmtree(directory)


def available_memory_bytes():
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")


@contextlib.contextmanager
def capture_cache_log():
    """Numba's cache prints what it loads and saves here; kiln's cache logs nothing."""
    with captured_stdout() as out:
        yield out


class EnableNRTStatsMixin:
    """Numba turns on its NRT's allocation statistics for these tests; kiln has no NRT."""


class SerialMixin:
    """Numba's mark of a test that its own runner must not run in parallel."""
    _numba_parallel_test_ = False


class MemoryLeakMixin:
    """Numba counts its NRT's allocations around each test; kiln has no NRT
    (a compiled function's arrays are NumPy's or freed at its return), so
    the setup, teardown and the switch that turns the check off do nothing."""

    def memory_leak_setup(self):
        pass

    def memory_leak_teardown(self):
        pass

    def disable_leak_check(self):
        pass


_EXACT = ((bool, np.bool_), (int,), (str,), (np.integer,), (bytes, np.bytes_))


def _family(value):
    if isinstance(value, np.ndarray):
        return "ndarray"
    if isinstance(value, enum.Enum):
        return "enum"
    if isinstance(value, (tuple, list)):
        return "sequence"
    if any(isinstance(value, kinds) for kinds in _EXACT):
        return "exact"
    if isinstance(value, (complex, np.complexfloating)):
        return "complex"
    if isinstance(value, (float, np.inexact)):
        return "approximate"
    return "unknown"


class TestCase(_CUDATestCase):
    @property
    def random(self):
        """The same random numbers for every test, as Numba's harness gives them."""
        return np.random.RandomState(42)

    @contextlib.contextmanager
    def assertTypingError(self):
        """The block fails to compile (Numba accepts its typing and lowering
        errors, TypeError and NotImplementedError)."""
        with self.assertRaises((errors.TypingError, TypeError, NotImplementedError)) as caught:
            yield caught

    @contextlib.contextmanager
    def assertNoNRTLeak(self):
        yield

    def subprocess_test_runner(self, test_module, test_class=None, test_name=None, envvars=None, timeout=60,
                               flags=None, _subproc_test_env="1"):
        """Numba's: the named tests in a new interpreter, with SUBPROC_TEST
        set (so that @needs_subprocess tests run there) and `envvars`; they
        must pass. Numba's own runner is numba.runtests; unittest's serves."""
        import subprocess

        name = ".".join(part for part in (test_module, test_class, test_name) if part)
        flag_args = [str(item) for pair in (flags or {}).items() for item in pair]
        root = str(pathlib.Path(__file__).resolve().parents[2])  # where the staged numba package lies
        env = dict(os.environ, SUBPROC_TEST=_subproc_test_env, **(envvars or {}))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        status = subprocess.run([sys.executable, *flag_args, "-m", "unittest", name], capture_output=True,
                                text=True, timeout=timeout, env=env, cwd=root)
        streams = f"\ncaptured stdout: {status.stdout}\ncaptured stderr: {status.stderr}"
        self.assertEqual(status.returncode, 0, streams)
        if "NO TESTS RAN" in status.stderr:
            self.skipTest("NO TESTS RAN")
        self.assertIn("OK", status.stderr)
        return status

    def run_test_in_subprocess(maybefunc=None, timeout=60, envvars=None):
        """Numba's decorator: the test runs in a new interpreter (through
        subprocess_test_runner), and there as itself."""
        def wrapper(func):
            @functools.wraps(func)
            def inner(self, *args, **kwargs):
                if os.environ.get("SUBPROC_TEST") != func.__name__:
                    self.subprocess_test_runner(test_module=self.__module__, test_class=type(self).__name__,
                                                test_name=func.__name__, timeout=timeout, envvars=envvars,
                                                _subproc_test_env=func.__name__)
                else:
                    func(self)
            return inner

        return wrapper(maybefunc) if callable(maybefunc) else wrapper

    def assertStridesEqual(self, first, second):
        self.assertEqual(first.shape, second.shape, "shapes differ")
        self.assertEqual(first.itemsize, second.itemsize, "itemsizes differ")
        self.assertEqual(self._strides(first), self._strides(second), "strides differ")

    @staticmethod
    def _strides(array):
        """Strides in elements, those of dimensions of one element left out."""
        if array.size == 0:
            return [0] * array.ndim
        return [stride / array.itemsize for stride, extent in zip(array.strides, array.shape) if extent > 1]

    def assertPreciseEqual(self, first, second, prec="exact", ulps=1, msg=None, ignore_sign_on_zero=False,
                           abs_tol=None):
        try:
            self._precise(_host(first), _host(second), prec, ulps, msg, ignore_sign_on_zero, abs_tol)
        except AssertionError as exc:
            failure = str(exc)
        else:
            return
        self.fail(f"when comparing {first} and {second}: {failure}")

    def _precise(self, first, second, prec, ulps, msg, ignore_sign_on_zero, abs_tol):
        family = _family(first)
        self.assertEqual(family, _family(second), f"Type Family mismatch. ({family} != {_family(second)})"
                         + (f": {msg}" if msg else ""))
        if family == "ndarray":
            self.assertEqual(first.dtype, second.dtype)
            self.assertEqual(first.shape, second.shape, "different shapes")
            self.assertEqual(first.flags.writeable, second.flags.writeable, "different mutability")
            self.assertEqual(self._strides(first), self._strides(second), "different strides")
            for a, b in zip(first.flat, second.flat):
                self._precise(a, b, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if family == "sequence":
            self.assertEqual(len(first), len(second), msg=msg)
            for a, b in zip(first, second):
                self._precise(a, b, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if family == "enum":
            self.assertIs(first.__class__, second.__class__)
            self._precise(first.value, second.value, prec, ulps, msg, ignore_sign_on_zero, abs_tol)
            return
        if family == "unknown":
            self.assertIs(first.__class__, second.__class__)
        if hasattr(first, "dtype") and hasattr(second, "dtype"):
            self.assertEqual(first.dtype, second.dtype)
        if isinstance(first, _EXACT[0]) != isinstance(second, _EXACT[0]):
            self.fail(f"Mismatching return types ({first.__class__} vs. {second.__class__})"
                      + (f": {msg}" if msg else ""))
        try:
            if cmath.isnan(first) and cmath.isnan(second):
                return
        except TypeError:
            pass
        if abs_tol is not None:
            tolerance = np.finfo(type(first)).eps if abs_tol == "eps" else abs_tol
            if abs(first - second) < tolerance:
                return
        delta = None
        if family in ("complex", "approximate") and prec != "exact":
            bits = {"single": 24, "double": 53}.get(prec)
            if bits is None:
                raise ValueError(f"unsupported precision {prec!r}")
            delta = 2 ** (ulps - bits - 1) * (abs(first) + abs(second))
        if isinstance(first, (complex, np.complexfloating)):
            self._number(first.real, second.real, delta, msg, ignore_sign_on_zero)
            self._number(first.imag, second.imag, delta, msg, ignore_sign_on_zero)
        elif isinstance(first, (np.timedelta64, np.datetime64)) and np.isnat(first):
            self.assertEqual(np.isnat(first), np.isnat(second))
        else:
            self._number(first, second, delta, msg, ignore_sign_on_zero)

    def _number(self, first, second, delta, msg, ignore_sign_on_zero):
        if delta is None or first == second == 0.0 or math.isinf(first) or math.isinf(second):
            self.assertEqual(first, second, msg=msg)
            if not ignore_sign_on_zero:
                try:
                    if math.copysign(1, first) != math.copysign(1, second):
                        self.fail(self._formatMessage(msg, f"{first} != {second}"))
                except TypeError:
                    pass
        else:
            self.assertAlmostEqual(first, second, delta=delta, msg=msg)
