"""The name-only shim CuPy's tests run through: ``cupy`` and ``cupyx`` are
kiln's namespace (modules that forward every name to kiln), ``cupy.X`` and
``cupyx.X`` are ``kiln.X`` for each module kiln has, and ``cupy.testing`` is
CuPy's own testing package, loaded from CuPy's source.

CuPy's testing helpers reach into one CuPy internal, ``cupy._core.internal``
for ``prod``; it is given here as the standard library's ``math.prod``. CuPy's
tests call the module-level distributions through their private module
``cupy.random._distributions``, and build generators from its private
``cupy.random._bit_generator``: both names are mapped to ``kiln.random``,
where kiln's module-level distributions and bit generators are.
CuPy's low-level ``cupy_backends.cuda.api.runtime`` and ``.driver`` are
kiln.cuda's runtime and driver modules. Nothing else is changed: a module
kiln lacks fails to import, as it would for a user."""
import importlib
import importlib.util
import math
import pathlib
import sys
import types

# The modules of CuPy (and cupyx) that its tests import, as CuPy lays them out.
CUPY_MODULES = ["cuda", "cuda.driver", "cuda.runtime", "cuda.memory", "cuda.stream", "cuda.compiler", "cuda.nvtx", "cuda.device",
                "cuda.profiler",
                "exceptions", "fft", "lib", "lib.stride_tricks", "linalg", "polynomial", "random", "typing"]
CUPYX_MODULES = ["cusolver", "cusparse", "jit", "profiler", "scipy", "scipy.fft", "scipy.linalg", "scipy.ndimage", "scipy.signal", "scipy.interpolate", "scipy.fftpack",
                 "scipy.sparse", "scipy.sparse.linalg", "scipy.special", "scipy.stats", "fallback_mode", "time"]


def _alias(alias, target):
    try:
        module = importlib.import_module(target)
    except ImportError:  # a module kiln lacks
        return
    sys.modules[alias] = module
    parent, _, child = alias.rpartition(".")
    setattr(sys.modules[parent], child, module)


def _forwarding_module(name, target):
    """A module named `name` whose names are `target`'s (PEP 562 __getattr__),
    so that the shim's additions (cupy.testing) stay out of kiln."""
    module = types.ModuleType(name)
    module.__getattr__ = lambda attribute: getattr(target, attribute)
    module.__dir__ = lambda: dir(target)
    return module


def _load_package(name, directory):
    spec = importlib.util.spec_from_file_location(name, directory / "__init__.py",
                                                  submodule_search_locations=[str(directory)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def install(cupy_source):
    """cupy_source: the directory holding CuPy's `cupy/testing`."""
    import kiln

    for name in ("cupy", "cupyx"):
        sys.modules[name] = _forwarding_module(name, kiln)
    for name in CUPY_MODULES:
        _alias(f"cupy.{name}", f"kiln.{name}")
    sys.modules["cupy.random"] = sys.modules["cupy"].random = _forwarding_module("cupy.random", kiln.random)
    sys.modules["cupy.random"]._distributions = sys.modules["cupy.random._distributions"] = kiln.random
    sys.modules["cupy.random"]._bit_generator = sys.modules["cupy.random._bit_generator"] = kiln.random
    for name in CUPYX_MODULES:
        _alias(f"cupyx.{name}", f"kiln.{name}")
    # CuPy's low-level runtime and driver modules, which some tests import
    # for runtime.is_hip and driver.get_build_version(): kiln's.
    backends = ["cupy_backends", "cupy_backends.cuda", "cupy_backends.cuda.api"]
    for name in backends:
        sys.modules[name] = types.ModuleType(name)
    for name in ("runtime", "driver"):
        _alias(f"cupy_backends.cuda.api.{name}", f"kiln.cuda.{name}")
    sys.modules["cupy_backends"].cuda = sys.modules["cupy_backends.cuda"]
    sys.modules["cupy_backends.cuda"].api = sys.modules["cupy_backends.cuda.api"]
    core = types.ModuleType("cupy._core")
    sys.modules["cupy"]._core = core
    core.internal = types.SimpleNamespace(prod=math.prod)
    sys.modules["cupy._core"] = core
    sys.modules["cupy._core.internal"] = core.internal
    sys.modules["cupy"].testing = _load_package("cupy.testing", pathlib.Path(cupy_source) / "cupy" / "testing")
