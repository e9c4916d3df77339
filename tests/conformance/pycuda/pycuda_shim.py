"""The name-only shim PyCUDA's tests run through: ``pycuda`` is kiln.pycuda
and ``pycuda.X`` is ``kiln.pycuda.X`` for each of PyCUDA's module names that kiln has.
Nothing else is changed; a module kiln lacks fails to import, as it would
for a user."""
import importlib
import sys

# PyCUDA's modules, as its package lays them out.
PYCUDA_MODULES = ["autoinit", "characterize", "compiler", "cumath", "curandom", "debug", "driver", "elementwise",
                  "gl", "gpuarray", "reduction", "scan", "sparse", "tools"]


def install():
    import kiln.pycuda

    sys.modules["pycuda"] = kiln.pycuda
    for name in PYCUDA_MODULES:
        try:
            sys.modules[f"pycuda.{name}"] = importlib.import_module(f"kiln.pycuda.{name}")
        except ImportError:  # a module kiln lacks, or refuses by name (kiln.pycuda.gl)
            pass
