"""pytest's hook for CuPy's tests, copied beside them by run.py: the shim,
and the markers CuPy's test configuration declares."""
import os

import cupy_shim

cupy_shim.install(os.environ["KILN_CUPY_SOURCE"])


def pytest_configure(config):
    for marker in ("slow", "multi_gpu", "parallel_threads", "iterations", "thread_unsafe"):
        config.addinivalue_line("markers", f"{marker}: CuPy's marker")
