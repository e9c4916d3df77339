"""The CPU's BLAS/LAPACK for kiln to try before the system's: the OpenBLAS
that NumPy's wheels carry (numpy.libs/libscipy_openblas64_*.so, an ILP64
build with scipy_-prefixed symbols). kiln loads a library with dlopen only
when a CPU product or decomposition first needs one."""
import glob
import os

import numpy

from . import _core


def register():
    wheel_libs = os.path.join(os.path.dirname(os.path.dirname(numpy.__file__)), "numpy.libs")
    for path in sorted(glob.glob(os.path.join(wheel_libs, "libscipy_openblas*.so"))):
        _core._add_blas_library_candidate(path)
