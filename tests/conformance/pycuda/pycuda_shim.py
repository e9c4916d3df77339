"""The name-only shim PyCUDA's tests run through: ``pycuda`` is kiln and
``pycuda.X`` is ``kiln.X`` for each of PyCUDA's module names that kiln has.
Nothing else is changed; a module kiln lacks fails to import, as it would
for a user."""
import importlib
import sys

# PyCUDA's modules, as its package lays them out.
PYCUDA_MODULES = ["autoinit", "characterize", "compiler", "cumath", "curandom", "debug", "driver", "elementwise",
                  "gl", "gpuarray", "reduction", "scan", "sparse", "tools"]


def install():
    import kiln

    sys.modules["pycuda"] = kiln
    for name in PYCUDA_MODULES:
        try:
            sys.modules[f"pycuda.{name}"] = importlib.import_module(f"kiln.{name}")
        except ImportError:  # a module kiln lacks, or refuses by name (kiln.gl)
            pass
