"""``numba.cuda`` is kiln.cuda: every public name of kiln.cuda, and its
submodules under Numba's module names (``numba.cuda.random`` is
kiln.cuda.random). ``HAS_NUMBA`` is False (see below).
The test-support modules beside this file (testing.py, tests/, core/) are
the shim's own minimal stand-ins for Numba's test harness."""
import importlib as _importlib
import sys as _sys

import kiln.cuda as _kiln_cuda

globals().update({k: v for k, v in vars(_kiln_cuda).items() if not k.startswith("_")})
for _name in ("types", "random", "libdevice", "vector_types", "fp16", "bf16", "cg", "compiler", "kernels"):
    try:
        # in sys.modules and as an attribute, as importing a submodule sets it on its package
        _sys.modules[f"{__name__}.{_name}"] = globals()[_name] = _importlib.import_module(f"kiln.cuda.{_name}")
    except ImportError:  # a module kiln lacks fails to import, as it would for a user
        pass
from .core import config  # noqa: E402,F401
from . import cudadrv, launchconfig  # noqa: E402,F401  (the shim's own, see their docstrings)

# False: with it True, test files import Numba's compiler internals
# (numba.core, numba.extending), which kiln.numba does not have; measured
# on 2026-12-07, 13 files, it took more tests than it gave.
HAS_NUMBA = False
