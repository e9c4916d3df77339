"""A minimal stand-in for Numba's ``numba.cuda.testing``: the test case class
and the skip decorators, read against kiln (which is not the simulator, and
whose CPU backend runs every construct a GPU of any compute capability has)."""
import pathlib
import unittest

import numpy as np

import kiln.cuda as _cuda

from .tests.support import TestCase

test_data_dir = pathlib.Path(__file__).parent / "tests" / "data"


class CUDATestCase(TestCase):
    """Numba's base class for CUDA tests (its FileCheck helpers inspect Numba's
    LLVM and PTX, which kiln does not make: they raise unittest.SkipTest)."""

    FLOAT16_RTOL = np.finfo(np.float16).eps  # Numba's tolerance for float16 results

    def assertFileCheckAsm(self, *args, **kwargs):
        raise unittest.SkipTest("inspects Numba's PTX")

    assertFileCheckLLVM = assertFileCheckMatches = assertFileCheckAsm


def _never(reason=None):
    return lambda f: f


skip_on_cudasim = skip_on_arm = skip_on_wsl2 = skip_if_external_memmgr = skip_under_cuda_memcheck = _never
skip_if_nvjitlink_missing = skip_on_nvjitlink_13_1_sm_120 = skip_without_nvdisasm = skip_with_nvdisasm = _never


def skip_unless_cudasim(reason):
    return unittest.skip(reason)


def skip_on_standalone_numba_cuda(test):
    """Numba skips these when numba-cuda runs without Numba's CPU package,
    which its implementation of them needs (cuda.random's state setup, ...).
    kiln's implementation does not, so they run: those that call Numba's CPU
    compiler themselves (``njit``) fail, as they should."""
    return test


def cc_X_or_above(major, minor):
    if not _cuda.is_available():
        return True  # the CPU backend has every construct
    return _cuda.get_current_device().compute_capability >= (major, minor)


def _skip_unless_cc(major, minor):
    return unittest.skipUnless(cc_X_or_above(major, minor), f"needs compute capability {major}.{minor}")


skip_unless_cc_50, skip_unless_cc_53, skip_unless_cc_60, skip_unless_cc_75, skip_unless_cc_90 = (
    _skip_unless_cc(*cc) for cc in ((5, 0), (5, 3), (6, 0), (7, 5), (9, 0)))


def _identity(f):
    return f


skip_if_cudadevrt_missing = skip_if_curand_kernel_missing = skip_if_cuda_includes_missing = _identity


def xfail_unless_cudasim(f):
    return unittest.expectedFailure(f)


class ForeignArray:
    """An object that is a device array only through __cuda_array_interface__."""

    def __init__(self, arr):
        self._arr = arr
        self.__cuda_array_interface__ = arr.__cuda_array_interface__
