"""CuPy's ``cupy.cuda.cusolver``, what code reads of it: the version of the
cuSOLVER library kiln loads (kiln's linear algebra calls it on a GPU; it is
loaded to answer, no GPU needed). The routines themselves are kiln.linalg's
and kiln.scipy.linalg's; ``kiln.cusolver`` says which of them kiln offers."""
from .._cuda.backend import core


def getVersion():
    """cuSOLVER's version as one number: major * 1000 + minor * 100 + patch."""
    return core()._cusolver_version()


def _getVersion():
    """cuSOLVER's version as (major, minor, patch), as CuPy's."""
    version = getVersion()
    return version // 1000, version % 1000 // 100, version % 100
