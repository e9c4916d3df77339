"""Access to the C++ CUDA layer, or a clear error where kiln was built without it."""
from .. import _core

CUDAError = _core.CUDAError
ContextPoisoned = _core.ContextPoisoned
OutOfMemoryError = _core.OutOfMemoryError
BUILT_WITH_CUDA = hasattr(_core, "_cuda_device_count")


def core():
    """kiln._core, when it has the CUDA backend; CUDAError otherwise."""
    if not BUILT_WITH_CUDA:
        raise CUDAError("kiln was built without the CUDA backend (the CUDA toolkit headers were not found)")
    return _core
