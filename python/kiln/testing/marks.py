"""pytest marks and skips by what the machine has: GPUs, packages, NumPy's version."""
import importlib.metadata

import numpy


def _pytest():
    import pytest

    return pytest


def slow(*args, **kwargs):
    """pytest's ``slow`` mark (CuPy's regular runs leave such tests out)."""
    return _pytest().mark.slow(*args, **kwargs)


def multi_gpu(gpu_num):
    """Skips the test unless at least `gpu_num` GPUs are present (the CPU
    backend counts as none), and marks it ``multi_gpu``."""
    pytest = _pytest()
    from .. import cuda

    count = cuda.runtime.getDeviceCount() if cuda.is_available() else 0

    def decorator(test):
        return pytest.mark.multi_gpu(pytest.mark.skipif(count < gpu_num, reason=f"{gpu_num} GPUs needed")(test))
    return decorator


def installed(*specifiers):
    """Whether every requirement (``"scipy>=1.11"``, a name alone) is met by an installed distribution."""
    from packaging.requirements import Requirement

    for specifier in specifiers:
        requirement = Requirement(specifier)
        try:
            version = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(version, prereleases=True):
            return False
    return True


def with_requires(*requirements):
    """Skips the test unless every requirement is installed."""
    return _pytest().mark.skipif(not installed(*requirements),
                                 reason="requires: " + ", ".join(requirements))


def numpy_satisfies(version_range):
    """Whether the installed NumPy's version is within `version_range` (``">=2.0"``)."""
    from packaging.specifiers import SpecifierSet

    return SpecifierSet(version_range).contains(numpy.__version__, prereleases=True)


