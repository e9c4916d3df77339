"""The CPU's BLAS/LAPACK for kiln to try before the system's: the OpenBLAS
that NumPy's wheels carry (numpy.libs/libscipy_openblas64_*.so, an ILP64
build with scipy_-prefixed symbols). kiln loads a library with dlopen only
when a CPU product or decomposition first needs one; NumPy itself is found,
not imported (``import kiln`` stays NumPy-free)."""
import glob
import importlib.util
import os

from .. import _core


def register():
    spec = importlib.util.find_spec("numpy")
    if spec is None or not spec.submodule_search_locations:
        return
    wheel_libs = os.path.join(os.path.dirname(list(spec.submodule_search_locations)[0]), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(wheel_libs, "libscipy_openblas*.so"))):
        _core._add_blas_library_candidate(path)
